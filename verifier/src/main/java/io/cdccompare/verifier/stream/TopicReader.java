package io.cdccompare.verifier.stream;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads single records at chosen positions, outside the stream: the hash records a CLOSE marker
 * points to, the start of a partition when the stream resumes past the target's checkpoint, and the
 * keys a verify-only target's applier may have applied past a CLOSE marker. {@link
 * KafkaTopicReader} is the real one. Not thread-safe: one per processor.
 */
interface TopicReader extends AutoCloseable {

  /**
   * The first committed record at or after {@code offset}, waiting at most {@code timeout} for it;
   * empty if none came.
   */
  Optional<ConsumerRecord<byte[], byte[]>> firstFrom(
      String topic, int partition, long offset, Duration timeout);

  /**
   * The keys (UTF-8 text) of the records at offsets {@code [from, until)} of a partition, markers
   * (header {@code cdc.marker}) and records without a key skipped; empty if they could not all be
   * read within {@code timeout}. Holds every key of the range in memory.
   */
  Optional<Set<String>> keysBetween(
      String topic, int partition, long from, long until, Duration timeout);

  /**
   * The offset after the last committed record of the partition (its last stable offset): every
   * record another consumer can have read is below it.
   */
  long endOffset(String topic, int partition);

  /** The first offset the partition still holds. */
  long beginningOffset(String topic, int partition);

  @Override
  void close();
}
