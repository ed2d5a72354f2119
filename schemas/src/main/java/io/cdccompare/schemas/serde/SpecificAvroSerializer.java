package io.cdccompare.schemas.serde;

import io.cdccompare.schemas.Schemas;
import io.cdccompare.schemas.registry.SchemaRegistry;
import io.cdccompare.schemas.registry.SchemaRegistryException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes Avro-generated records in the {@linkplain WireFormat Confluent wire format}. The writer
 * schema is the record's own; its id comes from the registry under subject {@code <topic>-value}
 * (or {@code <topic>-key} for keys), registered on first use unless {@value #AUTO_REGISTER_SCHEMAS}
 * is {@code false}, in which case it must already be registered there. Ids are cached by the
 * registry client, so only the first record per (topic, schema) costs a request.
 *
 * <p>Kafka can create it by class name: {@link #configure} then reads {@code schema.registry.url}
 * and the other {@link io.cdccompare.schemas.registry.RegistryClientConfig} keys. A {@code null}
 * record (a tombstone) is written as {@code null}. Thread-safe.
 */
public final class SpecificAvroSerializer<T extends SpecificRecord> implements Serializer<T> {

  /** Register a record's schema on first use (default {@code true}); Confluent's key. */
  public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";

  private final Map<Class<?>, DatumWriter<Object>> writers = new ConcurrentHashMap<>();
  private SchemaRegistry registry;
  private boolean ownsRegistry;
  private boolean isKey;
  private boolean autoRegister = true;

  /** For Kafka's configuration by class name; {@link #configure} must be called. */
  public SpecificAvroSerializer() {}

  /**
   * Ready to use with the given registry, registering schemas on first use.
   *
   * @param isKey whether it writes record keys ({@code -key} subjects) or values
   */
  public SpecificAvroSerializer(SchemaRegistry registry, boolean isKey) {
    this.registry = registry;
    this.isKey = isKey;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    this.isKey = isKey;
    Object auto = configs.get(AUTO_REGISTER_SCHEMAS);
    if (auto != null) {
      this.autoRegister = Boolean.parseBoolean(auto.toString().strip());
    }
    if (registry == null) {
      registry = SchemaRegistry.fromConfigs(configs);
      ownsRegistry = true;
    }
  }

  /**
   * Registers (or, without auto-registration, looks up) {@code schema} for {@code topic} now, so
   * the first record written to it does not wait for the registry. The id is kept as a first write
   * would keep it.
   *
   * @throws SerializationException naming the topic and subject when the registry has no id for it
   */
  public void prepare(String topic, Schema schema) {
    if (registry == null) {
      throw new IllegalStateException(
          "SpecificAvroSerializer was not configured: give it a registry or call configure()");
    }
    schemaId(Schemas.subject(topic, isKey), schema, topic);
  }

  @Override
  public byte[] serialize(String topic, T data) {
    if (data == null) {
      return null;
    }
    if (registry == null) {
      throw new IllegalStateException(
          "SpecificAvroSerializer was not configured: give it a registry or call configure()");
    }
    Schema schema = data.getSchema();
    String subject = Schemas.subject(topic, isKey);
    int id = schemaId(subject, schema, topic);
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream(256);
      ByteBuffer header = ByteBuffer.allocate(WireFormat.HEADER_LENGTH);
      WireFormat.writeHeader(header, id);
      out.write(header.array());
      // buffered: a hash record is thousands of small writes, each a synchronized call on a
      // ByteArrayOutputStream when written directly
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
      writer(data).write(data, encoder);
      encoder.flush();
      return out.toByteArray();
    } catch (IOException | RuntimeException e) {
      throw new SerializationException(
          "cannot write a "
              + schema.getFullName()
              + " to topic '"
              + topic
              + "' (schema id "
              + id
              + "): "
              + e.getMessage(),
          e);
    }
  }

  private int schemaId(String subject, Schema schema, String topic) {
    try {
      return autoRegister ? registry.register(subject, schema) : registry.idOf(subject, schema);
    } catch (SchemaRegistryException e) {
      throw new SerializationException(
          "no schema id for "
              + schema.getFullName()
              + " on topic '"
              + topic
              + "' (subject '"
              + subject
              + "', "
              + (autoRegister ? "registering" : "looking up, " + AUTO_REGISTER_SCHEMAS + "=false")
              + "): "
              + e.getMessage(),
          e);
    }
  }

  private DatumWriter<Object> writer(T data) {
    return writers.computeIfAbsent(
        data.getClass(),
        type -> new SpecificDatumWriter<>(data.getSchema(), SpecificData.getForClass(type)));
  }

  @Override
  public void close() {
    if (ownsRegistry && registry != null) {
      registry.close();
    }
  }
}
