package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.operations.compare.TaskReportReader;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.RowCounts;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 19's faults pinned at a moment of a full compare on the whole pipeline (a capture, a
 * PostgreSQL target {@code pg} and its verifier), where the soak only meets them at random: the
 * source restarted while a chunk is open, the broker frozen (up but unreachable) while a chunk is
 * open, and the process hosting the report aggregation killed while verdicts flow. Each shows the
 * fault happened, then that the run completed, every chunk × partition has one verdict, exactly the
 * two injected differences are reported and nothing is lost. Its own environment: it restarts and
 * freezes servers, which the shared one never does.
 */
class CompareFaultsIT {
  private static final Logger LOG = LoggerFactory.getLogger(CompareFaultsIT.class);
  private static final int PARTITIONS = 3;

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
  void theSourceRestartedWhileAChunkIsOpenFailsTheRunWhichResumesUnderItsRunIdLosingNothing(
      @TempDir Path dir) throws Exception {
    ComparePipeline p = pipeline(dir, "source-restart", 500);
    CaptureFixture f = p.source();
    CaptureFixture.Running capture = f.start("public.items");
    RunningVerifier verifier = p.verifier("pg", true);
    try {
      loadWithTwoDifferences(p);
      long sourceBefore = env.sourcePostgres().processes().get(0).pid();
      AtomicLong restartedAtChunk = new AtomicLong(-1);

      // When the source restarts while chunk 2 is open (its OPEN committed, its rows not read)
      CompareConfig config = CompareConfig.load(p.taskFile());
      CompareRun first =
          new CompareRun(config, false)
              .onChunkOpened(
                  (table, chunk) -> {
                    if (chunk == 2 && restartedAtChunk.compareAndSet(-1, chunk)) {
                      env.sourcePostgres().restart();
                    }
                  });
      Throwable failure = catchThrowable(first::run);

      // Then the source is another process, and the run failed naming the broken connection
      assertThat(restartedAtChunk.get()).isEqualTo(2);
      assertThat(env.sourcePostgres().processes().get(0).pid()).isNotEqualTo(sourceBefore);
      LOG.info("compare run failed on the source restart: {}", causes(failure));
      assertThat(failure)
          .as("the run that lost its source connection")
          .isInstanceOf(SQLException.class)
          .hasMessageStartingWith(
              "task "
                  + config.taskName()
                  + ": lost the connection to the source database "
                  + f.database
                  + " at ")
          .hasMessageContaining("run the task again: it resumes run ");
      // and the capture exited on its terminated replication connection
      CaptureFixture.Running stopped = capture;
      await("the capture exits on the source restart")
          .atMost(Duration.ofSeconds(60))
          .until(() -> stopped.run().isDone());
      assertThat(capture.capture().failure()).as("why the capture exited").isPresent();
      closeQuietly(capture);

      // When the source keeps changing while the capture is down, the capture is restarted (as a
      // deployment does) and the run is started again
      f.sql(
          "UPDATE items SET n = n + 1 WHERE id <= 300",
          "INSERT INTO items SELECT g, 'late ' || g, g FROM generate_series(2001, 2100) g");
      capture = f.start("public.items");
      if (verifier.failure().isPresent()) {
        verifier.close();
        verifier = p.verifier("pg", true);
      }
      CompareRun.Summary summary = new CompareRun(config, false).run();

      // Then it resumed the stopped run under its run id and completed it
      assertThat(summary.resumed()).as("the second run resumes the first").isTrue();
      assertThat(summary.complete()).isTrue();
      String runId = summary.tables().get(0).runId();
      assertThat(failure).hasMessageContaining("resumes run " + runId + " after");
      assertThat(runIdsOfTask(p)).containsExactly(runId);
      oneVerdictPerChunkAndExactlyTheTwoDifferences(p, runId, summary.tables().get(0).chunks());
      targetEqualsSource(p);
    } finally {
      verifier.close();
      closeQuietly(capture);
    }
  }

  @Test
  void theBrokerFrozenWhileAChunkIsOpenLeavesOneVerdictPerChunkAndExactlyTheRealDifferences(
      @TempDir Path dir) throws Exception {
    ComparePipeline p = pipeline(dir, "broker-frozen", 500);
    CaptureFixture f = p.source();
    CaptureFixture.Running capture = f.start("public.items");
    RunningVerifier verifier = p.verifier("pg", true);
    try {
      loadWithTwoDifferences(p);
      long brokerBefore = env.kafka().processes().get(0).pid();
      AtomicLong frozenAtChunk = new AtomicLong(-1);
      CompletableFuture<Throwable> outage = new CompletableFuture<>();

      // When the broker is frozen (SIGSTOP) while chunk 2 is open, and thawed once a request to it
      // timed out after 5 s; the run goes on meanwhile (it reads the chunk, writes its hashes)
      CompareRun run =
          new CompareRun(CompareConfig.load(p.taskFile()), false)
              .onChunkOpened(
                  (table, chunk) -> {
                    if (chunk == 2 && frozenAtChunk.compareAndSet(-1, chunk)) {
                      env.kafka().pause();
                      CompletableFuture.runAsync(
                          () -> {
                            try {
                              outage.complete(requestToTheBroker(Duration.ofSeconds(5)));
                            } finally {
                              env.kafka().resume();
                            }
                          });
                    }
                  });
      CompareRun.Summary summary = run.run();

      // Then the broker was really unreachable during the run (a request to it timed out), it is
      // the same process (frozen, not restarted), and the run completed
      assertThat(frozenAtChunk.get()).isEqualTo(2);
      assertThat(outage.get(60, TimeUnit.SECONDS))
          .as("a request to the frozen broker")
          .isInstanceOf(TimeoutException.class);
      assertThat(env.kafka().processes().get(0).pid()).isEqualTo(brokerBefore);
      assertThat(summary.complete()).isTrue();
      String runId = summary.tables().get(0).runId();

      // the capture and the verifier, if the outage stopped them, are restarted as a deployment
      // does
      if (capture.run().isDone()) {
        LOG.info("the capture stopped on the outage: {}", capture.capture().failure());
        closeQuietly(capture);
        capture = f.start("public.items");
      }
      if (verifier.failure().isPresent()) {
        LOG.info("the verifier stopped on the outage: {}", verifier.failure());
        verifier.close();
        verifier = p.verifier("pg", true);
      }
      // and the source changes after the outage reach the target too
      f.sql("UPDATE items SET n = n + 1 WHERE id <= 300");
      oneVerdictPerChunkAndExactlyTheTwoDifferences(p, runId, summary.tables().get(0).chunks());
      targetEqualsSource(p);
    } finally {
      env.kafka().resume(); // whatever failed, the next test gets a broker that answers
      verifier.close();
      closeQuietly(capture);
    }
  }

  @Test
  void theReportAggregationKilledWhileVerdictsFlowCountsEveryVerdictOnce(@TempDir Path dir)
      throws Exception {
    ComparePipeline p = pipeline(dir, "report-kill", 200);
    CaptureFixture f = p.source();
    Path logs = Files.createDirectories(Path.of("target", "compare-faults", f.prefix));
    List<Process> started = new ArrayList<>();
    try (CaptureFixture.Running capture = f.start("public.items")) {
      // Given the verifier of pg, with the report aggregation beside it (the default), in a JVM of
      // its own as `cdc-compare verify` runs it: the only process that aggregates the report
      started.add(verifierProcess(p, logs.resolve("verify-1.log")));
      loadWithTwoDifferences(p);
      CompareConfig config = CompareConfig.load(p.taskFile());
      AtomicLong killedAtChunk = new AtomicLong(-1);
      List<ReportEntry> atKill = new ArrayList<>();

      // When, while chunk 6 is open, once the report counts verdicts of 2 chunks, that process is
      // killed (SIGKILL) and a new one started
      CompareRun run =
          new CompareRun(config, false)
              .onChunkOpened(
                  (table, chunk) -> {
                    if (chunk == 6 && killedAtChunk.compareAndSet(-1, chunk)) {
                      await("the report counts verdicts of 2 chunks")
                          .atMost(Duration.ofSeconds(90))
                          .until(() -> applyChunks(tableEntry(config)) >= 2);
                      atKill.add(tableEntry(config).orElseThrow());
                      Process first = started.get(0);
                      first.destroyForcibly();
                      assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
                      started.add(verifierProcess(p, logs.resolve("verify-2.log")));
                    }
                  });
      CompareRun.Summary summary = run.run();

      // Then that process died by the kill while the report counted part of the run
      assertThat(killedAtChunk.get()).isEqualTo(6);
      assertThat(started.get(0).isAlive()).isFalse();
      assertThat(started.get(0).exitValue()).as("SIGKILL's exit code").isEqualTo(137);
      assertThat(summary.complete()).isTrue();
      long chunks = summary.tables().get(0).chunks();
      String runId = summary.tables().get(0).runId();
      assertThat(atKill.get(0).getRunId()).isEqualTo(runId);
      assertThat(atKill.get(0).getApplyChunks()).isBetween(2L, chunks - 1);

      // And every chunk × partition got one verdict, exactly the two differences
      oneVerdictPerChunkAndExactlyTheTwoDifferences(p, runId, chunks);
      List<ChunkResult> results = ComparePipeline.results(p.taskFile(), runId);
      Map<String, ChunkResult> verdicts = firstVerdicts(results);
      LOG.info(
          "report kill: chunks={} verdicts={} result_records={} (repeated {}), report at kill={}",
          chunks,
          verdicts.size(),
          results.size(),
          results.size() - verdicts.size(),
          atKill.get(0));

      // And the report counts every chunk once, its totals those of the results topic's verdicts
      await("the report counts all " + chunks + " chunks")
          .atMost(Duration.ofSeconds(90))
          .until(() -> applyChunks(tableEntry(config)) >= chunks);
      ReportEntry table = tableEntry(config).orElseThrow();
      assertThat(table.getRunId()).isEqualTo(runId);
      assertThat(table.getApplyChunks()).as("chunks counted on pg").isEqualTo(chunks);
      assertThat(table.getCaptureChunks()).as("chunks noted").isEqualTo(chunks);
      assertThat(table.getUnverifiableChunks()).isZero();
      RowCounts expected = sum(verdicts.values());
      assertThat(table.getCounts()).as("the report's totals").isEqualTo(expected);
      assertThat(expected.getFailed()).isEqualTo(1);
      assertThat(expected.getMissed()).isEqualTo(1);
      assertThat(expected.getExtra()).isZero();
      assertThat(table.getStatus()).hasToString("DIFFERENCES");
      ReportEntry task = taskEntry(config).orElseThrow();
      assertThat(task.getApplyChunks()).isEqualTo(chunks);
      assertThat(task.getCounts()).as("the task's totals").isEqualTo(expected);
      targetEqualsSource(p);
    } finally {
      started.forEach(Process::destroyForcibly);
    }
  }

  // -- helpers

  private static ComparePipeline pipeline(Path dir, String task, int chunk) throws Exception {
    // a verifier started after one that died gets its partitions after the group's session
    // timeout: 6 s instead of the default 45 s
    return ComparePipeline.create(
        env,
        dir,
        task,
        Map.of("chunk", Integer.toString(chunk)),
        List.of("pg"),
        Map.of("streams.session.timeout.ms", "6000"));
  }

  /** 2 000 rows replicated to pg, then two real differences made on pg: 1500 changed, 1700 gone. */
  private static void loadWithTwoDifferences(ComparePipeline p) throws Exception {
    p.source().sql("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, 2000) g");
    ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), 2000);
    ComparePipeline.sql(
        p.pgServer(),
        p.pgDb(),
        "UPDATE items SET name = 'changed' WHERE id = 1500",
        "DELETE FROM items WHERE id = 1700");
  }

  /**
   * Every chunk × partition of the run gets a verdict, a repeated one is identical, each is
   * VERIFIED, and the differences are exactly the two made on the target.
   */
  private static void oneVerdictPerChunkAndExactlyTheTwoDifferences(
      ComparePipeline p, String runId, long chunks) {
    await("a verdict of each of the " + chunks + " chunks × " + PARTITIONS + " partitions")
        .atMost(Duration.ofSeconds(120))
        .until(
            () -> firstVerdicts(ComparePipeline.results(p.taskFile(), runId)).size(),
            n -> n == chunks * PARTITIONS);
    Map<String, ChunkResult> verdicts = firstVerdicts(ComparePipeline.results(p.taskFile(), runId));
    assertThat(verdicts.keySet().stream().map(v -> Long.parseLong(v.split("/")[0])))
        .as("chunks with a verdict")
        .allMatch(c -> c >= 0 && c < chunks);
    Set<String> failed = new TreeSet<>();
    Set<String> missed = new TreeSet<>();
    Set<String> extra = new TreeSet<>();
    verdicts.forEach(
        (verdict, r) -> {
          assertThat(r.getState()).as(verdict + ": " + r.getError()).isEqualTo(ChunkState.VERIFIED);
          failed.addAll(r.getFailedKeys());
          missed.addAll(r.getMissedKeys());
          extra.addAll(r.getExtraKeys());
        });
    assertThat(failed).containsExactly("1500");
    assertThat(missed).containsExactly("1700");
    assertThat(extra).isEmpty();
  }

  /**
   * The first verdict of each chunk/partition; a verdict published again (a replayed CLOSE marker)
   * must be the same verdict.
   */
  private static Map<String, ChunkResult> firstVerdicts(List<ChunkResult> results) {
    Map<String, ChunkResult> first = new HashMap<>();
    for (ChunkResult r : results) {
      String verdict = r.getChunk() + "/" + r.getTablePartition();
      ChunkResult earlier = first.putIfAbsent(verdict, r);
      if (earlier != null) {
        assertThat(signature(r))
            .as("a repeated verdict of " + verdict)
            .isEqualTo(signature(earlier));
      }
    }
    return first;
  }

  private static String signature(ChunkResult r) {
    return r.getState()
        + " "
        + r.getCounts()
        + r.getFailedKeys()
        + r.getMissedKeys()
        + r.getExtraKeys()
        + r.getInFlightKeys();
  }

  private static Set<String> runIdsOfTask(ComparePipeline p) {
    return TaskReportReader.of(CompareConfig.load(p.taskFile())).results(r -> true).stream()
        .map(ChunkResult::getRunId)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** Nothing committed on the source is lost: pg holds its rows, but for the two differences. */
  private static void targetEqualsSource(ComparePipeline p) {
    String rows = "SELECT id, name, n FROM items WHERE id NOT IN (1500, 1700) ORDER BY id";
    await("the target equals the source outside the two differences")
        .atMost(Duration.ofSeconds(120))
        .ignoreExceptions()
        .until(() -> rowsOf(p.source().rows(rows)).equals(targetRows(p, rows)));
  }

  private static List<String> targetRows(ComparePipeline p, String query) throws Exception {
    List<Object[]> out = new ArrayList<>();
    try (var c = p.pgServer().connect(p.pgDb());
        var s = c.createStatement();
        var rs = s.executeQuery(query)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Object[] row = new Object[columns];
        for (int i = 0; i < columns; i++) {
          row[i] = rs.getObject(i + 1);
        }
        out.add(row);
      }
    }
    return rowsOf(out);
  }

  private static List<String> rowsOf(List<Object[]> rows) {
    return rows.stream().map(java.util.Arrays::toString).toList();
  }

  /** What a request to the broker ended with: null when answered, else the failure's cause. */
  private static Throwable requestToTheBroker(Duration timeout) {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()))) {
      admin
          .describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
          .nodes()
          .get();
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e;
    }
  }

  /**
   * {@code cdc-compare verify -c <targets> -t pg} from the shaded jar in a JVM of its own, its
   * output in {@code log}.
   */
  private static Process verifierProcess(ComparePipeline p, Path log) throws IOException {
    Path jar = Path.of("target", "cdc-compare.jar").toAbsolutePath();
    assertThat(jar).exists();
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-jar",
            jar.toString(),
            "verify",
            "-c",
            p.targetsFile().toString(),
            "-t",
            "pg");
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .redirectInput(new File("/dev/null"))
        .start();
  }

  /** The report's entry of the task's table on pg, if there is one yet. */
  private static Optional<ReportEntry> tableEntry(CompareConfig config) {
    return entry(config, "public.items");
  }

  /** The report's entry of the whole task on pg. */
  private static Optional<ReportEntry> taskEntry(CompareConfig config) {
    return entry(config, null);
  }

  private static Optional<ReportEntry> entry(CompareConfig config, String table) {
    return TaskReportReader.of(config).entries().stream()
        .filter(
            e ->
                e.getTask().equals(config.taskName())
                    && e.getTarget().equals("pg")
                    && java.util.Objects.equals(e.getTable(), table))
        .findFirst();
  }

  private static long applyChunks(Optional<ReportEntry> entry) {
    return entry.map(ReportEntry::getApplyChunks).orElse(0L);
  }

  private static RowCounts sum(Iterable<ChunkResult> verdicts) {
    RowCounts total = new RowCounts(0L, 0L, 0L, 0L, 0L);
    for (ChunkResult r : verdicts) {
      RowCounts c = r.getCounts();
      total.setMatched(total.getMatched() + c.getMatched());
      total.setFailed(total.getFailed() + c.getFailed());
      total.setMissed(total.getMissed() + c.getMissed());
      total.setExtra(total.getExtra() + c.getExtra());
      total.setInFlight(total.getInFlight() + c.getInFlight());
    }
    return total;
  }

  private static void closeQuietly(CaptureFixture.Running capture) {
    try {
      capture.close();
    } catch (Exception e) {
      LOG.info("capture ended with {}", e.toString());
    }
  }

  private static String causes(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      s.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append(" / ");
    }
    return s.toString();
  }
}
