package io.cdccompare.producer.compare;

import io.cdccompare.producer.compare.TableTopicOffsets.TopicState;
import io.cdccompare.schemas.avro.HashRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The Kafka half of an incremental run's start, asked on a thread of its own while the run's thread
 * logs in to the source and reads its catalog, lock and positions: Kafka reachable and the hashes
 * topic made sure of, then — once the run's tables are resolved — their topics checked and where
 * they stand ({@link TableTopicOffsets#states}), then the hash-record producer made and its
 * metadata and schema id fetched. Each is a few round trips to Kafka or the registry that an
 * incremental run of a few keys would otherwise pay one after the other, after the source's
 * (compare-producer README, "Incremental runs", the cost).
 *
 * <p>The run's thread takes each answer when it needs it; a failure is thrown there as it was
 * thrown here, so the run fails as it would have failed asking itself. Closing interrupts what is
 * still under way (a run that failed on the source does not wait for Kafka's timeouts), then closes
 * the producer: the run lends it to its key-list run and closes it here.
 */
final class KafkaStart implements AutoCloseable {
  private final CompareConfig config;
  private final TopicCheck topics;
  private final TableTopicOffsets offsets;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "cdc-compare-kafka-start");
            t.setDaemon(true);
            return t;
          });
  private final Future<Integer> maxRecordBytes;
  private Future<Map<String, TopicState>> states;
  private Future<KafkaProducer<String, HashRecord>> producer;

  /**
   * Starts asking: Kafka reachable, the hashes topic.
   *
   * @param topics the checks, on an admin client the caller closes after this
   * @param offsets where the table topics stand, closed by the caller after this
   */
  KafkaStart(CompareConfig config, TopicCheck topics, TableTopicOffsets offsets) {
    this.config = config;
    this.topics = topics;
    this.offsets = offsets;
    this.maxRecordBytes =
        thread.submit(
            () -> {
              topics.requireReachable();
              return topics.ensureHashesTopic();
            });
  }

  /**
   * Asks next, for the run's tables: their topics checked and where they stand, then the producer.
   */
  void tables(List<ScanPlan> plans) {
    states =
        thread.submit(
            () -> {
              topics.requireTableTopics(plans);
              return offsets.states(plans.stream().map(ScanPlan::topic).distinct().toList());
            });
    producer =
        thread.submit(
            () -> {
              KafkaProducer<String, HashRecord> made =
                  CompareRun.producer(config, maxRecordBytes.get());
              try {
                made.partitionsFor(config.hashesTopic());
              } catch (RuntimeException e) {
                made.close(Duration.ZERO);
                throw e;
              }
              return made;
            });
  }

  /** The hashes topic's largest record ({@link TopicCheck#ensureHashesTopic}). */
  int maxRecordBytes() throws Exception {
    return answer(maxRecordBytes);
  }

  /** Where each table topic of {@link #tables} stands, by topic. */
  Map<String, TopicState> states() throws Exception {
    return answer(states);
  }

  /** The hash-record producer, ready; closed by {@link #close()}. */
  KafkaProducer<String, HashRecord> producer() throws Exception {
    return answer(producer);
  }

  private static <T> T answer(Future<T> asked) throws Exception {
    try {
      return asked.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  @Override
  public void close() throws InterruptedException {
    thread.shutdownNow();
    if (!thread.awaitTermination(1, TimeUnit.MINUTES)) {
      throw new IllegalStateException("the Kafka requests of the run's start did not stop");
    }
    if (producer != null && producer.isDone()) {
      try {
        producer.get().close();
      } catch (ExecutionException failed) {
        // nothing made, nothing to close; the run's thread threw the failure if it asked
      }
    }
  }
}
