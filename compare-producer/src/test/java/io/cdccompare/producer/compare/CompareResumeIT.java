package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A stopped compare task continues after its last closed chunk; a changed table restarts. */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompareResumeIT {
  private static final int ROWS = 20_000;
  private static final int CHUNKS = 20;

  private CaptureFixture source;
  private CompareFixture f;
  private CaptureFixture.Running capture;

  @BeforeAll
  void startCapture(EmbeddedEnvironment env) throws Exception {
    source = new CaptureFixture(env);
    f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE t (id int PRIMARY KEY, v text, w int)",
        "INSERT INTO t SELECT g, 'v' || g, g % 13 FROM generate_series(1, " + ROWS + ") g");
    capture = source.start(source.captureConfig("public.t"));
  }

  @AfterAll
  void stopCapture() throws Exception {
    capture.close();
  }

  private Map<String, String> task(String name) {
    Map<String, String> task = f.task(name, "public.t");
    task.put("chunk", Integer.toString(ROWS / CHUNKS));
    task.put("deep", "20");
    return task;
  }

  /** Runs a throttled task in the background and stops it once {@code chunks} are closed. */
  private CompareRun.Summary stopAfter(Map<String, String> task, int chunks) throws Exception {
    Map<String, String> slow = new java.util.HashMap<>(task);
    slow.put("throttle.chunk.time.ms", "150");
    CompareRun run = new CompareRun(CompareConfig.of(slow), false);
    CompletableFuture<CompareRun.Summary> done =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return run.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    String name = task.get("task.name");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                f.count(
                        "SELECT coalesce(sum(chunks_done), 0) FROM repi.comparetables WHERE task = '"
                            + name
                            + "'")
                    >= chunks);
    run.stop();
    return done.get();
  }

  @Test
  void stoppedTaskContinuesAfterItsLastClosedChunk() throws Exception {
    // Given a task stopped after a few chunks
    CompareRun.Summary first = stopAfter(task("resumed"), 3);
    assertThat(first.complete()).isFalse();
    long chunksBefore = first.tables().get(0).chunks();
    assertThat(chunksBefore).isBetween(3L, (long) CHUNKS - 1);

    // When it runs again
    CompareRun.Summary second = new CompareRun(CompareConfig.of(task("resumed")), false).run();

    // Then it is the same run, continued: every chunk once, every row once
    assertThat(second.resumed()).isTrue();
    assertThat(second.complete()).isTrue();
    assertThat(second.taskRunId()).isEqualTo(first.taskRunId());
    assertThat(second.tables().get(0).runId()).isEqualTo(first.tables().get(0).runId());
    assertThat(second.tables().get(0).chunks()).isEqualTo(CHUNKS);
    assertThat(second.tables().get(0).rows()).isEqualTo(ROWS);
    assertThat(second.tables().get(0).restarted()).isFalse();

    // And a run after a finished one is a new run from the first key
    CompareRun.Summary third = new CompareRun(CompareConfig.of(task("resumed")), false).run();
    assertThat(third.resumed()).isFalse();
    assertThat(third.taskRunId()).isNotEqualTo(first.taskRunId());
    assertThat(third.tables().get(0).rows()).isEqualTo(ROWS);
  }

  @Test
  void tableWhoseComparedColumnsChangedRestartsUnderANewRun() throws Exception {
    // Given a task stopped after a few chunks
    CompareRun.Summary first = stopAfter(task("reshaped"), 2);
    assertThat(first.complete()).isFalse();

    // When it runs again comparing fewer columns
    Map<String, String> fewer = task("reshaped");
    fewer.put("table.public.t.exclude", "w");
    CompareRun.Summary second = new CompareRun(CompareConfig.of(fewer), false).run();

    // Then the table restarted from its first key under a new run id
    assertThat(second.resumed()).isTrue();
    assertThat(second.tables().get(0).restarted()).isTrue();
    assertThat(second.tables().get(0).runId()).isNotEqualTo(first.tables().get(0).runId());
    assertThat(second.tables().get(0).chunks()).isEqualTo(CHUNKS);
    assertThat(second.tables().get(0).rows()).isEqualTo(ROWS);
  }

  @Test
  void aTaskRunsInOneProcessAtATime() throws Exception {
    // Given a task running slowly
    Map<String, String> slow = task("locked");
    slow.put("throttle.chunk.time.ms", "300");
    CompareRun running = new CompareRun(CompareConfig.of(slow), false);
    CompletableFuture<CompareRun.Summary> done =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return running.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> f.count("SELECT count(*) FROM repi.comparetables WHERE task = 'locked'") > 0);

    // When the same task is started again
    // Then it is refused while the first one runs
    assertThatThrownBy(() -> new CompareRun(CompareConfig.of(task("locked")), false).run())
        .hasMessageContaining("task locked is already running");
    running.stop();
    assertThat(done.get().complete()).isFalse();
  }

  @Test
  void aChunkWaitsForTransactionsOpenAtItsOpenAndStopsNamingOneThatStaysOpen() throws Exception {
    try (java.sql.Connection open = source.connect()) {
      // Given a source transaction that wrote and stays open (idle in transaction)
      open.setAutoCommit(false);
      try (java.sql.Statement s = open.createStatement()) {
        s.execute("UPDATE t SET w = w WHERE id = 1");
      }
      int pid = pid(open);

      // When a task runs that waits for it at most 1 s
      Map<String, String> task = task("waited");
      task.put(CompareConfig.READ_VISIBILITY_TIMEOUT_MS, "1000");
      CompareRun first = new CompareRun(CompareConfig.of(task), false);

      // Then it stops before reading chunk 0, naming the transaction, its session and the setting
      assertThatThrownBy(first::run)
          .hasMessageContaining("table public.t chunk 0")
          .hasMessageContaining("read.visibility.timeout.ms=1000")
          .hasMessageContaining("of pid " + pid)
          .hasMessageContaining("idle in transaction");
      assertThat(chunksDone("waited")).isZero();
      assertThat(
              f.count(
                  "SELECT count(*) FROM repi.validatetables WHERE task = 'waited'"
                      + " AND phase = 'OPEN' AND chunk = 0"))
          .as("chunk 0 stays OPEN")
          .isOne();

      // When it runs again without a bound and is asked to stop while it waits
      task.remove(CompareConfig.READ_VISIBILITY_TIMEOUT_MS);
      CompareRun second = new CompareRun(CompareConfig.of(task), false);
      String noted = openNoted("waited");
      CompletableFuture<CompareRun.Summary> stopped = runAsync(second);
      await().atMost(Duration.ofSeconds(30)).until(() -> !openNoted("waited").equals(noted));
      second.stop();

      // Then it stops without reading the chunk
      assertThat(stopped.get().complete()).isFalse();
      assertThat(chunksDone("waited")).isZero();

      // When it runs again and the transaction commits while it waits
      CompareRun third = new CompareRun(CompareConfig.of(task), false);
      String again = openNoted("waited");
      CompletableFuture<CompareRun.Summary> done = runAsync(third);
      await().atMost(Duration.ofSeconds(30)).until(() -> !openNoted("waited").equals(again));
      open.commit();

      // Then it resumes the same run at chunk 0 and compares every row
      CompareRun.Summary summary = done.get();
      assertThat(summary.complete()).isTrue();
      assertThat(summary.resumed()).isTrue();
      assertThat(summary.tables().get(0).rows()).isEqualTo(ROWS);
      assertThat(summary.tables().get(0).chunks()).isEqualTo(CHUNKS);
    }
  }

  private static CompletableFuture<CompareRun.Summary> runAsync(CompareRun run) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return run.run();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** When chunk 0's OPEN note of the task was last written (the run then reads or waits). */
  private String openNoted(String task) throws Exception {
    return source
        .rows(
            "SELECT noted_at::text FROM repi.validatetables WHERE task = '"
                + task
                + "' AND phase = 'OPEN' AND chunk = 0")
        .get(0)[0]
        .toString();
  }

  private long chunksDone(String task) throws Exception {
    return f.count(
        "SELECT coalesce(sum(chunks_done), 0) FROM repi.comparetables WHERE task = '" + task + "'");
  }

  private static int pid(java.sql.Connection c) throws Exception {
    try (java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
