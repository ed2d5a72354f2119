package io.cdccompare.producer.compare;

import io.cdccompare.producer.compare.TableTopicOffsets.TopicState;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.source.TopicLayout;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The Kafka half of an incremental run's start, asked on threads of its own from the run's first
 * moment while the run's thread logs in to the source and reads its catalog, lock and positions:
 * Kafka reachable and the hashes topic's largest record asked (the topic is created only when the
 * run asks for it, after its tables resolved), then the hash-record producer made and its metadata
 * and schema id fetched; beside them, where the task's table topics stand ({@link
 * TableTopicOffsets#states}) — their names follow from the task file ({@link
 * TopicLayout#topicName}), so nothing waits for the source catalog. Each is a few round trips to
 * Kafka or the registry that an incremental run of a few keys would otherwise pay one after the
 * other, after the source's (compare-producer README, "Incremental runs", the cost).
 *
 * <p>The run's thread takes each answer when it needs it (compare-producer README, "Incremental
 * runs": in which order) and checks the table topics against the resolved tables itself; a failure
 * is thrown there as it was thrown here, so the run fails as it would have failed asking itself.
 * Closing interrupts what is still under way (a run that failed on the source does not wait for
 * Kafka's timeouts), then closes the producer: the run lends it to its key-list run and closes it
 * here.
 */
final class KafkaStart implements AutoCloseable {
  private final TableTopicOffsets offsets;
  private final ExecutorService threads = CompareRun.threads("cdc-compare-kafka-start", 2);
  private final TopicCheck topics;
  private final List<String> tableTopics;
  private final Future<OptionalInt> hashesTopicLimit;
  private final CompletableFuture<Integer> maxRecordBytes = new CompletableFuture<>();
  private final Future<Map<String, TopicState>> states;
  private final Future<KafkaProducer<String, HashRecord>> producer;

  /**
   * Starts asking.
   *
   * @param topics the checks, on an admin client the caller closes after this
   * @param offsets where the table topics stand, closed by the caller after this
   */
  KafkaStart(CompareConfig config, TopicCheck topics, TableTopicOffsets offsets) {
    this.topics = topics;
    this.offsets = offsets;
    this.tableTopics =
        config.tables().stream()
            .map(t -> TopicLayout.topicName(config.topicPrefix(), t.table()))
            .distinct()
            .toList();
    this.hashesTopicLimit =
        threads.submit(
            () -> {
              topics.requireReachable();
              OptionalInt limit = topics.hashesTopicLimit();
              limit.ifPresent(maxRecordBytes::complete);
              return limit;
            });
    this.states = threads.submit(() -> offsets.states(tableTopics));
    this.producer =
        threads.submit(
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

  /**
   * The hashes topic's largest record ({@link TopicCheck#ensureHashesTopic}): the topic is created
   * here, on the run's thread, when it was missing, once the run asks (after its tables resolved: a
   * run refused for its input creates nothing).
   */
  int maxRecordBytes() throws Exception {
    if (Asked.answer(hashesTopicLimit).isEmpty()) {
      maxRecordBytes.complete(topics.ensureHashesTopic());
    }
    return Asked.answer(maxRecordBytes);
  }

  /**
   * Where the table topic of each of {@code plans} stands, by topic, each checked to exist with the
   * partition count the capture recorded ({@link TopicCheck#requireTableTopic}).
   */
  Map<String, TopicState> states(List<ScanPlan> plans) throws Exception {
    Asked.answer(hashesTopicLimit); // Kafka unreachable is said as such, before any topic's answer
    Map<String, TopicState> asked = Asked.answer(states);
    Map<String, TopicState> found = new HashMap<>(asked);
    List<String> more =
        plans.stream()
            .map(ScanPlan::topic)
            .distinct()
            .filter(t -> !tableTopics.contains(t))
            .toList();
    if (!more.isEmpty()) {
      found.putAll(offsets.states(more)); // a table the task file did not name as resolved
    }
    for (ScanPlan plan : plans) {
      TopicCheck.requireTableTopic(
          plan, Optional.ofNullable(found.get(plan.topic())).map(s -> s.end().partitions()));
    }
    return found;
  }

  /** The hash-record producer, ready; closed by {@link #close()}. */
  KafkaProducer<String, HashRecord> producer() throws Exception {
    return Asked.answer(producer);
  }

  @Override
  public void close() throws InterruptedException {
    threads.shutdownNow();
    if (!threads.awaitTermination(1, TimeUnit.MINUTES)) {
      throw new IllegalStateException("the Kafka requests of the run's start did not stop");
    }
    if (producer.isDone()) {
      try {
        producer.get().close();
      } catch (ExecutionException | CancellationException failed) {
        // nothing made, nothing to close; the run's thread threw the failure if it asked
      }
    }
  }
}
