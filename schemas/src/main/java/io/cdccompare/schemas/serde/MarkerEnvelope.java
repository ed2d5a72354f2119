package io.cdccompare.schemas.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdccompare.schemas.avro.Marker;
import java.io.IOException;
import java.util.Base64;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The value of a marker record on a table topic: the marker in the {@linkplain WireFormat Confluent
 * wire format}, carried as the base64 payload of a Kafka Connect JSON envelope whose schema is
 * {@code bytes} named {@value #SCHEMA_NAME}:
 *
 * <pre>{"schema":{"type":"bytes","optional":false,"name":"io.cdccompare.Marker","version":1},
 *  "payload":"AAAAAAE…"}</pre>
 *
 * Why this shape: the table topics hold Debezium's JSON envelopes, which a Kafka Connect sink reads
 * with {@code JsonConverter}, and Connect converts every record before its transforms run. A marker
 * the converter could not read (plain Avro) would stop such a sink before the documented {@code
 * Filter} with {@code HasHeaderKey(cdc.marker)} could drop it. In this envelope the converter reads
 * it (a {@code bytes} value), the filter drops it, and a sink without the filter fails on it
 * loudly: a JDBC sink needs a {@code Struct} value, and the marker has neither a struct nor a key.
 * Thread-safe.
 */
public final class MarkerEnvelope {
  /** The Connect schema name of a marker's value. */
  public static final String SCHEMA_NAME = "io.cdccompare.Marker";

  private static final ObjectMapper JSON = new ObjectMapper();

  private MarkerEnvelope() {}

  /** The envelope of a marker's wire-format bytes. */
  public static byte[] wrap(byte[] wireFormat) {
    ObjectNode envelope = JSON.createObjectNode();
    ObjectNode schema = envelope.putObject("schema");
    schema.put("type", "bytes");
    schema.put("optional", false);
    schema.put("name", SCHEMA_NAME);
    schema.put("version", 1);
    envelope.put("payload", Base64.getEncoder().encodeToString(wireFormat));
    try {
      return JSON.writeValueAsBytes(envelope);
    } catch (IOException e) {
      throw new SerializationException("cannot write a marker's envelope", e);
    }
  }

  /**
   * The marker's wire-format bytes in an envelope.
   *
   * @throws SerializationException saying what is wrong: not JSON, another schema, no payload
   */
  public static byte[] unwrap(byte[] envelope) {
    JsonNode root;
    try {
      root = JSON.readTree(envelope);
    } catch (IOException e) {
      throw new SerializationException("a marker value is not JSON: " + e.getMessage(), e);
    }
    JsonNode name = root == null ? null : root.path("schema").get("name");
    if (name == null || !SCHEMA_NAME.equals(name.asText())) {
      throw new SerializationException(
          "a marker value is not a " + SCHEMA_NAME + " envelope (schema.name " + name + ")");
    }
    JsonNode payload = root.get("payload");
    if (payload == null || !payload.isTextual()) {
      throw new SerializationException("a marker envelope has no base64 payload");
    }
    try {
      return Base64.getDecoder().decode(payload.asText());
    } catch (IllegalArgumentException e) {
      throw new SerializationException("a marker envelope's payload is not base64", e);
    }
  }

  /** Writes markers with {@code avro}, in the envelope. */
  public static Serializer<Marker> serializer(Serializer<Marker> avro) {
    return new Serializer<>() {
      @Override
      public void configure(Map<String, ?> configs, boolean isKey) {
        avro.configure(configs, isKey);
      }

      @Override
      public byte[] serialize(String topic, Marker marker) {
        byte[] bytes = avro.serialize(topic, marker);
        return bytes == null ? null : wrap(bytes);
      }

      @Override
      public byte[] serialize(String topic, Headers headers, Marker marker) {
        return serialize(topic, marker);
      }

      @Override
      public void close() {
        avro.close();
      }
    };
  }

  /** Reads markers in the envelope with {@code avro}. */
  public static Deserializer<Marker> deserializer(Deserializer<Marker> avro) {
    return new Deserializer<>() {
      @Override
      public void configure(Map<String, ?> configs, boolean isKey) {
        avro.configure(configs, isKey);
      }

      @Override
      public Marker deserialize(String topic, byte[] data) {
        return data == null ? null : avro.deserialize(topic, unwrap(data));
      }

      @Override
      public Marker deserialize(String topic, Headers headers, byte[] data) {
        return deserialize(topic, data);
      }

      @Override
      public void close() {
        avro.close();
      }
    };
  }
}
