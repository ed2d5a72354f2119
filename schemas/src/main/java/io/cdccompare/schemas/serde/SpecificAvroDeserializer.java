package io.cdccompare.schemas.serde;

import io.cdccompare.schemas.Schemas;
import io.cdccompare.schemas.registry.SchemaRegistry;
import io.cdccompare.schemas.registry.SchemaRegistryException;
import java.io.EOFException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads records in the {@linkplain WireFormat Confluent wire format} into one Avro-generated class.
 * The writer schema is fetched from the registry by the id in the record (and cached); the reader
 * schema is the class's; Avro schema resolution bridges them, so a reader whose class has gained a
 * defaulted field reads records written before it, and a reader whose class lacks a field skips it.
 *
 * <p>Bytes that cannot be read — too short, a wrong magic byte, an id the registry does not know, a
 * writer schema that does not resolve to the class, a truncated or overlong body — raise a {@link
 * SerializationException} saying which, naming the topic and the schema id; the caller adds
 * partition and offset. Each body is first walked along its writer schema without allocating, so a
 * corrupt length is refused instead of exhausting the heap (this costs a second, cheap pass over
 * the bytes). {@code null} (a tombstone) reads as {@code null}.
 *
 * <p>Kafka can create it by class name: {@link #configure} then reads the class from {@value
 * #VALUE_TYPE} (or {@value #KEY_TYPE}) and the registry from {@code schema.registry.url}.
 * Thread-safe.
 */
public final class SpecificAvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {

  /** Fully qualified generated class to read values into, when created by class name. */
  public static final String VALUE_TYPE = "specific.avro.value.type";

  /** Fully qualified generated class to read keys into, when created by class name. */
  public static final String KEY_TYPE = "specific.avro.key.type";

  private final Map<Integer, WriterReader<T>> readersByWriterId = new ConcurrentHashMap<>();
  private Class<T> type;
  private Schema readerSchema;
  private SpecificData model;
  private SchemaRegistry registry;
  private boolean ownsRegistry;

  /** For Kafka's configuration by class name; {@link #configure} must be called. */
  public SpecificAvroDeserializer() {}

  /** Reads into {@code type}; the registry comes from {@link #configure}. */
  public SpecificAvroDeserializer(Class<T> type) {
    setType(type);
  }

  /** Ready to use: reads into {@code type} with writer schemas from {@code registry}. */
  public SpecificAvroDeserializer(SchemaRegistry registry, Class<T> type) {
    this(type);
    this.registry = registry;
  }

  private void setType(Class<T> type) {
    this.readerSchema = Schemas.schemaOf(type);
    this.type = type;
    this.model = SpecificData.getForClass(type);
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    if (type == null) {
      String key = isKey ? KEY_TYPE : VALUE_TYPE;
      Object configured = configs.get(key);
      if (configured == null) {
        throw new IllegalArgumentException(
            key + " is required: the generated Avro class to read " + (isKey ? "keys" : "values"));
      }
      setType(loadType(key, configured));
    }
    if (registry == null) {
      registry = SchemaRegistry.fromConfigs(configs);
      ownsRegistry = true;
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends SpecificRecord> Class<T> loadType(String key, Object configured) {
    Class<?> loaded;
    if (configured instanceof Class<?> c) {
      loaded = c;
    } else {
      try {
        loaded =
            Class.forName(
                configured.toString().strip(),
                true,
                Thread.currentThread().getContextClassLoader() != null
                    ? Thread.currentThread().getContextClassLoader()
                    : SpecificAvroDeserializer.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalArgumentException(key + " names an unknown class '" + configured + "'", e);
      }
    }
    if (!SpecificRecord.class.isAssignableFrom(loaded)) {
      throw new IllegalArgumentException(
          key + " must name an Avro-generated record class, was " + loaded.getName());
    }
    return (Class<T>) loaded;
  }

  /** The class records are read into. */
  public Class<T> type() {
    return type;
  }

  @Override
  public T deserialize(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    if (registry == null || type == null) {
      throw new IllegalStateException(
          "SpecificAvroDeserializer was not configured: give it a type and a registry or call"
              + " configure()");
    }
    int id = WireFormat.schemaId(topic, data);
    WriterReader<T> resolved = reader(topic, id);
    checkShape(topic, id, resolved.writer(), data);
    try {
      return resolved.reader().read(null, body(data));
    } catch (AvroTypeException e) {
      throw failure(topic, id, "the writer schema does not resolve: " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      throw failure(topic, id, "the Avro body is malformed: " + e, e);
    }
  }

  /**
   * Walks the body along the writer schema without building anything, so a truncated or overlong
   * body, or a corrupt length that would make the real read allocate gigabytes, is refused before
   * any allocation: skipping a string or an array checks its length against the bytes present.
   */
  private void checkShape(String topic, int id, Schema writer, byte[] data) {
    BinaryDecoder decoder = body(data);
    boolean atEnd;
    try {
      GenericDatumReader.skip(writer, decoder);
      atEnd = decoder.isEnd();
    } catch (EOFException e) {
      throw failure(
          topic,
          id,
          "the Avro body is truncated (or a length in it is corrupt): "
              + (data.length - WireFormat.HEADER_LENGTH)
              + " bytes end before the record does",
          e);
    } catch (IOException | RuntimeException e) {
      throw failure(topic, id, "the Avro body is malformed: " + e, e);
    }
    if (!atEnd) {
      throw failure(
          topic,
          id,
          "bytes are left after the record: the body is longer than its writer schema allows",
          null);
    }
  }

  private static BinaryDecoder body(byte[] data) {
    return DecoderFactory.get()
        .binaryDecoder(
            data, WireFormat.HEADER_LENGTH, data.length - WireFormat.HEADER_LENGTH, null);
  }

  private record WriterReader<T>(Schema writer, DatumReader<T> reader) {}

  private WriterReader<T> reader(String topic, int id) {
    WriterReader<T> known = readersByWriterId.get(id);
    if (known != null) {
      return known;
    }
    Schema writerSchema;
    try {
      writerSchema = registry.schemaById(id);
    } catch (SchemaRegistryException e) {
      throw failure(
          topic,
          id,
          (e.notFound() ? "the schema id is unknown to the registry: " : "") + e.getMessage(),
          e);
    }
    WriterReader<T> made =
        new WriterReader<>(
            writerSchema, new SpecificDatumReader<>(writerSchema, readerSchema, model));
    WriterReader<T> previous = readersByWriterId.putIfAbsent(id, made);
    return previous != null ? previous : made;
  }

  private SerializationException failure(String topic, int id, String what, Throwable cause) {
    return new SerializationException(
        "cannot read a record of topic '"
            + topic
            + "' (schema id "
            + id
            + ") as "
            + type.getName()
            + ": "
            + what,
        cause);
  }

  @Override
  public void close() {
    if (ownsRegistry && registry != null) {
      registry.close();
    }
  }
}
