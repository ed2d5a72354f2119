package io.cdccompare.operations.run;

import io.cdccompare.verifier.stream.ResultsTopic;
import io.cdccompare.verifier.stream.VerifierSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicListing;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a running verifier's results topic in place (docs/faults.md, "the results topic deleted
 * while verifiers run"). The broker does not create topics on first use: with the topic deleted,
 * the verify application's producer blocks on metadata (up to its {@code max.block.ms}, 60 s by
 * default, then fails the task) and the report aggregation, which reads the topic, stops with
 * {@code MissingSourceTopicException}. Every {@code results.topic.check.ms} (2 s) this lists the
 * topics (one cheap metadata call) and, when the results topic is gone, logs an error naming it,
 * reports it in the verifier's health line until it is back, and creates it again as at start
 * ({@link ResultsTopic#ensure}): the blocked verdicts are then delivered, and so are the sends that
 * were retrying. The verdicts the deleted topic held are gone from it; the report aggregation's
 * store and the report topic keep what it had aggregated of them. Each look also compares the
 * topic's id with the one seen before: a topic created again, by this watch or by anyone else (even
 * between two looks), counts as a replacement ({@link #replacements}), and the report aggregation
 * reads the new topic from its start ({@link ReplacedTopicRewind}). Thread-safe; one daemon thread.
 */
final class ResultsTopicWatch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ResultsTopicWatch.class);

  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

  private final VerifierSettings settings;
  private final Admin admin;
  private final ScheduledExecutorService scheduler;
  private final AtomicReference<String> missing = new AtomicReference<>();
  private final AtomicLong recreated = new AtomicLong();
  private final AtomicLong replacements = new AtomicLong();
  private final AtomicReference<Uuid> seenId = new AtomicReference<>();
  private final Object present = new Object();
  private final Duration period;
  private volatile boolean released;

  private ResultsTopicWatch(VerifierSettings settings, Duration period) {
    this.settings = settings;
    this.period = period;
    Map<String, Object> config = settings.kafka().clientSettings("admin.");
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafka().bootstrapServers());
    this.admin = Admin.create(config);
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "results-topic-watch-" + settings.target());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Starts looking for the settings' results topic every {@code period} ({@code
   * results.topic.check.ms}, well within the producer's 60 s {@code max.block.ms}).
   */
  static ResultsTopicWatch start(VerifierSettings settings, Duration period) {
    ResultsTopicWatch watch = new ResultsTopicWatch(settings, period);
    try {
      watch.listing().ifPresent(t -> watch.seenId.set(t.topicId()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // the first scheduled look notes the id
      LOG.debug("target={} could not note the results topic's id", settings.target(), e);
    }
    watch.scheduler.scheduleWithFixedDelay(
        watch::check, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    return watch;
  }

  private void check() {
    String topic = settings.tables().resultsTopic();
    try {
      Optional<TopicListing> now = listing();
      if (now.isPresent()) {
        noteId(now.get().topicId());
        return;
      }
      String reason =
          "target "
              + settings.target()
              + ": results topic "
              + topic
              + " is missing (deleted while the verifier ran); creating it again";
      if (missing.getAndSet(reason) == null) {
        LOG.error(
            "target={} topic={} the results topic was deleted while the verifier ran: creating it"
                + " again; the verdicts it held are gone from it (the report keeps its aggregate),"
                + " the verdicts waiting for it are delivered once it is back",
            settings.target(),
            topic);
      }
      ResultsTopic.ensure(settings);
      recreated.incrementAndGet();
      listing().ifPresent(t -> noteId(t.topicId()));
      missing.set(null);
      LOG.error("target={} topic={} the results topic was created again", settings.target(), topic);
      synchronized (present) {
        present.notifyAll();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // the broker unreachable, say: the verifier's own clients report that; look again later
      LOG.debug(
          "target={} topic={} could not look for the results topic", settings.target(), topic, e);
    }
  }

  private Optional<TopicListing> listing() throws Exception {
    return admin
        .listTopics(new ListTopicsOptions().timeoutMs((int) CALL_TIMEOUT.toMillis()))
        .listings()
        .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .stream()
        .filter(t -> t.name().equals(settings.tables().resultsTopic()))
        .findFirst();
  }

  /** Counts a replacement when {@code id} is not the id seen before. */
  private void noteId(Uuid id) {
    Uuid before = seenId.getAndSet(id);
    if (before != null && !before.equals(id)) {
      replacements.incrementAndGet();
      LOG.error(
          "target={} topic={} the results topic was replaced (topic id {} -> {}): the report"
              + " aggregation reads it again from its start",
          settings.target(),
          settings.tables().resultsTopic(),
          before,
          id);
    }
  }

  /** Why the verifier is not healthy while its results topic is missing, or null. */
  String problem() {
    return missing.get();
  }

  /** How many times the topic was created again. */
  long recreated() {
    return recreated.get();
  }

  /**
   * How many times the topic was seen replaced by another of the same name (another topic id), by
   * this watch or by anyone else. Read before every poll of the report aggregation.
   */
  long replacements() {
    return replacements.get();
  }

  /**
   * Waits at most {@code timeout} for the next look to find the topic in place (a report
   * aggregation thread that stopped on the missing topic waits here before it is replaced), or
   * until {@link #release}.
   */
  void awaitPresent(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!released && !exists()) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        return;
      }
      synchronized (present) {
        present.wait(Math.max(1, Math.min(left, period.toMillis())));
      }
    }
  }

  private boolean exists() throws InterruptedException {
    try {
      Optional<TopicListing> now = listing();
      now.ifPresent(t -> noteId(t.topicId()));
      return now.isPresent();
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      return false;
    }
  }

  /** Ends every wait of {@link #awaitPresent} (the verifier closes). */
  void release() {
    released = true;
    synchronized (present) {
      present.notifyAll();
    }
  }

  @Override
  public void close() {
    release();
    scheduler.shutdownNow();
    admin.close(CALL_TIMEOUT);
  }
}
