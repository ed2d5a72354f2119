package io.cdccompare.report.read;

import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.ORDERS;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.RUN;
import static io.cdccompare.report.read.ReportFixtures.TASK;
import static io.cdccompare.report.read.ReportFixtures.counts;
import static io.cdccompare.report.read.ReportFixtures.entry;
import static io.cdccompare.report.read.ReportFixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ReportStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResultKeysTest {

  @Test
  void keysAreTheDistinctUnionOverChunksPartitionsAndReplays() {
    // Given two chunks, two partitions each, one result re-emitted identically
    ChunkResult replayed = result(PG, ORDERS, 1, 1).setFailedKeys(List.of("17", "3")).build();
    List<ChunkResult> results =
        List.of(
            result(PG, ORDERS, 1, 0)
                .setFailedKeys(List.of("100"))
                .setMissedKeys(List.of("5"))
                .build(),
            replayed,
            replayed,
            result(PG, ORDERS, 2, 0).setExtraKeys(List.of("b,2", "a,1")).build(),
            result(PG, ORDERS, 2, 1).setMissedKeys(List.of("5")).build());

    // When the keys of the table are taken
    DifferenceKeys keys = ResultKeys.of(results, 0).keys(TASK, PG, ORDERS, RUN);

    // Then each kind holds its keys once, in key order
    assertThat(keys.failed().shown()).containsExactly("3", "17", "100");
    assertThat(keys.failed().total()).isEqualTo(3);
    assertThat(keys.missed().shown()).containsExactly("5");
    assertThat(keys.missed().total()).isEqualTo(1);
    assertThat(keys.extra().shown()).containsExactly("a,1", "b,2");
  }

  @Test
  void keysOfAnotherTargetOrRunAreNotMixedIn() {
    // Given results of the same table on another target and in another run
    List<ChunkResult> results =
        List.of(
            result(PG, ORDERS, 1, 0).setFailedKeys(List.of("1")).build(),
            result(MARIA, ORDERS, 1, 0).setFailedKeys(List.of("2")).build(),
            result(PG, ORDERS, 1, 0)
                .setRunId("20260101T000000Z-000000")
                .setFailedKeys(List.of("3"))
                .build());

    // When pg's keys of the run are taken
    DifferenceKeys keys = ResultKeys.of(results, 0).keys(TASK, PG, ORDERS, RUN);

    // Then only its own
    assertThat(keys.failed().shown()).containsExactly("1");
  }

  @Test
  void theShownKeysAreCutAtTheMaximumAndTheTotalKept() {
    // Given 250 failed keys
    List<String> many = new ArrayList<>();
    for (int i = 250; i >= 1; i--) {
      many.add(Integer.toString(i));
    }
    List<ChunkResult> results = List.of(result(PG, ORDERS, 1, 0).setFailedKeys(many).build());

    // When at most 100 are shown
    DifferenceKeys.Keys failed = ResultKeys.of(results, 100).keys(TASK, PG, ORDERS, RUN).failed();

    // Then the first 100 in numeric order show and 150 are counted as omitted
    assertThat(failed.shown()).hasSize(100).startsWith("1", "2").endsWith("99", "100");
    assertThat(failed.total()).isEqualTo(250);
    assertThat(failed.omitted()).isEqualTo(150);
  }

  @Test
  void numbersSortByValueBeforeOtherKeys() {
    // Given keys mixing numbers and text / When sorted / Then numbers by value first
    List<String> keys = new ArrayList<>(List.of("b", "10", "-3", "9", "a", "007", "7"));
    keys.sort(KeyOrder.INSTANCE);
    assertThat(keys).containsExactly("-3", "007", "7", "9", "10", "a", "b");
  }

  @Test
  void onlyResultsOfRowsWithDifferencesAreWanted() {
    // Given pg with differences on orders and maria in sync on it
    List<TaskReport> shown =
        TaskReports.of(
            List.of(
                entry(PG, ORDERS, ReportStatus.DIFFERENCES, 1, 1, counts(1, 1, 0, 0, 0)),
                entry(MARIA, ORDERS, ReportStatus.IN_SYNC, 1, 1, counts(2, 0, 0, 0, 0))),
            Optional.empty(),
            List.of(PG, MARIA));

    // When the filter of the results is built
    var wanted = ResultKeys.ofRowsWithDifferences(shown);

    // Then it accepts pg's results of the run only
    assertThat(wanted.test(result(PG, ORDERS, 1, 0).build())).isTrue();
    assertThat(wanted.test(result(MARIA, ORDERS, 1, 0).build())).isFalse();
    assertThat(wanted.test(result(PG, ORDERS, 1, 0).setRunId("other").build())).isFalse();
  }
}
