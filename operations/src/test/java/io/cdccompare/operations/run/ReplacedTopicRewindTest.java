package io.cdccompare.operations.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class ReplacedTopicRewindTest {
  private static final TopicPartition RESULTS_0 = new TopicPartition("p.compare.results", 0);
  private static final TopicPartition RESULTS_1 = new TopicPartition("p.compare.results", 1);
  private static final TopicPartition OTHER = new TopicPartition("p.compare.hashes", 0);

  private final AtomicLong replacements = new AtomicLong();
  private final ReplacedTopicRewind rewind =
      new ReplacedTopicRewind(
          new StreamsConfig(
                  Map.of(
                      StreamsConfig.APPLICATION_ID_CONFIG, "a",
                      StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9"))
              .getKafkaClientSupplier(),
          "p.compare.results",
          replacements::get);

  private static MockConsumer<byte[], byte[]> consumerAt(long offset) {
    MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
    List<TopicPartition> all = List.of(RESULTS_0, RESULTS_1, OTHER);
    mock.assign(all);
    mock.updateBeginningOffsets(Map.of(RESULTS_0, 0L, RESULTS_1, 0L, OTHER, 0L));
    all.forEach(tp -> mock.seek(tp, offset));
    return mock;
  }

  @Test
  void aConsumerKeepsItsPositionsWhileTheTopicWasNeverReplaced() {
    // Given a consumer at offset 7 of every partition
    MockConsumer<byte[], byte[]> mock = consumerAt(7);
    Consumer<byte[], byte[]> consumer = rewind.rewinding(mock);

    // When it polls with no replacement seen
    consumer.poll(Duration.ZERO);

    // Then nothing moved
    assertThat(mock.position(RESULTS_0)).isEqualTo(7);
    assertThat(mock.position(OTHER)).isEqualTo(7);
  }

  @Test
  void onceTheTopicWasReplacedItsPartitionsAreReadAgainFromTheirStartOnce() {
    // Given a consumer at offset 7, and the topic replaced
    MockConsumer<byte[], byte[]> mock = consumerAt(7);
    Consumer<byte[], byte[]> consumer = rewind.rewinding(mock);
    replacements.set(1);

    // When it polls
    consumer.poll(Duration.ZERO);

    // Then the replaced topic's partitions start again at their beginning, the others stay
    assertThat(mock.position(RESULTS_0)).isZero();
    assertThat(mock.position(RESULTS_1)).isZero();
    assertThat(mock.position(OTHER)).isEqualTo(7);

    // and once read on, the next poll does not rewind them again
    mock.seek(RESULTS_0, 3);
    consumer.poll(Duration.ZERO);
    assertThat(mock.position(RESULTS_0)).isEqualTo(3);

    // When another consumer of the process (a replaced stream thread's) holds the partitions next
    MockConsumer<byte[], byte[]> next = consumerAt(5);
    rewind.rewinding(next).poll(Duration.ZERO);

    // Then it starts where the group's offsets say: they were rewound once for this replacement
    assertThat(next.position(RESULTS_0)).isEqualTo(5);

    // When the topic is replaced a second time
    replacements.set(2);
    rewind.rewinding(next).poll(Duration.ZERO);

    // Then they are rewound again
    assertThat(next.position(RESULTS_0)).isZero();
    assertThat(next.position(RESULTS_1)).isZero();
  }

  @Test
  void everyOtherCallReachesTheConsumerUnchanged() {
    // Given a wrapped consumer
    MockConsumer<byte[], byte[]> mock = consumerAt(4);
    Consumer<byte[], byte[]> consumer = rewind.rewinding(mock);

    // When it is asked and moved through the wrapper
    consumer.seek(RESULTS_1, 9);

    // Then the consumer itself answers and moved
    assertThat(consumer.assignment()).containsExactlyInAnyOrder(RESULTS_0, RESULTS_1, OTHER);
    assertThat(mock.position(RESULTS_1)).isEqualTo(9);
    assertThat(consumer.position(RESULTS_1)).isEqualTo(9);
  }
}
