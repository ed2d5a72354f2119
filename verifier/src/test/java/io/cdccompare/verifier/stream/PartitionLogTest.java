package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Which records of a stock table partition keep a chunk's keys in flight, and which are dropped.
 */
class PartitionLogTest {
  private static final OptionalLong OPEN = OptionalLong.of(500);

  @Test
  void recordsOfTransactionsStreamedAfterTheOpenAreInFlightAndEarlierOnesAreNot() {
    // Given
    PartitionLog log = new PartitionLog(0);
    log.add(0, "snap", OptionalLong.of(PartitionLog.SNAPSHOT));
    log.add(1, "before", OptionalLong.of(400));
    log.add(2, "open-tx", OptionalLong.of(500));
    log.add(3, "after", OptionalLong.of(700));

    // When, Then
    assertThat(log.inFlightAfter(OPEN, 4)).containsExactly("open-tx", "after");
    assertThat(log.inFlightAfter(OPEN, 3)).containsExactly("open-tx");
    assertThat(log.inFlightAfter(OptionalLong.empty(), 4))
        .as("an OPEN of unknown position: every streamed record counts, not the snapshot's")
        .containsExactly("before", "open-tx", "after");
  }

  @Test
  void aSnapshotRecordAfterAStreamedOneCountsLikeTheRecordsAroundIt() {
    // Given a snapshot taken again after streaming (a re-snapshot): its rows are read later
    PartitionLog log = new PartitionLog(0);
    log.add(0, "snap", OptionalLong.of(PartitionLog.SNAPSHOT));
    log.add(1, "streamed", OptionalLong.of(600));
    log.add(2, "resnap", OptionalLong.of(PartitionLog.SNAPSHOT));

    // When, Then
    assertThat(log.inFlightAfter(OPEN, 3)).containsExactly("streamed", "resnap");
    assertThat(log.inFlightAfter(OptionalLong.empty(), 3)).containsExactly("streamed", "resnap");
  }

  @Test
  void aRedeliveredOlderRecordAfterANewerOneStaysInFlight() {
    // Given a worker crash: the older run is sent again after the newer record
    PartitionLog log = new PartitionLog(0);
    log.add(0, "a", OptionalLong.of(300));
    log.add(1, "b", OptionalLong.of(600));
    log.add(2, "a", OptionalLong.of(300));

    // When, Then
    assertThat(log.inFlightAfter(OPEN, 3)).containsExactly("b", "a");
  }

  @Test
  void aRedeliveredRunKeepsItsKeysInFlightEvenWithNoRecordAfterTheOpenBeforeIt() {
    // Given transactions before the OPEN, then a crash: the connector sends them again
    PartitionLog log = new PartitionLog(0);
    log.add(0, "a", OptionalLong.of(300));
    log.add(1, "b", OptionalLong.of(400));
    log.add(2, "c", OptionalLong.of(400));
    log.add(3, "a", OptionalLong.of(300));
    log.add(4, "b", OptionalLong.of(400));
    log.add(5, "d", OptionalLong.of(450));

    // Then the sink applies a's older value again: in flight, and what follows it too
    assertThat(log.inFlightAfter(OPEN, 6)).containsExactly("a", "b", "d");
    assertThat(log.inFlightAfter(OPEN, 3)).as("before the redelivery").isEmpty();
    log.dropBefore(500);
    assertThat(log.inFlightAfter(OPEN, 6))
        .as("what is dropped at the front is older than every note to come")
        .isEmpty();
  }

  @Test
  void aRecordWithoutLastCommitCountsAsAfterUntilTheNextRecordBoundsIt() {
    // Given the first transaction after a connector start
    PartitionLog log = new PartitionLog(0);
    log.add(0, "first", OptionalLong.empty());

    // Then
    assertThat(log.inFlightAfter(OPEN, 1)).containsExactly("first");
    log.dropBefore(10_000);
    assertThat(log.size()).as("unknown: never dropped").isEqualTo(1);

    // When the next transaction bounds its commit at 450, before the OPEN
    log.add(1, "next", OptionalLong.of(450));

    // Then
    assertThat(log.inFlightAfter(OPEN, 2)).isEmpty();
    assertThat(log.inFlightAfter(OptionalLong.of(420), 2)).containsExactly("first", "next");
  }

  @Test
  void dropsOnlyFromTheFrontAndOnlyWhatIsBeforeTheFloor() {
    // Given
    PartitionLog log = new PartitionLog(5);
    log.add(5, "a", OptionalLong.of(100));
    log.add(6, "b", OptionalLong.of(900));
    log.add(7, "c", OptionalLong.of(200));

    // When
    log.dropBefore(500);

    // Then: c is before the floor but behind b, which is not
    assertThat(log.size()).isEqualTo(2);
    assertThat(log.inFlightAfter(OPEN, 8)).containsExactly("b", "c");
    assertThat(log.next()).isEqualTo(8);
    log.skipTo(20);
    assertThat(log.next()).isEqualTo(20);
  }

  @Test
  void namesWhereAKeysRecordsLie() {
    // Given a snapshot record, a streamed one and one of the first transaction after a start
    PartitionLog log = new PartitionLog(0);
    log.add(0, "k", OptionalLong.of(PartitionLog.SNAPSHOT));
    log.add(1, "other", OptionalLong.of(100));
    log.add(2, "k", OptionalLong.of(110));
    log.add(3, "k", OptionalLong.empty());

    // Then
    assertThat(log.positionsOf("k")).containsExactly("0@snapshot", "2@110", "3@unknown");
    assertThat(log.positionsOf("absent")).isEmpty();
  }
}
