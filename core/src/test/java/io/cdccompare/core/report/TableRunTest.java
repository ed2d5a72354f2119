package io.cdccompare.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableRunTest {
  private static final String RUN_1 = "20260304T050607Z-a1b2c3";
  private static final String RUN_2 = "20260305T050607Z-d4e5f6";
  private static final String RUN_3 = "20260306T050607Z-a7b8c9";
  private static final String RUN_4 = "20260307T050607Z-0a1b2c";

  /** A run of {@code slice} of 3 slices (deep 34) with one noted chunk of 100 rows. */
  private static TableRun rotating(TableRun run, int slice, long compared) {
    return run.withCapturedChunk(new NotedChunk(100, compared, new RunSlice(slice, 3)));
  }

  @Test
  void aRunIdThatSortsHigherIsNewer() {
    // Given
    TableRun run = TableRun.start(RUN_1, "FULL");

    // When
    // Then
    assertThat(run.isNewerThan("20260304T050606Z-ffffff")).isTrue();
    assertThat(run.isNewerThan(RUN_1)).isFalse();
    assertThat(run.isNewerThan("20260305T000000Z-000000")).isFalse();
  }

  @Test
  void eachNotedChunkAddsOneToCaptureAndItsRows() {
    // Given
    TableRun run = TableRun.start(RUN_1, "FULL");

    // When
    TableRun twice =
        run.withCapturedChunk(new NotedChunk(100, 10, new RunSlice(0, 10)))
            .withCapturedChunk(new NotedChunk(57, 6, new RunSlice(0, 10)));

    // Then
    assertThat(twice.captureChunks()).isEqualTo(2);
    assertThat(twice.source()).isEqualTo(new SourceRows(157, 16, 16));
    assertThat(twice.runId()).isEqualTo(run.runId());
  }

  @Test
  void rotatingRunsAddUpToEveryRowOverTheirSlices() {
    // Given
    TableRun first = rotating(TableRun.start(RUN_1, "FULL"), 0, 34);

    // When the next two runs compare slices 1 and 2
    TableRun second = rotating(first.next(RUN_2, "FULL"), 1, 33);
    TableRun third = rotating(second.next(RUN_3, "FULL"), 2, 33);

    // Then the cycle's covered rows rise to every row
    assertThat(List.of(first.coveredRows(), second.coveredRows(), third.coveredRows()))
        .containsExactly(34L, 67L, 100L);
    assertThat(third.source().coverage()).isEqualTo(1.0);
    assertThat(third.comparedRows()).isEqualTo(33);
  }

  @Test
  void aRunOfSliceZeroStartsANewCycle() {
    // Given a full cycle of three runs
    TableRun first = rotating(TableRun.start(RUN_1, "FULL"), 0, 34);
    TableRun third =
        rotating(rotating(first.next(RUN_2, "FULL"), 1, 33).next(RUN_3, "FULL"), 2, 33);

    // When the fourth run compares slice 0 again
    TableRun fourth = rotating(third.next(RUN_4, "FULL"), 0, 34);

    // Then only its own rows are covered
    assertThat(fourth.coveredRows()).isEqualTo(34);
    assertThat(fourth.source().coverage()).isEqualTo(0.34);
  }

  @Test
  void aRunFirstSeenByAResultContinuesTheCycleOnceItsNoteShowsASliceAboveZero() {
    // Given run 2 first seen from a chunk result, its slice not known yet
    TableRun second = rotating(TableRun.start(RUN_1, "FULL"), 0, 34).next(RUN_2, "FULL");
    long coveredBeforeNote = second.coveredRows();

    // When its first noted chunk says slice 1
    TableRun noted = rotating(second, 1, 33);

    // Then run 1's rows count from then on
    assertThat(coveredBeforeNote).isZero();
    assertThat(second.slice()).isEmpty();
    assertThat(noted.coveredRows()).isEqualTo(67);
  }

  @Test
  void aRunFirstSeenByAResultDropsTheCarriedRowsWhenItsNoteShowsSliceZero() {
    // Given run 2 first seen from a chunk result after run 1 compared 34 rows
    TableRun second = rotating(TableRun.start(RUN_1, "FULL"), 0, 34).next(RUN_2, "FULL");

    // When its first noted chunk says slice 0
    TableRun noted = rotating(second, 0, 34);

    // Then it covers its own rows only
    assertThat(noted.coveredRows()).isEqualTo(34);
  }

  @Test
  void aRunWhoseSliceNeverBecameKnownPassesTheCycleOn() {
    // Given run 2 seen only from results, replaced by run 3 before any note of it
    TableRun second = rotating(TableRun.start(RUN_1, "FULL"), 0, 34).next(RUN_2, "FULL");

    // When run 3 compares slice 1
    TableRun third = rotating(second.next(RUN_3, "FULL"), 1, 33);

    // Then run 1's rows are still part of the cycle
    assertThat(third.coveredRows()).isEqualTo(67);
  }

  @Test
  void aRunAtDeep100CoversEveryRowWhateverCameBefore() {
    // Given a run at deep 100 after a run that compared slice 0 of another sampling
    TableRun before = rotating(TableRun.start(RUN_1, "FULL"), 0, 34);

    // When
    TableRun whole =
        before.next(RUN_2, "FULL").withCapturedChunk(new NotedChunk(100, 100, new RunSlice(0, 1)));

    // Then
    assertThat(whole.source()).isEqualTo(new SourceRows(100, 100, 100));
    assertThat(whole.source().coverage()).isEqualTo(1.0);
  }

  @Test
  void anEmptyTableIsCoveredWhole() {
    // Given
    TableRun run = TableRun.start(RUN_1, "FULL");

    // When its one chunk read no row
    TableRun empty = run.withCapturedChunk(new NotedChunk(0, 0, new RunSlice(0, 10)));

    // Then
    assertThat(empty.source()).isEqualTo(SourceRows.ZERO);
    assertThat(empty.source().coverage()).isEqualTo(1.0);
  }
}
