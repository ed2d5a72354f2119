package io.cdccompare.operations.run;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a Kafka Streams application read a topic again from its start once it was replaced by
 * another topic of the same name (deleted and created again: docs/faults.md, "the results topic
 * deleted while verifiers run"). Kafka keeps a consumer's position and its group's committed
 * offsets by topic name, so without this the report aggregation resumes the new topic at the
 * offsets it had reached on the old one and skips the new topic's first records: verdicts that are
 * never counted.
 *
 * <p>{@code replacements} counts the times the topic was seen replaced ({@link
 * ResultsTopicWatch#replacements}). Before every poll of a main consumer, each assigned partition
 * of the topic that was not rewound since the last replacement is sought to its beginning, once per
 * replacement in this process, whichever stream thread holds it (a replaced stream thread's new
 * consumer too). Records read twice that way change nothing: the report aggregation counts each
 * partition's verdict of a chunk once. Only the main consumer is wrapped; the call runs on the
 * stream thread that polls, the only thread that uses its consumer.
 */
final class ReplacedTopicRewind implements KafkaClientSupplier {
  private static final Logger LOG = LoggerFactory.getLogger(ReplacedTopicRewind.class);

  private final KafkaClientSupplier clients;
  private final String topic;
  private final LongSupplier replacements;
  private final Map<TopicPartition, Long> rewoundAt = new ConcurrentHashMap<>();

  /**
   * @param clients the application's own clients ({@code StreamsConfig#getKafkaClientSupplier},
   *     {@code default.client.supplier}), which this wraps
   */
  ReplacedTopicRewind(KafkaClientSupplier clients, String topic, LongSupplier replacements) {
    this.clients = clients;
    this.topic = topic;
    this.replacements = replacements;
  }

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return clients.getAdmin(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    return clients.getProducer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    return rewinding(clients.getConsumer(config));
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    return clients.getRestoreConsumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    return clients.getGlobalConsumer(config);
  }

  /** {@code consumer}, rewinding the topic's partitions it holds before each poll as described. */
  @SuppressWarnings("unchecked")
  Consumer<byte[], byte[]> rewinding(Consumer<byte[], byte[]> consumer) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (method.getName().equals("poll")) {
            rewindReplaced(consumer);
          }
          return forward(consumer, method, args);
        };
    return (Consumer<byte[], byte[]>)
        Proxy.newProxyInstance(
            Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class}, handler);
  }

  private void rewindReplaced(Consumer<byte[], byte[]> consumer) {
    long replaced = replacements.getAsLong();
    if (replaced == 0) {
      return;
    }
    List<TopicPartition> due =
        consumer.assignment().stream()
            .filter(tp -> tp.topic().equals(topic))
            .filter(tp -> rewoundAt.getOrDefault(tp, 0L) < replaced)
            .toList();
    if (due.isEmpty()) {
      return;
    }
    consumer.seekToBeginning(due);
    due.forEach(tp -> rewoundAt.put(tp, replaced));
    LOG.warn(
        "topic={} partitions={} replaced by a topic of the same name: read again from its start",
        topic,
        due.stream().map(TopicPartition::partition).sorted().toList());
  }

  private static Object forward(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
