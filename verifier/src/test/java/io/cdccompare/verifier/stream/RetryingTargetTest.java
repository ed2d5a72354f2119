package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.table.TableName;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.TargetTable;
import io.cdccompare.verifier.verify.ChunkCheck;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The retry of transient target failures over scripted connections: each opened connection answers
 * the checkpoint read with the next scripted outcome (the retries on real servers are in {@code
 * SlowTargetIT}).
 */
class RetryingTargetTest {
  private static final TableName ITEMS = TableName.parse("public.items");

  /** The scripted outcomes; an exception is thrown, a number answered. */
  private final Deque<Object> outcomes = new ArrayDeque<>();

  private final List<Connection> opened = new ArrayList<>();

  @Test
  void aBrokenConnectionIsRetriedOnANewOne() throws SQLException {
    // Given a connection that breaks, then one that answers
    outcomes.add(new SQLException("This connection has been closed.", "08003"));
    outcomes.add(41L);
    Target target = open(Duration.ofSeconds(5));

    // When, Then: the read is answered, by a second connection; the first is closed
    assertThat(target.checkpointOffset("p.public.items", 0)).contains(41L);
    assertThat(opened).hasSize(2);
    assertThat(opened.get(0).closed).isTrue();
    assertThat(opened.get(1).closed).isFalse();
  }

  @Test
  void aStatementTimeoutOnAConnectionThatStillAnswersIsRetriedOnIt() throws SQLException {
    // Given a statement cancelled by its timeout, then answered
    outcomes.add(new SQLException("ERROR: canceling statement due to statement timeout", "57014"));
    outcomes.add(7L);
    Target target = open(Duration.ofSeconds(5));

    // When, Then
    assertThat(target.checkpointOffset("p.public.items", 0)).contains(7L);
    assertThat(opened).hasSize(1);
  }

  @Test
  void aFatalFailureIsThrownAtOnce() throws SQLException {
    // Given a table that does not exist
    SQLException missing = new SQLException("relation \"items\" does not exist", "42P01");
    outcomes.add(missing);
    outcomes.add(7L);
    Target target = open(Duration.ofSeconds(5));

    // When, Then: no retry
    assertThatThrownBy(() -> target.checkpointOffset("p.public.items", 0)).isSameAs(missing);
    assertThat(outcomes).containsExactly(7L);
  }

  @Test
  void pastTheRetryTimeoutTheWorkFailsInOneLineNamingTargetWorkAndTimeouts() throws SQLException {
    // Given a target whose statements always time out
    for (int i = 0; i < 1000; i++) {
      outcomes.add(
          new SQLException(
              "ERROR: canceling statement due to statement timeout\n  Where: x", "57014"));
    }
    Target target = open(Duration.ofMillis(400));

    // When, Then
    assertThatThrownBy(() -> target.checkpointOffset("p.public.items", 2))
        .isInstanceOf(TargetUnansweredException.class)
        .hasMessageStartingWith(
            "target eu-1 did not answer the read of the checkpoint of p.public.items-2 within"
                + " retry.timeout.ms=400 (statement.timeout.ms=1000, ")
        .hasMessageEndingWith("attempts): ERROR: canceling statement due to statement timeout")
        .hasCauseInstanceOf(SQLException.class);
    assertThat(outcomes.size()).as("retried several times").isLessThan(998);
  }

  private Target open(Duration retryTimeout) throws SQLException {
    VerifierSettings settings =
        VerifierSettings.builder("eu-1")
            .bootstrapServers("kafka:9092")
            .registryUrl("http://registry:8081")
            .topicPrefix("p")
            .table(ITEMS)
            .target("jdbc:postgresql://db/shop", "verifier", "s3cret")
            .statementTimeout(Duration.ofSeconds(1))
            .retryTimeout(retryTimeout)
            .build();
    return RetryingTarget.opener(
            settings,
            taskId -> {
              Connection c = new Connection();
              opened.add(c);
              return c;
            })
        .open("0_0");
  }

  /** One scripted connection: it stops answering after a connection failure, and when closed. */
  private final class Connection implements Target {
    boolean broken;
    boolean closed;

    @Override
    public Optional<Long> checkpointOffset(String topic, int partition) throws SQLException {
      Object next = outcomes.remove();
      if (next instanceof SQLException e) {
        broken |= e.getSQLState().startsWith("08");
        throw e;
      }
      return Optional.of((Long) next);
    }

    @Override
    public boolean usable() {
      return !broken && !closed;
    }

    @Override
    public void close() {
      closed = true;
    }

    @Override
    public TargetTable tableOf(TableName source) {
      return FakeTarget.ITEMS;
    }

    @Override
    public ApplyResult apply(ApplyBatch batch) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void removeKeys(TargetTable table, Collection<String> keys, RecordPosition at) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<PartitionVerdict> storedVerdict(VerdictId id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ChunkVerdict verify(ChunkCheck check, CanonicalFormat format, HashFunction function) {
      throw new UnsupportedOperationException();
    }
  }
}
