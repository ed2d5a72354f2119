package io.cdccompare.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.schemas.avro.HashRecord;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkHashesTest {

  @Test
  void pairsEachKeyWithItsSliceOfTheHashes() {
    // Given: two 20-byte hashes, 0..19 and 255..236
    HashRecord record = SampleRecords.hashRecord();

    // When
    ChunkHashes hashes = ChunkHashes.of(record);

    // Then
    assertThat(hashes.size()).isEqualTo(2);
    assertThat(hashes.hashLength()).isEqualTo(20);
    assertThat(hashes.key(1)).isEqualTo("héllo,\\,wörld");
    assertThat(hashes.hash(0)[0]).isEqualTo((byte) 0);
    assertThat(hashes.hash(0)[19]).isEqualTo((byte) 19);
    assertThat(hashes.hashHex(1)).startsWith("fffefdfc").endsWith("ec");
    assertThatThrownBy(() -> hashes.hash(2)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void readingDoesNotMoveTheRecordsBuffer() {
    HashRecord record = SampleRecords.hashRecord();
    int before = record.getHashes().position();

    ChunkHashes.of(record).hash(1);

    assertThat(record.getHashes().position()).isEqualTo(before);
  }

  @Test
  void refusesARecordWhoseArraysDisagreeNamingIt() {
    // Given: 2 keys but 39 hash bytes
    HashRecord record = SampleRecords.hashRecord();
    record.setHashes(ByteBuffer.wrap(new byte[39]));

    // When / Then
    assertThatThrownBy(() -> ChunkHashes.of(record))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task 'nightly'")
        .hasMessageContaining("table 'public.orders'")
        .hasMessageContaining("chunk 3")
        .hasMessageContaining("partition 5")
        .hasMessageContaining("2 keys need 40 hash bytes")
        .hasMessageContaining("found 39");
  }

  @Test
  void packRefusesAHashOfTheWrongWidth() {
    assertThatThrownBy(() -> ChunkHashes.pack(List.of(new byte[16], new byte[15]), 16))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hash 1 has 15 bytes, expected 16");
  }

  @Test
  void packConcatenatesInOrder() {
    ByteBuffer packed = ChunkHashes.pack(List.of(new byte[] {1, 2}, new byte[] {3, 4}), 2);

    assertThat(packed.remaining()).isEqualTo(4);
    assertThat(packed.get(0)).isEqualTo((byte) 1);
    assertThat(packed.get(3)).isEqualTo((byte) 4);
  }
}
