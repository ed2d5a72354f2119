package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Where a stock table partition is read from when its table's first note is seen. */
class PartitionStartTest {
  private static final long FLOOR = 500;

  /** A partition: one position per offset from {@code begin}; null for a tombstone. */
  private record Partition(long begin, List<OptionalLong> positions, List<long[]> reads)
      implements PartitionStart.Records {
    Partition(long begin, List<OptionalLong> positions) {
      this(begin, positions, new ArrayList<>());
    }

    long end() {
      return begin + positions.size();
    }

    @Override
    public List<PartitionStart.Positioned> read(long from, long until) {
      reads.add(new long[] {from, until});
      List<PartitionStart.Positioned> read = new ArrayList<>();
      for (long o = from; o < until; o++) {
        read.add(new PartitionStart.Positioned(o, positions.get((int) (o - begin))));
      }
      return read;
    }

    long start(long floor) {
      return PartitionStart.find(begin, end(), floor, this);
    }
  }

  private static OptionalLong at(long lastCommit) {
    return OptionalLong.of(lastCommit);
  }

  /** {@code n} records at positions {@code from}, {@code from + 1}, … */
  private static List<OptionalLong> run(long from, int n) {
    List<OptionalLong> run = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      run.add(at(from + i));
    }
    return run;
  }

  @Test
  void aLongHistoryBeforeTheFloorIsSkippedWithoutReadingIt() {
    // Given 100 000 records before the floor, then three at or after it
    List<OptionalLong> positions = new ArrayList<>(run(0, 100_000));
    positions.replaceAll(p -> at(Math.min(p.getAsLong(), FLOOR - 1)));
    positions.addAll(List.of(at(FLOOR), at(FLOOR + 10), at(FLOOR + 20)));
    Partition partition = new Partition(7, positions);

    // When
    long start = partition.start(FLOOR);

    // Then
    assertThat(start).isEqualTo(7 + 100_000);
    assertThat(partition.reads()).as("only the window at the end was read").hasSize(1);
    assertThat(partition.reads().get(0)[1] - partition.reads().get(0)[0])
        .isEqualTo(PartitionStart.FIRST_WINDOW);
  }

  @Test
  void readingBackGrowsItsWindowUntilARecordBeforeTheFloorIsFound() {
    // Given 10 records before the floor, then 2 000 after it
    List<OptionalLong> positions = new ArrayList<>(run(FLOOR - 10, 10));
    positions.addAll(run(FLOOR, 2_000));
    Partition partition = new Partition(0, positions);

    // When
    long start = partition.start(FLOOR);

    // Then
    assertThat(start).isEqualTo(10);
    assertThat(partition.reads())
        .extracting(r -> r[1] - r[0])
        .as("windows of 256, 512, 1024, then what is left")
        .containsExactly(256L, 512L, 1024L, 218L);
  }

  @Test
  void unknownPositionsAndTombstonesAreNotTakenAsBeforeTheFloor() {
    // Given a record before the floor, then a connector start's first transaction (no last
    // commit) and a tombstone
    Partition partition =
        new Partition(0, new ArrayList<>(List.of(at(400), OptionalLong.empty(), at(400))));
    partition.positions().set(2, null);

    // When, Then
    assertThat(partition.start(FLOOR)).isEqualTo(1);
  }

  @Test
  void theSnapshotIsBeforeEveryFloor() {
    // Given the initial snapshot's records, then streamed ones after the floor
    List<OptionalLong> positions = new ArrayList<>();
    positions.add(at(PartitionLog.SNAPSHOT));
    positions.add(at(PartitionLog.SNAPSHOT));
    positions.addAll(run(FLOOR, 3));

    // When, Then
    assertThat(new Partition(0, positions).start(FLOOR)).isEqualTo(2);
  }

  @Test
  void afterACrashTheLatestRunsLastRecordBeforeTheFloorIsTheStart() {
    // Given a run that reached past the floor, then a run that resumed before it and sent the
    // same transactions again
    List<OptionalLong> positions = new ArrayList<>(run(FLOOR - 3, 6)); // 497..502
    positions.addAll(run(FLOOR - 2, 4)); // 498..501, sent again
    Partition partition = new Partition(0, positions);

    // When
    long start = partition.start(FLOOR);

    // Then the first run's records at or after the floor are skipped: the second run sent them
    // again after the start
    assertThat(start).isEqualTo(8);
    assertThat(positions.subList((int) start, positions.size()))
        .containsExactly(at(FLOOR), at(FLOOR + 1));
  }

  @Test
  void withNoRecordBeforeTheFloorOrNoFloorEverythingIsRead() {
    // Given
    Partition afterFloor = new Partition(3, run(FLOOR, 600));
    Partition empty = new Partition(40, List.of());

    // When, Then
    assertThat(afterFloor.start(FLOOR)).isEqualTo(3);
    assertThat(empty.start(FLOOR)).isEqualTo(40);
    assertThat(new Partition(0, run(0, 5)).start(Long.MIN_VALUE)).isZero();
  }
}
