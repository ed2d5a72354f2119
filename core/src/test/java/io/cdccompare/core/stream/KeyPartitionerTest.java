package io.cdccompare.core.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyPartitionerTest {

  @Test
  void matchesKafkaMurmur2ReferenceValues() {
    // reference values of Kafka's Utils.murmur2 (its own unit test vectors)
    assertThat(KeyPartitioner.murmur2("21".getBytes(StandardCharsets.UTF_8))).isEqualTo(-973932308);
    assertThat(KeyPartitioner.murmur2("foobar".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(-790332482);
    assertThat(KeyPartitioner.murmur2("a-little-bit-long-string".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(-985981536);
    assertThat(KeyPartitioner.murmur2("".getBytes(StandardCharsets.UTF_8))).isEqualTo(275646681);
  }

  @Test
  void spreadsKeysOverEveryPartitionAndStaysInRange() {
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      int p = KeyPartitioner.partition(Integer.toString(i), 7);
      assertThat(p).isBetween(0, 6);
      seen.add(p);
    }
    assertThat(seen).hasSize(7);
  }

  @Test
  void isStableForTheSameKey() {
    assertThat(KeyPartitioner.partition("42,abc", 12))
        .isEqualTo(KeyPartitioner.partition("42,abc", 12));
  }

  @Test
  void refusesZeroPartitions() {
    assertThatThrownBy(() -> KeyPartitioner.partition("1", 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
