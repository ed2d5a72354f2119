package io.cdccompare.schemas.serde;

import io.cdccompare.schemas.registry.SchemaRegistry;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A {@link SpecificAvroSerializer} and {@link SpecificAvroDeserializer} for one generated record
 * class, sharing one registry client (and so its caches). Build it ready to use with {@link
 * #forValues} or {@link #forKeys}, or with the type only and let Kafka call {@link #configure}.
 * Thread-safe.
 */
public final class SpecificAvroSerde<T extends SpecificRecord> implements Serde<T> {
  private final Class<T> type;
  private SchemaRegistry registry;
  private boolean ownsRegistry;
  private SpecificAvroSerializer<T> serializer;
  private SpecificAvroDeserializer<T> deserializer;

  /** Reads into {@code type}; {@link #configure} must be called before use. */
  public SpecificAvroSerde(Class<T> type) {
    this.type = type;
  }

  private SpecificAvroSerde(SchemaRegistry registry, Class<T> type, boolean isKey) {
    this.type = type;
    this.registry = registry;
    this.serializer = new SpecificAvroSerializer<>(registry, isKey);
    this.deserializer = new SpecificAvroDeserializer<>(registry, type);
  }

  /** A serde of record values ({@code <topic>-value} subjects). */
  public static <T extends SpecificRecord> SpecificAvroSerde<T> forValues(
      SchemaRegistry registry, Class<T> type) {
    return new SpecificAvroSerde<>(registry, type, false);
  }

  /** A serde of record keys ({@code <topic>-key} subjects). */
  public static <T extends SpecificRecord> SpecificAvroSerde<T> forKeys(
      SchemaRegistry registry, Class<T> type) {
    return new SpecificAvroSerde<>(registry, type, true);
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    if (registry == null) {
      registry = SchemaRegistry.fromConfigs(configs);
      ownsRegistry = true;
    }
    serializer = new SpecificAvroSerializer<>(registry, isKey);
    serializer.configure(configs, isKey);
    deserializer = new SpecificAvroDeserializer<>(registry, type);
  }

  @Override
  public Serializer<T> serializer() {
    return requireConfigured(serializer);
  }

  @Override
  public Deserializer<T> deserializer() {
    return requireConfigured(deserializer);
  }

  private <S> S requireConfigured(S half) {
    if (half == null) {
      throw new IllegalStateException(
          "SpecificAvroSerde of " + type.getName() + " was not configured: call configure()");
    }
    return half;
  }

  @Override
  public void close() {
    if (ownsRegistry) {
      registry.close();
    }
  }
}
