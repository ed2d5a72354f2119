package io.cdccompare.schemas.serde;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The Confluent wire format of a record key or value: magic byte {@code 0}, the writer schema's
 * registry id as a 4-byte big-endian int, then the Avro binary encoding of the datum. Readers find
 * the writer schema by the id, so any consumer of a Confluent-compatible registry reads our topics.
 */
public final class WireFormat {

  /** First byte of every framed record. */
  public static final byte MAGIC_BYTE = 0;

  /** Bytes before the Avro body: the magic byte and the schema id. */
  public static final int HEADER_LENGTH = 5;

  private WireFormat() {}

  /** Writes the header of a record written with schema {@code schemaId}. */
  static void writeHeader(ByteBuffer out, int schemaId) {
    out.put(MAGIC_BYTE).putInt(schemaId);
  }

  /**
   * The writer schema id of a framed record.
   *
   * @param topic named in the error, since the caller's record is otherwise anonymous
   * @throws SerializationException if the bytes are too short or do not start with the magic byte
   */
  public static int schemaId(String topic, byte[] data) {
    if (data.length < HEADER_LENGTH) {
      throw new SerializationException(
          "record of topic '"
              + topic
              + "' is not in the Confluent wire format: "
              + data.length
              + " bytes, at least "
              + HEADER_LENGTH
              + " needed (magic byte and schema id)");
    }
    if (data[0] != MAGIC_BYTE) {
      throw new SerializationException(
          "record of topic '"
              + topic
              + "' is not in the Confluent wire format: first byte is "
              + String.format("0x%02x", data[0] & 0xff)
              + ", expected the magic byte 0x00");
    }
    return ByteBuffer.wrap(data, 1, 4).getInt();
  }
}
