package io.cdccompare.report.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.report.ChunkAssembly;
import io.cdccompare.core.report.NotedChunk;
import io.cdccompare.core.report.PartitionResult;
import io.cdccompare.core.report.ReportTotals;
import io.cdccompare.core.report.RowTotals;
import io.cdccompare.core.report.RunSlice;
import io.cdccompare.core.report.SourceRows;
import io.cdccompare.core.report.TableRun;
import io.cdccompare.core.report.TargetRun;
import io.cdccompare.core.verdict.ChunkState;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class ReportSerdesTest {
  private static final String TOPIC = "app-report-inputs-by-task-repartition";

  @Test
  void aResultInputReadsBackEqual() {
    // Given every field set, a nullable one to null and a name with non-ASCII characters
    ReportInput.Result result =
        new ReportInput.Result(
            "nightly",
            "20260304T050607Z-a1b2c3",
            "REPAIR",
            "public.\"Bestellpositionen-ä\"",
            42,
            "pg/replica",
            "pg.public.lines",
            1234,
            null,
            new PartitionResult(
                2, 3, ChunkState.VERIFIED, new RowTotals(1, 2, 3, 4, 5), List.of("a", "b\\,c")));

    // When
    // Then
    assertThat(roundTrip(ReportSerdes.inputs(), result)).isEqualTo(result);
  }

  @Test
  void aCaptureInputReadsBackEqual() {
    // Given
    ReportInput.Capture capture =
        new ReportInput.Capture(
            "nightly",
            "20260304T050607Z-a1b2c3",
            "FULL",
            "s.t",
            7,
            new NotedChunk(10_000, 1_000, new RunSlice(3, 10)));

    // When
    // Then
    assertThat(roundTrip(ReportSerdes.inputs(), capture)).isEqualTo(capture);
  }

  @Test
  void storedStateReadsBackEqual() {
    // Given
    TableRun table =
        new TableRun(
            "r1", "INCREMENTAL", 17, 170_000, 17_000, 34_000, Optional.of(new RunSlice(2, 10)));
    TableRun unknownSlice = new TableRun("r2", "FULL", 0, 0, 0, 51_000, Optional.empty());
    TargetRun target =
        new TargetRun(
            "r1",
            new ReportTotals(
                0, 5, 1, 2, new RowTotals(9, 8, 7, 6, 5), new SourceRows(100, 10, 30), 1),
            true);
    ChunkAssembly chunk =
        ChunkAssembly.start("r1", 4)
            .add(new PartitionResult(3, 4, ChunkState.SCHEMA_DRIFT, RowTotals.ZERO, List.of()))
            .add(
                new PartitionResult(
                    1, 4, ChunkState.VERIFIED, new RowTotals(3, 1, 0, 0, 0), List.of("k")));

    // When
    // Then
    assertThat(roundTrip(ReportSerdes.tableRuns(), table)).isEqualTo(table);
    assertThat(roundTrip(ReportSerdes.tableRuns(), unknownSlice)).isEqualTo(unknownSlice);
    assertThat(roundTrip(ReportSerdes.targetRuns(), target)).isEqualTo(target);
    assertThat(roundTrip(ReportSerdes.chunkAssemblies(), chunk)).isEqualTo(chunk);
  }

  @Test
  void anUnknownFormatVersionIsRefused() {
    // Given
    byte[] bytes =
        ReportSerdes.tableRuns().serializer().serialize(TOPIC, TableRun.start("r", "FULL"));
    bytes[0] = 9;

    // When
    // Then
    assertThatThrownBy(() -> ReportSerdes.tableRuns().deserializer().deserialize(TOPIC, bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("format version 9");
  }

  @Test
  void aTableRunOfTheFirstFormatIsRefused() {
    // Given a table run as version 1 wrote it: run id, kind and capture count only
    byte[] bytes =
        ReportSerdes.tableRuns().serializer().serialize(TOPIC, TableRun.start("r", "FULL"));
    byte[] first = java.util.Arrays.copyOf(bytes, 1 + 4 + 1 + 4 + 4 + 8);
    first[0] = 1;

    // When
    // Then
    assertThatThrownBy(() -> ReportSerdes.tableRuns().deserializer().deserialize(TOPIC, first))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("format version 1, this reader knows 2");
  }

  @Test
  void truncatedBytesAreRefused() {
    // Given
    byte[] bytes =
        ReportSerdes.tableRuns().serializer().serialize(TOPIC, TableRun.start("r", "FULL"));
    byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 3);

    // When
    // Then
    assertThatThrownBy(() -> ReportSerdes.tableRuns().deserializer().deserialize(TOPIC, truncated))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("cannot read a table run of topic " + TOPIC);
  }

  private static <T> T roundTrip(Serde<T> serde, T value) {
    return serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, value));
  }
}
