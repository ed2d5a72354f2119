package io.cdccompare.report.aggregate;

import static io.cdccompare.report.aggregate.ReportDriver.ORDERS;
import static io.cdccompare.report.aggregate.ReportDriver.RUN_1;
import static io.cdccompare.report.aggregate.ReportDriver.RUN_2;
import static io.cdccompare.report.aggregate.ReportDriver.TASK;
import static io.cdccompare.report.aggregate.ReportDriver.counts;
import static io.cdccompare.report.aggregate.ReportDriver.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkState;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The alerts: one per table, run and target with differences; one per unverifiable chunk. */
class ReportAlertsTest {
  private static final String PG = "pg-replica";
  private static final String MARIA = "maria-replica";

  private final ReportDriver report = new ReportDriver();

  @AfterEach
  void close() {
    report.close();
  }

  @Test
  void oneDifferencesAlertPerTableAndRunNotPerChunkOrRow() {
    // Given
    report.noted(RUN_1, ORDERS, 1, 2, 3);

    // When three chunks with differences complete
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 1)
            .setCounts(counts(8, 2, 0, 0, 0))
            .setFailedKeys(List.of("3", "5")),
        result(PG, RUN_1, ORDERS, 2, 0, 1)
            .setCounts(counts(7, 0, 3, 0, 0))
            .setMissedKeys(List.of("11", "12", "13")),
        result(PG, RUN_1, ORDERS, 3, 0, 1)
            .setCounts(counts(9, 0, 0, 1, 0))
            .setExtraKeys(List.of("24")));

    // Then one alert, raised by the first, with the counts at that moment
    assertThat(report.alerts()).hasSize(1);
    Alert alert = report.alerts().get(0);
    assertThat(alert.getCode()).isEqualTo(AlertCode.DIFFERENCES);
    assertThat(List.of(alert.getTask(), alert.getRunId(), alert.getTable(), alert.getTarget()))
        .containsExactly(TASK, RUN_1, ORDERS, PG);
    assertThat(alert.getOrigin()).isEqualTo(PG);
    assertThat(alert.getChunk()).isEqualTo(1);
    assertThat(alert.getCounts()).isEqualTo(counts(8, 2, 0, 0, 0));
    assertThat(alert.getSampleKeys()).containsExactly("3", "5");
    assertThat(alert.getMessage()).contains(ORDERS, PG, RUN_1, "2 failed");
    assertThat(report.alertKeys()).containsExactly("nightly/pg-replica/public.orders");
  }

  @Test
  void theDifferencesAlertWaitsForTheChunksLastPartition() {
    // Given
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 2)
            .setCounts(counts(4, 1, 0, 0, 0))
            .setFailedKeys(List.of("3")));
    assertThat(report.alerts()).isEmpty();

    // When
    report.results(
        result(PG, RUN_1, ORDERS, 1, 1, 2)
            .setCounts(counts(4, 0, 1, 0, 0))
            .setMissedKeys(List.of("8")));

    // Then the alert counts and samples both partitions
    assertThat(report.alerts()).hasSize(1);
    assertThat(report.alerts().get(0).getCounts()).isEqualTo(counts(8, 1, 1, 0, 0));
    assertThat(report.alerts().get(0).getSampleKeys()).containsExactly("3", "8");
  }

  @Test
  void eachTargetAndEachRunGetsItsOwnDifferencesAlert() {
    // Given
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 1)
            .setCounts(counts(0, 1, 0, 0, 0))
            .setFailedKeys(List.of("1")));

    // When another target and a later run differ too, and the first target replays its result
    report.results(
        result(MARIA, RUN_1, ORDERS, 1, 0, 1)
            .setCounts(counts(0, 1, 0, 0, 0))
            .setFailedKeys(List.of("1")),
        result(PG, RUN_1, ORDERS, 1, 0, 1)
            .setCounts(counts(0, 1, 0, 0, 0))
            .setFailedKeys(List.of("1")),
        result(PG, RUN_2, ORDERS, 1, 0, 1)
            .setCounts(counts(0, 0, 1, 0, 0))
            .setMissedKeys(List.of("1")));

    // Then
    assertThat(report.alerts())
        .extracting(Alert::getTarget, Alert::getRunId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(PG, RUN_1),
            org.assertj.core.groups.Tuple.tuple(MARIA, RUN_1),
            org.assertj.core.groups.Tuple.tuple(PG, RUN_2));
  }

  @Test
  void theSampleKeysAreBoundedWhateverTheChunkHolds() {
    // Given a chunk with 50 failed rows
    List<String> keys = IntStream.range(0, 50).mapToObj(Integer::toString).toList();

    // When
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(0, 50, 0, 0, 0)).setFailedKeys(keys));

    // Then
    Alert alert = report.alerts().get(0);
    assertThat(alert.getCounts().getFailed()).isEqualTo(50);
    assertThat(alert.getSampleKeys()).hasSize(20).isEqualTo(keys.subList(0, 20));
  }

  @Test
  void anUnverifiableChunkRaisesOneAlertWithTheVerifiersError() {
    // Given
    String error = "hash record of chunk 4 partition 1 is gone from pg.compare.hashes";

    // When two of its three partitions are unverifiable, one of them replayed
    report.results(
        result(PG, RUN_1, ORDERS, 4, 1, 3).setState(ChunkState.UNVERIFIABLE).setError(error),
        result(PG, RUN_1, ORDERS, 4, 1, 3).setState(ChunkState.UNVERIFIABLE).setError(error),
        result(PG, RUN_1, ORDERS, 4, 2, 3)
            .setState(ChunkState.UNVERIFIABLE)
            .setError("another reason"));

    // Then one alert, at once, naming the marker at fault
    assertThat(report.alerts()).hasSize(1);
    Alert alert = report.alerts().get(0);
    assertThat(alert.getCode()).isEqualTo(AlertCode.UNVERIFIABLE);
    assertThat(alert.getMessage()).isEqualTo(error);
    assertThat(List.of(alert.getTask(), alert.getRunId(), alert.getTable(), alert.getTarget()))
        .containsExactly(TASK, RUN_1, ORDERS, PG);
    assertThat(alert.getChunk()).isEqualTo(4);
    assertThat(alert.getTopic()).isEqualTo("pg." + ORDERS);
    assertThat(alert.getPartition()).isEqualTo(1);
    assertThat(alert.getOffset()).isEqualTo(104);
    assertThat(alert.getCounts()).isNull();
  }

  @Test
  void everyUnverifiableChunkRaisesItsOwnAlert() {
    // Given
    // When
    for (long chunk = 1; chunk <= 3; chunk++) {
      report.results(
          result(PG, RUN_1, ORDERS, chunk, 0, 1)
              .setState(ChunkState.UNVERIFIABLE)
              .setError("poison record in chunk " + chunk));
    }

    // Then
    assertThat(report.alerts()).extracting(Alert::getChunk).containsExactly(1L, 2L, 3L);
  }

  @Test
  void aSchemaDriftChunkRaisesASchemaDriftAlert() {
    // Given
    // When
    report.results(
        result(MARIA, RUN_1, ORDERS, 1, 0, 1)
            .setState(ChunkState.SCHEMA_DRIFT)
            .setError("column amount is decimal(10,2) on the source, text on the target"));

    // Then
    assertThat(report.alerts())
        .singleElement()
        .satisfies(
            alert -> {
              assertThat(alert.getCode()).isEqualTo(AlertCode.SCHEMA_DRIFT);
              assertThat(alert.getMessage()).contains("text on the target");
              assertThat(alert.getTarget()).isEqualTo(MARIA);
            });
  }

  @Test
  void aCleanChunkRaisesNoAlert() {
    // Given
    // When
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(10, 0, 0, 0, 3)));

    // Then
    assertThat(report.alerts()).isEmpty();
    assertThat(report.entries()).isNotEmpty();
  }
}
