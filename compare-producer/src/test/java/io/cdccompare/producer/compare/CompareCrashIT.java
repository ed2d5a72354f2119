package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.producer.compare.CompareFixture.MarkerAt;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.source.Failpoint;
import io.cdccompare.source.TopicLayout;
import io.cdccompare.testsupport.ChildJvm;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A compare task dies mid-run in a JVM of its own — killed with {@code kill -9}, or halted after a
 * chunk's hash records were acknowledged and before its CLOSE note — and is started again with the
 * same task file: the rerun continues after the last closed chunk, and its chunk results (key
 * ranges, row counts, compared keys and their hashes) are those of an uninterrupted run of the same
 * table, every chunk closed exactly once.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
class CompareCrashIT {
  private static final TableName TABLE = new TableName("public", "orders");
  private static final int ROWS = 39_000;
  private static final int CHUNK = 2_000;
  private static final int DEEP = 50;

  /** 19 chunks of 2 000 rows and a last one of 1 000. */
  private static final int CHUNKS = 20;

  private static final int PARTITIONS = 3;

  @Test
  void killedRunResumesToTheChunkResultsOfAnUninterruptedRun(EmbeddedEnvironment env)
      throws Exception {
    // Given the chunk results of an uninterrupted run, and the same task in a child JVM that takes
    // at least 200 ms a chunk
    CompareFixture f = loadedSource(env);
    Path dir = Files.createDirectories(Path.of("target", "compare-crash-" + f.capture.prefix));
    try (CaptureFixture.Running capture =
        f.capture.start(f.capture.captureConfig(TABLE.toString()))) {
      Map<Long, ChunkResult> reference = referenceRun(f);
      Map<String, String> task = task(f, "killed");
      task.put(CompareConfig.CHUNK_TIME_MS, "200");
      Path config = writeTask(dir, task);
      Path log = dir.resolve("killed.log");
      Process child = startChild(config, log, null);

      // When it is killed with SIGKILL once 4 chunks are closed
      await().atMost(Duration.ofSeconds(120)).until(() -> chunksDone(f, "killed", child, log) >= 4);
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the killed JVM is gone").isTrue();
      Crash crash = crashState(f, "killed");

      // Then it really died mid-task: by the signal, its table RUNNING with chunks left, the note
      // and the position of the last closed chunk committed together
      assertThat(child.exitValue()).as("exit status after SIGKILL").isEqualTo(137);
      assertThat(crash.state()).isEqualTo("RUNNING");
      assertThat(crash.chunksDone()).isBetween(4L, CHUNKS - 1L);
      assertNoteOfARunningTask(crash);

      // And started again with the same file, it resumes and ends as the uninterrupted run did
      CompareRun.Summary rerun = new CompareRun(CompareConfig.load(config), false).run();
      assertResumed(rerun, crash);
      assertSameChunkResults(f, "killed", crash, reference);
    }
  }

  @Test
  void runHaltedBeforeAChunksCloseResumesToTheChunkResultsOfAnUninterruptedRun(
      EmbeddedEnvironment env) throws Exception {
    // Given the chunk results of an uninterrupted run, and the same task in a child JVM
    CompareFixture f = loadedSource(env);
    Path dir = Files.createDirectories(Path.of("target", "compare-crash-" + f.capture.prefix));
    try (CaptureFixture.Running capture =
        f.capture.start(f.capture.captureConfig(TABLE.toString()))) {
      Map<Long, ChunkResult> reference = referenceRun(f);
      Path config = writeTask(dir, task(f, "halted"));
      Path log = dir.resolve("halted.log");

      // When it halts after the hash records of its 3rd chunk (chunk 2) were acknowledged, before
      // the chunk's CLOSE note
      Process child = startChild(config, log, Failpoint.COMPARE_HASHES_WRITTEN + "@3");
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child halted").isTrue();
      Crash crash = crashState(f, "halted");

      // Then it really halted there: 2 closed chunks, chunk 2's hash records written
      assertThat(child.exitValue()).as("exit status; see %s", log).isEqualTo(Failpoint.HALT_STATUS);
      assertThat(Files.readString(log)).contains("FAILPOINT " + Failpoint.COMPARE_HASHES_WRITTEN);
      assertThat(crash.state()).isEqualTo("RUNNING");
      assertThat(crash.chunksDone()).isEqualTo(2);
      assertNoteOfARunningTask(crash);
      List<String> orphans = hashRecordsOf(f, "halted", crash.runId(), 2);
      assertThat(orphans).as("chunk 2's unclosed hash records").hasSize(PARTITIONS);

      // And started again with the same file, it resumes and ends as the uninterrupted run did
      CompareRun.Summary rerun = new CompareRun(CompareConfig.load(config), false).run();
      assertResumed(rerun, crash);
      assertSameChunkResults(f, "halted", crash, reference);
      Marker close = CompareFixture.closes(f.markers(topic(f), "halted")).get(2L);
      assertThat(close.getHashRecords())
          .extracting(l -> l.getHashesPartition() + "@" + l.getOffset())
          .as("chunk 2 closes over the hash records of its second read")
          .hasSize(PARTITIONS)
          .doesNotContainAnyElementsOf(orphans);
    }
  }

  /** What a run found in one chunk, whatever run it was: key range, counts, compared row hashes. */
  private record ChunkResult(
      long chunk,
      String firstComparedKey,
      String lastKey,
      Long chunkRows,
      Long comparedRows,
      Map<String, String> hashes) {}

  /** How a dead run left its table: the position and the last note. */
  private record Crash(
      String taskRunId,
      String runId,
      String state,
      long chunksDone,
      String notePhase,
      long noteChunk) {}

  private static CompareFixture loadedSource(EmbeddedEnvironment env) throws Exception {
    // loaded before the capture starts, so the capture does not stream the load
    CaptureFixture source = new CaptureFixture(env);
    source.sql(
        "CREATE TABLE orders (region int, code text, qty int NOT NULL, note text NOT NULL,"
            + " PRIMARY KEY (region, code))",
        "INSERT INTO orders SELECT g % 7, 'c' || lpad(g::text, 6, '0'), g, 'n' || (g * 31 % 1000)"
            + " FROM generate_series(1, "
            + ROWS
            + ") g");
    return new CompareFixture(source);
  }

  private static Map<String, String> task(CompareFixture f, String name) {
    Map<String, String> task = f.task(name, TABLE.toString());
    task.put(CompareConfig.CHUNK, Integer.toString(CHUNK));
    task.put(CompareConfig.DEEP, Integer.toString(DEEP));
    return task;
  }

  private static Path writeTask(Path dir, Map<String, String> task) throws Exception {
    Path file = dir.resolve(task.get(CompareConfig.TASK_NAME) + ".properties");
    Properties properties = new Properties();
    properties.putAll(task);
    try (Writer out = Files.newBufferedWriter(file)) {
      properties.store(out, "compare task of " + CompareCrashIT.class.getSimpleName());
    }
    return file;
  }

  /** Runs the task "reference" in this JVM, to its end, and returns its chunk results. */
  private static Map<Long, ChunkResult> referenceRun(CompareFixture f) throws Exception {
    CompareRun.Summary summary =
        new CompareRun(CompareConfig.of(task(f, "reference")), false).run();
    assertThat(summary.complete()).isTrue();
    assertThat(summary.resumed()).isFalse();
    assertThat(summary.tables().get(0).chunks()).isEqualTo(CHUNKS);
    List<MarkerAt> markers = awaitLastClose(f, "reference");
    for (int p = 0; p < PARTITIONS; p++) {
      assertThat(CompareFixture.checkNotes(markers, p, CHUNKS))
          .as("OPENs per chunk in partition %d", p)
          .hasSize(CHUNKS)
          .allSatisfy((chunk, opens) -> assertThat(opens).isEqualTo(1));
    }
    Map<Long, ChunkResult> results = results(f, markers);
    assertThat(results).hasSize(CHUNKS);
    assertThat(results.values())
        .allSatisfy(
            r -> {
              assertThat(r.comparedRows()).isEqualTo(r.chunk() < CHUNKS - 1 ? 1_000L : 500L);
              assertThat(r.hashes()).hasSize(r.comparedRows().intValue());
            });
    return results;
  }

  private static Process startChild(Path config, Path log, String failpoint) throws Exception {
    return ChildJvm.of(CompareProcess.class)
        .logback("logback-compare-child.xml")
        .failpoint(failpoint)
        .start(log, config.toString());
  }

  /** Closed chunks of a task running in {@code child}; fails at once if the child ended. */
  private static long chunksDone(CompareFixture f, String task, Process child, Path log)
      throws Exception {
    if (!child.isAlive()) {
      throw new AssertionError(
          "the child ended by itself with status "
              + child.exitValue()
              + " before it could be killed; see "
              + log);
    }
    try (Connection c = f.capture.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT chunks_done FROM repi.comparetables WHERE task = ?")) {
      s.setString(1, task);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /**
   * The position and note a dead run left, read once its database sessions are gone (so every
   * commit it sent is settled and its task lock released).
   */
  private static Crash crashState(CompareFixture f, String task) throws Exception {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                f.count(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                            + " AND application_name IN ('cdc-compare-task-"
                            + task
                            + "', 'cdc-compare-scan-"
                            + task
                            + "', 'cdc-compare-notes-"
                            + task
                            + "', 'cdc-compare-positions-"
                            + task
                            + "', 'cdc-compare-lock-"
                            + task
                            + "')")
                    == 0);
    try (Connection c = f.capture.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT p.task_run_id, p.run_id, p.state, p.chunks_done, v.phase, v.chunk"
                    + " FROM repi.comparetables p JOIN repi.validatetables v"
                    + " USING (task, table_schema, table_name) WHERE p.task = ?")) {
      s.setString(1, task);
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).as("position and note of task %s", task).isTrue();
        return new Crash(
            rs.getString(1),
            rs.getString(2),
            rs.getString(3),
            rs.getLong(4),
            rs.getString(5),
            rs.getLong(6));
      }
    }
  }

  private static void assertResumed(CompareRun.Summary rerun, Crash crash) {
    assertThat(rerun.complete()).isTrue();
    assertThat(rerun.resumed()).as("resumed, not started over").isTrue();
    assertThat(rerun.taskRunId()).isEqualTo(crash.taskRunId());
    CompareRun.TableDone table = rerun.tables().get(0);
    assertThat(table.restarted()).isFalse();
    assertThat(table.runId()).isEqualTo(crash.runId());
    assertThat(table.chunks()).isEqualTo(CHUNKS);
    assertThat(table.rows()).as("rows of the re-read chunk counted once").isEqualTo(ROWS);
  }

  /**
   * The note row of a task stopped after {@code chunksDone} closed chunks: the last CLOSE, or the
   * OPEN of the first unclosed chunk, or the OPEN of the one after it (read while the first
   * closed).
   */
  private static void assertNoteOfARunningTask(Crash crash) {
    assertThat(crash.notePhase() + " " + crash.noteChunk())
        .as("note after %d closed chunks", crash.chunksDone())
        .isIn(
            "CLOSE " + (crash.chunksDone() - 1),
            "OPEN " + crash.chunksDone(),
            "OPEN " + (crash.chunksDone() + 1));
  }

  /**
   * The crashed task's notes follow the note protocol in every partition, with every chunk closed
   * exactly once and opened once — but for the chunks open at the crash (the first unclosed one and
   * the one after it), which the rerun opened again — and its chunk results equal the reference
   * run's.
   */
  private static void assertSameChunkResults(
      CompareFixture f, String task, Crash crash, Map<Long, ChunkResult> reference) {
    List<MarkerAt> markers = awaitLastClose(f, task);
    for (int p = 0; p < PARTITIONS; p++) {
      int partition = p;
      Map<Long, Integer> opens = CompareFixture.checkNotes(markers, p, CHUNKS);
      assertThat(opens).as("chunks opened in partition %d", p).hasSize(CHUNKS);
      opens.forEach(
          (chunk, times) ->
              assertThat(times)
                  .as("OPENs of chunk %d in partition %d", chunk, partition)
                  .isBetween(
                      1, chunk == crash.chunksDone() || chunk == crash.chunksDone() + 1 ? 2 : 1));
    }
    assertThat(markers).extracting(m -> m.marker().getRunId()).containsOnly(crash.runId());
    Map<Long, ChunkResult> results = results(f, markers);
    assertThat(results.keySet()).isEqualTo(reference.keySet()).hasSize(CHUNKS);
    for (long chunk : reference.keySet()) {
      assertThat(results.get(chunk)).as("chunk %d", chunk).isEqualTo(reference.get(chunk));
    }
  }

  /** A task's markers once every partition holds the CLOSE of its last chunk. */
  private static List<MarkerAt> awaitLastClose(CompareFixture f, String task) {
    String topic = topic(f);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                f.markers(topic, task).stream()
                        .filter(m -> m.marker().getPhase() == MarkerPhase.CLOSE)
                        .filter(m -> m.marker().getChunk() == CHUNKS - 1)
                        .count()
                    == PARTITIONS);
    return f.markers(topic, task);
  }

  private static Map<Long, ChunkResult> results(CompareFixture f, List<MarkerAt> markers) {
    Map<Long, ChunkResult> results = new TreeMap<>();
    CompareFixture.closes(markers)
        .forEach(
            (chunk, close) ->
                results.put(
                    chunk,
                    new ChunkResult(
                        chunk,
                        close.getFirstComparedKey(),
                        close.getLastKey(),
                        close.getChunkRows(),
                        close.getComparedRows(),
                        f.pairs(close))));
    return results;
  }

  /** Where the hash records of a task's chunk are on the hashes topic, as partition@offset. */
  private static List<String> hashRecordsOf(
      CompareFixture f, String task, String runId, long chunk) {
    String hashesTopic = CompareConfig.of(task(f, task)).hashesTopic();
    String prefix = task + "/" + runId + "/" + TABLE + "/" + chunk + "/";
    List<String> found = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : f.capture.readAll(hashesTopic)) {
      String key = CaptureFixture.key(r);
      if (key != null && key.startsWith(prefix)) {
        found.add(r.partition() + "@" + r.offset());
      }
    }
    return found;
  }

  private static String topic(CompareFixture f) {
    return TopicLayout.topicName(f.capture.prefix, TABLE);
  }
}
