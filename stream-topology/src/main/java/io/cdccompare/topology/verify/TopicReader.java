package io.cdccompare.topology.verify;

import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads single records at chosen positions, outside the stream: the hash records a CLOSE marker
 * points to, and the start of a partition when the stream resumes past the target's checkpoint.
 * {@link KafkaTopicReader} is the real one. Not thread-safe: one per processor.
 */
interface TopicReader extends AutoCloseable {

  /**
   * The first committed record at or after {@code offset}, waiting at most {@code timeout} for it;
   * empty if none came.
   */
  Optional<ConsumerRecord<byte[], byte[]>> firstFrom(
      String topic, int partition, long offset, Duration timeout);

  /** The first offset the partition still holds. */
  long beginningOffset(String topic, int partition);

  @Override
  void close();
}
