package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19's named faults on the whole pipeline (a capture, a PostgreSQL target {@code pg} and its
 * verifier): the target database restarted under apply, the broker stopped and started during a
 * compare. Its own environment: it restarts servers, which the shared one never does.
 */
class PipelineRestartIT {
  private static EmbeddedEnvironment env;

  @BeforeAll
  static void start() {
    env =
        EmbeddedEnvironment.start(
            EnumSet.of(
                Component.KAFKA,
                Component.REGISTRY,
                Component.SOURCE_POSTGRES,
                Component.TARGET_POSTGRES));
  }

  @AfterAll
  static void stop() {
    env.close();
  }

  @Test
  void aTargetRestartedUnderApplyIsRiddenOutAndATargetDownBeyondTheRetryTimeoutStopsItsVerifier(
      @TempDir Path dir) throws Exception {
    // Given a verifier whose transient target failures are retried for 10 s
    ComparePipeline p =
        ComparePipeline.create(
            env,
            dir,
            "target-restart",
            Map.of("chunk", "500"),
            List.of("pg"),
            Map.of(
                "streams.session.timeout.ms", "6000",
                "statement.timeout.ms", "5000",
                "retry.timeout.ms", "10000"));
    CaptureFixture f = p.source();
    boolean targetUp = true;
    try (CaptureFixture.Running capture = f.start("public.items")) {
      RunningVerifier first = p.verifier("pg", true);
      try {
        f.sql("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, 2000) g");
        ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), 2000);

        // When the target restarts while the source keeps changing
        List<ProcessHandle> before = env.targetPostgres().processes();
        env.targetPostgres().restart();
        assertThat(env.targetPostgres().processes())
            .as("the target restarted")
            .doesNotContainAnyElementsOf(before);
        f.sql("UPDATE items SET n = n + 1 WHERE id <= 500");
        f.sql("INSERT INTO items SELECT g, 'late ' || g, g FROM generate_series(2001, 2500) g");

        // Then the same verifier applies every change over a new connection: it did not stop
        ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), 2500);
        await().atMost(Duration.ofSeconds(60)).until(() -> sum(p, "n") == sourceSum(f, "n"));
        assertThat(first.failure()).as("the verifier rode the restart out").isEmpty();
        assertThat(first.running()).isTrue();

        // When the target is down for longer than the retry timeout while changes arrive
        env.targetPostgres().close();
        targetUp = false;
        f.sql("INSERT INTO items SELECT g, 'down ' || g, g FROM generate_series(2501, 2700) g");

        // Then the verifier stops, naming the target and the timeout it waited
        Optional<Throwable> failure = first.awaitStop(Duration.ofSeconds(90));
        assertThat(failure).as("the verifier stopped on the target that stayed down").isPresent();
        assertThat(causes(failure.get()))
            .contains("target pg")
            .contains("could not be applied")
            .contains("within retry.timeout.ms=10000");
      } finally {
        first.close();
        if (!targetUp) {
          env.targetPostgres().start();
        }
      }

      // When the target is back and the verifier is started again, every change reaches the
      // target and a compare finds no difference
      try (RunningVerifier second = p.verifier("pg", true)) {
        ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), 2700);
        await().atMost(Duration.ofSeconds(60)).until(() -> sum(p, "n") == sourceSum(f, "n"));
        assertThat(new Cli().run("compare", "run", "-c", p.taskFile().toString(), "--wait"))
            .isZero();
      }
    }
  }

  @Test
  void aBrokerRestartedDuringACompareLeavesOneVerdictPerChunkAndExactlyTheRealDifferences(
      @TempDir Path dir) throws Exception {
    ComparePipeline p = pipeline(dir, "broker-restart");
    CaptureFixture f = p.source();
    CaptureFixture.Running capture = f.start("public.items");
    RunningVerifier verifier = p.verifier("pg", true);
    try {
      f.sql("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, 2000) g");
      ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), 2000);
      // Given two real differences on the target
      ComparePipeline.sql(
          p.pgServer(),
          p.pgDb(),
          "UPDATE items SET name = 'changed' WHERE id = 1500",
          "DELETE FROM items WHERE id = 1700");
      long brokerBefore = env.kafka().processes().get(0).pid();
      AtomicLong restartedAtChunk = new AtomicLong(-1);

      // When the broker is stopped and started while chunk 2 of 4 is open
      CompareRun run =
          new CompareRun(CompareConfig.load(p.taskFile()), false)
              .onChunkOpened(
                  (table, chunk) -> {
                    if (chunk == 2 && restartedAtChunk.compareAndSet(-1, chunk)) {
                      env.kafka().restart();
                    }
                  });
      CompareRun.Summary summary = run.run();

      // Then the restart really happened during the run, and the run completed
      assertThat(restartedAtChunk.get()).isEqualTo(2);
      assertThat(env.kafka().processes().get(0).pid()).isNotEqualTo(brokerBefore);
      assertThat(summary.complete()).isTrue();
      long chunks = summary.tables().get(0).chunks();
      String runId = summary.tables().get(0).runId();

      // the capture and the verifier that died with the broker are restarted, as a deployment does
      if (capture.run().isDone()) {
        capture.close();
        capture = f.start("public.items");
      }
      if (verifier.failure().isPresent()) {
        verifier.close();
        verifier = p.verifier("pg", true);
      }

      // every chunk gets one verdict per partition, and the differences are exactly the real two
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> verdicts(p.taskFile(), runId).size() == chunks * 3);
      List<ChunkResult> results = ComparePipeline.results(p.taskFile(), runId);
      java.util.Map<String, String> seen = new java.util.HashMap<>();
      Set<String> failed = new TreeSet<>();
      Set<String> missed = new TreeSet<>();
      Set<String> extra = new TreeSet<>();
      for (ChunkResult r : results) {
        String verdict = r.getChunk() + "/" + r.getTablePartition();
        String signature =
            r.getState() + " " + r.getFailedKeys() + r.getMissedKeys() + r.getExtraKeys();
        String earlier = seen.putIfAbsent(verdict, signature);
        assertThat(earlier).as("a repeated verdict of " + verdict).isIn(null, signature);
        if (earlier == null) {
          assertThat(r.getState()).as(verdict).isEqualTo(ChunkState.VERIFIED);
          failed.addAll(r.getFailedKeys());
          missed.addAll(r.getMissedKeys());
          extra.addAll(r.getExtraKeys());
        }
      }
      assertThat(failed).containsExactly("1500");
      assertThat(missed).containsExactly("1700");
      assertThat(extra).isEmpty();
    } finally {
      verifier.close();
      capture.close();
    }
  }

  private static Set<String> verdicts(Path taskFile, String runId) {
    Set<String> chunks = new HashSet<>();
    for (ChunkResult r : ComparePipeline.results(taskFile, runId)) {
      chunks.add(r.getChunk() + "/" + r.getTablePartition());
    }
    return chunks;
  }

  private static ComparePipeline pipeline(Path dir, String task) throws Exception {
    // a verifier started after one that died gets its partitions after the group's session
    // timeout (Kafka Streams does not leave the group on close): 6 s instead of the default 45 s
    return ComparePipeline.create(
        env,
        dir,
        task,
        Map.of("chunk", "500"),
        List.of("pg"),
        Map.of("streams.session.timeout.ms", "6000"));
  }

  private static String causes(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      s.append(c.getMessage()).append(" / ");
    }
    return s.toString();
  }

  private static long sum(ComparePipeline p, String column) throws Exception {
    try (var c = p.pgServer().connect(p.pgDb());
        var s = c.createStatement();
        var rs = s.executeQuery("SELECT coalesce(sum(" + column + "), 0) FROM items")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long sourceSum(CaptureFixture f, String column) throws Exception {
    return ((Number) f.rows("SELECT coalesce(sum(" + column + "), 0) FROM items").get(0)[0])
        .longValue();
  }
}
