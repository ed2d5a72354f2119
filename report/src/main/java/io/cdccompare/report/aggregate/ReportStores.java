package io.cdccompare.report.aggregate;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The aggregation's state: persistent key-value stores, each with a changelog topic ({@code
 * <application.id>-<store>-changelog}). Keys are {@link io.cdccompare.core.report.ReportKey} paths
 * that start with the task, so a prefix scan finds every table or target of a task.
 */
final class ReportStores {
  /** {@code task/table} → the table's current run and its capture count. */
  static final String TABLE_RUNS = "report-table-runs";

  /** {@code task/table/chunk} → the run in which that chunk was last counted as noted. */
  static final String CAPTURED_CHUNKS = "report-captured-chunks";

  /** {@code task/table/target/chunk} → the partitions of that chunk's verdict received so far. */
  static final String CHUNK_ASSEMBLIES = "report-chunk-assemblies";

  /** {@code task/target/table} → the target's totals of the table's current run. */
  static final String TARGET_RUNS = "report-target-runs";

  static final String[] NAMES = {TABLE_RUNS, CAPTURED_CHUNKS, CHUNK_ASSEMBLIES, TARGET_RUNS};

  private ReportStores() {}

  static void addTo(StreamsBuilder builder) {
    add(builder, TABLE_RUNS, ReportSerdes.tableRuns());
    add(builder, CAPTURED_CHUNKS, Serdes.String());
    add(builder, CHUNK_ASSEMBLIES, ReportSerdes.chunkAssemblies());
    add(builder, TARGET_RUNS, ReportSerdes.targetRuns());
  }

  private static <V> void add(StreamsBuilder builder, String name, Serde<V> values) {
    builder.addStateStore(
        Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), values));
  }
}
