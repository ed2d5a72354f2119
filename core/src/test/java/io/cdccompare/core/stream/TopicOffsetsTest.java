package io.cdccompare.core.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TopicOffsetsTest {

  @Test
  void theTextNamesTopicIdAndEveryPartitionAndReadsBack() {
    // Given the offsets of a three-partition topic
    TopicOffsets offsets =
        new TopicOffsets("shop.public.orders", "q9Xk1-Z_RDOw2yJcXQx0bA", List.of(12L, 0L, 40L));

    // When they are written as text and read back
    String text = offsets.encode();

    // Then the text is readable and gives the same offsets
    assertThat(text)
        .isEqualTo("topic=shop.public.orders;id=q9Xk1-Z_RDOw2yJcXQx0bA;offsets=0:12,1:0,2:40");
    assertThat(TopicOffsets.decode(text)).isEqualTo(offsets);
  }

  @Test
  void aTextItDidNotWriteIsRefusedSayingWhy() {
    // Given texts with a field missing, a partition out of order, a non-number, a negative offset
    // When they are read / Then each is refused naming what is wrong
    assertThatThrownBy(() -> TopicOffsets.decode("topic=t;offsets=0:1"))
        .hasMessageContaining("topic=<name>;id=<id>;offsets=");
    assertThatThrownBy(() -> TopicOffsets.decode("topic=t;id=a;offsets=1:5"))
        .hasMessageContaining("expected partition 0");
    assertThatThrownBy(() -> TopicOffsets.decode("topic=t;id=a;offsets=0:x"))
        .hasMessageContaining("partition 0 has no number");
    assertThatThrownBy(() -> TopicOffsets.decode("topic=t;id=a;offsets=0:-1"))
        .hasMessageContaining("partition 0 has offset -1");
    assertThatThrownBy(() -> TopicOffsets.decode(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aTopicNameOrIdThatWouldBreakTheTextIsRefused() {
    // Given a name with a separator and an id with one
    // When offsets are made of them / Then they are refused
    assertThatThrownBy(() -> new TopicOffsets("a;b", "id", List.of(0L)))
        .hasMessageContaining("not a topic name");
    assertThatThrownBy(() -> new TopicOffsets("a", "i=d", List.of(0L)))
        .hasMessageContaining("not a topic id");
    assertThatThrownBy(() -> new TopicOffsets("a", "id", List.of()))
        .hasMessageContaining("offsets of no partition");
  }
}
