package io.cdccompare.report.aggregate;

import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.serde.SpecificAvroSerde;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the report and alerts aggregation (docs/design.md, "The flow" and "Several targets"):
 * chunk results of every target and the chunks noted by the compare producer in, running totals on
 * the compacted report topic and alert events out.
 *
 * <pre>
 * results ─► (task, result) ─┐
 *                            ├─► repartition by task ─► aggregator ─┬─► report (task/target/table, task/target)
 * hashes ─► (task, noted) ───┘   report-inputs-by-task   (4 stores)  └─► alerts (task/target/table)
 * </pre>
 *
 * <p>Only the hash record of table partition 0, part 0 of a chunk is read as its note (every chunk
 * has one); tombstones on either input are skipped, and so is a hash record that cannot be decoded
 * (truncated, corrupt), logged with its place: it must not stop the report, and each verifier makes
 * the chunk UNVERIFIABLE naming that record, which raises the chunk's alert here. Every processor,
 * store and the one repartition topic ({@code <application.id>-report-inputs-by-task-repartition})
 * are named, so internal topic names stay stable across versions. Run it with exactly-once
 * processing ({@link ReportConfig#streamsProperties}).
 */
public final class ReportTopologyFactory {
  private static final Logger LOG = LoggerFactory.getLogger(ReportTopologyFactory.class);

  private ReportTopologyFactory() {}

  public static Topology build(ReportConfig config) {
    Map<String, Object> serdeConfig = config.serdeConfig();
    StreamsBuilder builder = new StreamsBuilder();
    ReportStores.addTo(builder);

    KStream<String, ReportInput> results =
        builder.stream(
                config.resultsTopic(),
                Consumed.with(Serdes.ByteArray(), avro(ChunkResult.class, serdeConfig))
                    .withName("report-results-source"))
            .filter((key, result) -> result != null, Named.as("report-results-present"))
            .map(
                (key, result) -> KeyValue.pair(result.getTask(), ReportInput.of(result)),
                Named.as("report-results-by-task"));
    SpecificAvroSerde<HashRecord> hashRecords = avro(HashRecord.class, serdeConfig);
    KStream<String, ReportInput> noted =
        builder.stream(
                config.hashesTopic(),
                Consumed.with(Serdes.ByteArray(), Serdes.ByteArray())
                    .withName("report-hashes-source"))
            .processValues(
                () -> new HashNoteDecoder(hashRecords.deserializer()),
                Named.as("report-hashes-decoded"))
            .filter(
                (key, hashes) ->
                    hashes != null && hashes.getTablePartition() == 0 && hashes.getPart() == 0,
                Named.as("report-chunk-notes"))
            .map(
                (key, hashes) -> KeyValue.pair(hashes.getTask(), ReportInput.of(hashes)),
                Named.as("report-notes-by-task"));

    results
        .merge(noted, Named.as("report-inputs"))
        .repartition(
            Repartitioned.with(Serdes.String(), ReportSerdes.inputs())
                .withName("report-inputs-by-task"))
        .process(ReportAggregator::new, Named.as("report-aggregator"), ReportStores.NAMES)
        .split(Named.as("report-output-"))
        .branch(
            (key, value) -> value instanceof ReportEntry,
            Branched.withConsumer(
                entries ->
                    entries
                        .mapValues(value -> (ReportEntry) value, Named.as("report-entries"))
                        .to(
                            config.reportTopic(),
                            Produced.with(Serdes.String(), avro(ReportEntry.class, serdeConfig))
                                .withName("report-entries-sink")),
                "entries"))
        .defaultBranch(
            Branched.withConsumer(
                alerts ->
                    alerts
                        .mapValues(value -> (Alert) value, Named.as("report-alerts"))
                        .to(
                            config.alertsTopic(),
                            Produced.with(Serdes.String(), avro(Alert.class, serdeConfig))
                                .withName("report-alerts-sink")),
                "alerts"));
    return builder.build();
  }

  private static <T extends SpecificRecord> SpecificAvroSerde<T> avro(
      Class<T> type, Map<String, Object> serdeConfig) {
    SpecificAvroSerde<T> serde = new SpecificAvroSerde<>(type);
    serde.configure(serdeConfig, false);
    return serde;
  }

  /**
   * Decodes a hash record of the hashes topic; one that cannot be decoded is logged naming its
   * topic, partition and offset and dropped (a tombstone stays null, filtered next).
   */
  private static final class HashNoteDecoder
      implements FixedKeyProcessor<byte[], byte[], HashRecord> {
    private final Deserializer<HashRecord> records;
    private FixedKeyProcessorContext<byte[], HashRecord> context;

    HashNoteDecoder(Deserializer<HashRecord> records) {
      this.records = records;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], HashRecord> context) {
      this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], byte[]> record) {
      Optional<RecordMetadata> meta = context.recordMetadata();
      HashRecord decoded;
      try {
        decoded =
            record.value() == null
                ? null
                : records.deserialize(meta.map(RecordMetadata::topic).orElse(null), record.value());
      } catch (RuntimeException e) {
        String at =
            meta.map(m -> m.topic() + "-" + m.partition() + "@" + m.offset())
                .orElse("an unknown place");
        LOG.error(
            "the hash record at {} cannot be read, not counted as a noted chunk: {}",
            at,
            e.getMessage());
        return;
      }
      context.forward(record.withValue(decoded));
    }
  }
}
