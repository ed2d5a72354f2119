package io.cdccompare.core.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChangeRangeTest {
  private static final TopicOffsets COMPLETED = offsets("id1", 10, 20, 30);

  @Test
  void aTopicHoldingEveryRecordSinceTheCompletedOffsetsHoldsTheRange() {
    // Given a topic whose earliest offsets are at or below the completed ones, and ends past them
    // When the range is checked / Then nothing is lost
    assertThat(ChangeRange.lost(COMPLETED, offsets("id1", 10, 0, 5), offsets("id1", 10, 25, 99)))
        .isEmpty();
  }

  @Test
  void recordsDeletedPastTheCompletedOffsetAreNamedWithTheirPartitionAndOffsets() {
    // Given partitions 0 and 2 whose earliest offsets passed the completed offsets
    // When the range is checked
    // Then both partitions are named with the offsets that are gone
    assertThat(ChangeRange.lost(COMPLETED, offsets("id1", 15, 20, 31), offsets("id1", 40, 40, 40)))
        .contains(
            "records [10, 15) of partition 0 are gone (its earliest offset is 15); records [30,"
                + " 31) of partition 2 are gone (its earliest offset is 31)");
  }

  @Test
  void aRecreatedTopicIsNamedWithBothIds() {
    // Given the same topic name under another id, its offsets back at 0
    // When the range is checked / Then it says the topic was recreated
    assertThat(ChangeRange.lost(COMPLETED, offsets("id2", 0, 0, 0), offsets("id2", 3, 3, 3)))
        .contains(
            "topic shop.public.orders was recreated (id id1 when the last run completed, id2 now):"
                + " the records since are gone");
  }

  @Test
  void anotherPartitionCountIsALostRange() {
    // Given the topic with a fourth partition
    // When the range is checked / Then the counts are named
    assertThat(
            ChangeRange.lost(COMPLETED, offsets("id1", 0, 0, 0, 0), offsets("id1", 50, 50, 50, 5)))
        .contains(
            "topic shop.public.orders has 4 partitions, 3 when the last run completed: its keys"
                + " moved to other partitions");
  }

  @Test
  void anEndBeforeTheCompletedOffsetIsATruncation() {
    // Given partition 1 ending before its completed offset
    // When the range is checked / Then the truncated records are named
    assertThat(ChangeRange.lost(COMPLETED, offsets("id1", 0, 0, 0), offsets("id1", 10, 18, 30)))
        .contains(
            "partition 1 ends at offset 18, before the completed offset 20: records [18, 20) were"
                + " truncated");
  }

  @Test
  void anotherTopicNameIsALostRange() {
    // Given offsets of another topic (another prefix)
    TopicOffsets other = new TopicOffsets("audit.public.orders", "id1", List.of(0L, 0L, 0L));

    // When the range is checked / Then both names are given
    assertThat(ChangeRange.lost(COMPLETED, other, other))
        .hasValueSatisfying(
            why -> assertThat(why).contains("shop.public.orders", "audit.public.orders"));
  }

  private static TopicOffsets offsets(String id, long... offsets) {
    return new TopicOffsets(
        "shop.public.orders", id, java.util.Arrays.stream(offsets).boxed().toList());
  }
}
