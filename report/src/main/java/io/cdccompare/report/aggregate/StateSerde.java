package io.cdccompare.report.aggregate;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A compact binary serde for the aggregation's own values (state stores, repartition topic), which
 * no other application reads: a format version byte, then the fields in order. Strings are a length
 * and UTF-8 bytes, length -1 for null. A reader refuses a version it does not know, so a later
 * format change is noticed instead of misread. Thread-safe.
 *
 * <p>Versions: 1 the first; 2 adds the source rows — a table run's rows read, compared and carried
 * from its coverage cycle and its slice, a noted chunk's rows and slice, the totals' source rows
 * and tables that compared nothing. State of version 1 is refused: reset the report application
 * (its stores and internal topics) before running this version.
 */
final class StateSerde<T> implements Serde<T> {
  static final byte VERSION = 2;

  @FunctionalInterface
  interface Writer<T> {
    void write(T value, DataOutputStream out) throws IOException;
  }

  @FunctionalInterface
  interface Reader<T> {
    T read(DataInputStream in) throws IOException;
  }

  private final String name;
  private final Writer<T> writer;
  private final Reader<T> reader;

  StateSerde(String name, Writer<T> writer, Reader<T> reader) {
    this.name = name;
    this.writer = writer;
    this.reader = reader;
  }

  @Override
  public Serializer<T> serializer() {
    return (topic, value) -> {
      if (value == null) {
        return null;
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeByte(VERSION);
        writer.write(value, out);
      } catch (IOException e) {
        throw new SerializationException("cannot write a " + name + " for topic " + topic, e);
      }
      return bytes.toByteArray();
    };
  }

  @Override
  public Deserializer<T> deserializer() {
    return (topic, data) -> {
      if (data == null) {
        return null;
      }
      try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
        byte version = in.readByte();
        if (version != VERSION) {
          throw new SerializationException(
              "a "
                  + name
                  + " of topic "
                  + topic
                  + " has format version "
                  + version
                  + ", this reader knows "
                  + VERSION);
        }
        T value = reader.read(in);
        if (in.available() > 0) {
          throw new SerializationException(
              "a " + name + " of topic " + topic + " has " + in.available() + " bytes too many");
        }
        return value;
      } catch (IOException | IllegalArgumentException e) {
        throw new SerializationException("cannot read a " + name + " of topic " + topic, e);
      }
    };
  }

  static void writeString(DataOutputStream out, String value) throws IOException {
    if (value == null) {
      out.writeInt(-1);
      return;
    }
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  static String readString(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length == -1) {
      return null;
    }
    if (length < 0 || length > in.available()) {
      throw new IOException("string of " + length + " bytes, " + in.available() + " left");
    }
    return new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  static void writeStrings(DataOutputStream out, List<String> values) throws IOException {
    out.writeInt(values.size());
    for (String value : values) {
      writeString(out, value);
    }
  }

  static List<String> readStrings(DataInputStream in) throws IOException {
    int size = in.readInt();
    if (size < 0 || size > in.available() / 4) {
      throw new IOException("list of " + size + " strings, " + in.available() + " bytes left");
    }
    List<String> values = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      values.add(readString(in));
    }
    return values;
  }
}
