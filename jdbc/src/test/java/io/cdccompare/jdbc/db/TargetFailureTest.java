package io.cdccompare.jdbc.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class TargetFailureTest {

  @Test
  void brokenConnectionsTimeoutsAndDeadlocksAreTransient() {
    assertThat(
            TargetFailure.isTransient(
                new SQLException("This connection has been closed.", "08003")))
        .isTrue();
    assertThat(TargetFailure.isTransient(new SQLException("Connection refused", "08001"))).isTrue();
    assertThat(TargetFailure.isTransient(new SQLException("terminating connection", "57P01")))
        .isTrue();
    assertThat(TargetFailure.isTransient(new SQLException("canceling statement", "57014")))
        .isTrue();
    assertThat(TargetFailure.isTransient(new SQLException("deadlock detected", "40P01"))).isTrue();
    assertThat(TargetFailure.isTransient(new SQLException("Lock wait timeout", "HY000", 1205)))
        .isTrue();
    assertThat(TargetFailure.isTransient(new SQLException("max_statement_time", "70100", 1969)))
        .isTrue();
    assertThat(TargetFailure.isTransient(new SQLTransientConnectionException("gone"))).isTrue();
    assertThat(TargetFailure.isTransient(new SQLException("I/O", null, 0, new IOException("eof"))))
        .isTrue();
  }

  @Test
  void aTransientFailureWrappedInAnotherExceptionIsFoundByItsCause() {
    assertThat(
            TargetFailure.isTransient(
                new IllegalStateException("reading", new SQLException("closed", "08006"))))
        .isTrue();
  }

  @Test
  void missingTablesRefusedValuesAndBadCredentialsAreFatal() {
    assertThat(TargetFailure.isTransient(new SQLException("relation does not exist", "42P01")))
        .isFalse();
    assertThat(TargetFailure.isTransient(new SQLException("value too long", "22001"))).isFalse();
    assertThat(TargetFailure.isTransient(new SQLException("password failed", "28P01"))).isFalse();
    assertThat(TargetFailure.isTransient(new SQLException("Duplicate entry", "23000", 1062)))
        .isFalse();
    assertThat(TargetFailure.isTransient(new IllegalArgumentException("no primary key"))).isFalse();
  }
}
