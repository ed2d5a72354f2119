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
}
