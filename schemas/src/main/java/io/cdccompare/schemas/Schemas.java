package io.cdccompare.schemas;

import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.ReportEntry;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * The catalog of the records cdc-compare puts on topics, and how their schemas are named in a
 * schema registry.
 *
 * <p>Subjects follow Confluent's {@code TopicNameStrategy}: the value schema of topic {@code t} is
 * registered under {@code t-value}, the key schema under {@code t-key}. So every topic evolves its
 * schema on its own, and any registry tool finds it where it expects.
 *
 * <p>Schemas evolve compatibly (BACKWARD, the registries' default): a new field always has a
 * default, so a reader with the new schema reads old records.
 */
public final class Schemas {

  /** Suffix of the subject of a topic's record keys. */
  public static final String KEY_SUFFIX = "-key";

  /** Suffix of the subject of a topic's record values. */
  public static final String VALUE_SUFFIX = "-value";

  /**
   * Every record type we publish, with the topic that carries it (the defaults of docs/design.md,
   * "The flow").
   */
  public enum Entry {
    /** Chunk notes, in every partition of each table topic {@code <prefix>.<schema>.<table>}. */
    MARKER(Marker.class),
    /** One chunk's row hashes for one table-topic partition, on {@code <prefix>.compare.hashes}. */
    HASH_RECORD(HashRecord.class),
    /** One partition's verdict on one chunk for one target, on {@code <prefix>.compare.results}. */
    CHUNK_RESULT(ChunkResult.class),
    /**
     * Running totals per task, target and table, on the compacted {@code <prefix>.compare.report}.
     */
    REPORT_ENTRY(ReportEntry.class),
    /** Events a user must act on, on {@code <prefix>.compare.alerts}. */
    ALERT(Alert.class);

    private final Class<? extends SpecificRecord> type;
    private final Schema schema;

    Entry(Class<? extends SpecificRecord> type) {
      this.type = type;
      this.schema = schemaOf(type);
    }

    public Class<? extends SpecificRecord> type() {
      return type;
    }

    public Schema schema() {
      return schema;
    }
  }

  private Schemas() {}

  /** Every entry of the catalog, in declaration order. */
  public static List<Entry> all() {
    return Arrays.asList(Entry.values());
  }

  /** The subject of a topic's key or value schema ({@code TopicNameStrategy}). */
  public static String subject(String topic, boolean isKey) {
    Objects.requireNonNull(topic, "topic");
    if (topic.isEmpty()) {
      throw new IllegalArgumentException("a subject needs a topic name");
    }
    return topic + (isKey ? KEY_SUFFIX : VALUE_SUFFIX);
  }

  /** {@code <topic>-value}. */
  public static String valueSubject(String topic) {
    return subject(topic, false);
  }

  /** {@code <topic>-key}. */
  public static String keySubject(String topic) {
    return subject(topic, true);
  }

  /** The schema a generated record class was made from (its {@code SCHEMA$}). */
  public static Schema schemaOf(Class<? extends SpecificRecord> type) {
    try {
      return (Schema) type.getMethod("getClassSchema").invoke(null);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalArgumentException(
          type.getName() + " is not an Avro-generated record class (no static getClassSchema())",
          e);
    }
  }
}
