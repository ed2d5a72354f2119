package io.cdccompare.verifier.stream;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.awaitility.Awaitility;

/** One target's apply+verify application, running as a real KafkaStreams client. */
final class VerifierApp implements AutoCloseable {
  final VerifierSettings settings;
  final CommitAudit audit;
  final KafkaStreams streams;
  final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Path stateDir;

  private VerifierApp(VerifierSettings settings, CommitAudit audit, Path stateDir) {
    this.settings = settings;
    this.audit = audit;
    this.stateDir = stateDir;
    Properties props = VerifyTopologyFactory.streamsProperties(settings);
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    streams = new KafkaStreams(VerifyTopologyFactory.build(settings), props, audit);
    streams.setUncaughtExceptionHandler(
        e -> {
          failure.compareAndSet(null, e);
          return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler
              .StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
  }

  /** Starts the application and waits until it runs. */
  static VerifierApp start(VerifierSettings settings, CommitAudit audit) throws Exception {
    ResultsTopic.ensure(settings);
    VerifierApp app = new VerifierApp(settings, audit, Files.createTempDirectory("verify-it"));
    app.streams.start();
    Awaitility.await("verifier " + settings.target() + " running")
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              app.requireHealthy();
              return app.streams.state() == KafkaStreams.State.RUNNING;
            });
    return app;
  }

  /** Starts the application without waiting for it to run (it may be expected to fail). */
  static VerifierApp startUnchecked(VerifierSettings settings, CommitAudit audit)
      throws java.io.IOException {
    VerifierApp app = new VerifierApp(settings, audit, Files.createTempDirectory("verify-it"));
    app.streams.start();
    return app;
  }

  /** Throws what stopped a stream thread, if one stopped. */
  void requireHealthy() {
    Throwable e = failure.get();
    if (e != null) {
      throw new AssertionError("verifier " + settings.target() + " failed: " + e, e);
    }
  }

  @Override
  public void close() throws java.sql.SQLException, java.io.IOException {
    streams.close(Duration.ofSeconds(30));
    audit.close();
    try (var paths = Files.walk(stateDir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
