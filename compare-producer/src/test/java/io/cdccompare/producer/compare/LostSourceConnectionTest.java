package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.config.ConnectionSettings.SourceDatabase;
import java.sql.SQLException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

class LostSourceConnectionTest {
  private static final SourceDatabase SOURCE =
      new SourceDatabase("db.example", 5433, "shop", "cdc", new Password("secret"));

  @Test
  void aClosedConnectionWrappedInAnotherFailureIsFound() {
    SQLException closed = new SQLException("This connection has been closed.", "08003");

    assertThat(LostSourceConnection.in(new ExecutionException(new RuntimeException(closed))))
        .contains(closed);
  }

  @Test
  void aTerminatedSessionAndAShutdownAreLostConnections() {
    assertThat(LostSourceConnection.lost("57P01")).isTrue(); // admin shutdown
    assertThat(LostSourceConnection.lost("57P03")).isTrue(); // cannot connect now
    assertThat(LostSourceConnection.lost("08006")).isTrue(); // connection failure
  }

  @Test
  void otherSqlErrorsAreNot() {
    assertThat(LostSourceConnection.in(new SQLException("no such table", "42P01"))).isEmpty();
    assertThat(LostSourceConnection.in(new SQLException("no state"))).isEmpty();
    assertThat(LostSourceConnection.in(new IllegalStateException("other"))).isEmpty();
  }

  @Test
  void theMessageNamesTaskSourceAndTheRunToResume() {
    SQLException closed = new SQLException("This connection has been closed.", "08003");
    RuntimeException failure = new RuntimeException(closed);

    SQLException named =
        LostSourceConnection.describe(
            "nightly", SOURCE, "20261202T053000Z-abc123", closed, failure);

    assertThat(named.getMessage())
        .isEqualTo(
            "task nightly: lost the connection to the source database shop at db.example:5433"
                + " (08003 This connection has been closed.); run the task again: it resumes run"
                + " 20261202T053000Z-abc123 after its last closed chunk")
        .doesNotContain("secret");
    assertThat(named.getSQLState()).isEqualTo("08003");
    assertThat(named.getCause()).isSameAs(failure);
  }
}
