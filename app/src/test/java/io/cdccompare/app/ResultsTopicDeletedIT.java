package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.operations.compare.TaskReportReader;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 19's "the results topic deleted while verifiers run", on the whole pipeline (a capture, a
 * full compare run of 4 chunks under a live load, a PostgreSQL target {@code pg} and its verifier
 * with the report aggregation): the topic is deleted while chunk 2 is open. The verifier creates it
 * again, naming it in an error line, goes on without stopping, and no verdict is lost.
 */
class ResultsTopicDeletedIT {
  private static final String CHANGED_ON_TARGET = "1500";

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
  void theResultsTopicDeletedWhileAVerifierRunsIsCreatedAgainNamingItAndNoVerdictIsLost(
      @TempDir Path dir) throws Exception {
    ComparePipeline p =
        ComparePipeline.create(
            env,
            dir,
            "results-deleted",
            Map.of("chunk", "500"),
            List.of("pg"),
            Map.of("streams.session.timeout.ms", "6000"));
    CaptureFixture f = p.source();
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    Logger watchLog =
        (Logger) LoggerFactory.getLogger("io.cdccompare.operations.run.ResultsTopicWatch");
    log.start();
    watchLog.addAppender(log);
    try (CaptureFixture.Running capture = f.start("public.items");
        Admin admin =
            Admin.create(
                Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()));
        LiveLoad load = new LiveLoad(f, 2000, CHANGED_ON_TARGET)) {
      RunningVerifier first = p.verifier("pg", true);
      String topic = first.settings().tables().resultsTopic();
      Uuid before = topicId(admin, topic);
      CompareRun.Summary summary;
      Set<String> verdictsBefore = new HashSet<>();
      AtomicLong loadAtDelete = new AtomicLong(-1);
      AtomicReference<Exception> deleteFailure = new AtomicReference<>();
      try {
        f.sql("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, 2000) g");
        ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), 2000);
        ComparePipeline.sql(
            p.pgServer(),
            p.pgDb(),
            "UPDATE items SET name = 'changed' WHERE id = " + CHANGED_ON_TARGET);

        // When the results topic is deleted while chunk 2 is open, under the live load
        summary =
            new CompareRun(CompareConfig.load(p.taskFile()), false)
                .onChunkOpened(
                    (table, chunk) -> {
                      if (chunk != 2 || loadAtDelete.get() >= 0) {
                        return;
                      }
                      try {
                        // the verdicts the deleted topic will take with it, all of chunks 0 and 1
                        // and none of chunk 2 (it is open: its CLOSE note is not written yet),
                        // and the report counting both chunks
                        await()
                            .atMost(Duration.ofSeconds(90))
                            .until(
                                () -> {
                                  verdictsBefore.clear();
                                  TaskReportReader.of(CompareConfig.load(p.taskFile()))
                                      .results(r -> true)
                                      .stream()
                                      .map(ResultsTopicDeletedIT::verdict)
                                      .forEach(verdictsBefore::add);
                                  return verdictsBefore.equals(
                                          Set.of("0/0", "0/1", "0/2", "1/0", "1/1", "1/2"))
                                      && reportEntries(p, table.toString()).stream()
                                          .anyMatch(e -> e.getApplyChunks() == 2);
                                });
                        admin.deleteTopics(List.of(topic)).all().get();
                        loadAtDelete.set(load.done());
                      } catch (Exception e) {
                        deleteFailure.set(e);
                      }
                    })
                .run();
        assertThat(deleteFailure.get()).as("the deletion").isNull();
        assertThat(loadAtDelete.get()).as("deleted while chunk 2 was open").isGreaterThan(0);
        assertThat(summary.complete()).isTrue();
        String runId = summary.tables().get(0).runId();
        long chunks = summary.tables().get(0).chunks();
        assertThat(chunks).isEqualTo(4);

        // Then the topic is created again: another topic of the same name (it really was deleted)
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> admin.listTopics().names().get().contains(topic));
        assertThat(topicId(admin, topic))
            .as("the topic id after the deletion")
            .isNotEqualTo(before);
        // and one error line names the topic
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> errorLines(log).stream().anyMatch(l -> l.contains("was created again")));
        assertThat(errorLines(log))
            .anySatisfy(
                line ->
                    assertThat(line)
                        .contains("target=pg topic=" + topic)
                        .contains("the results topic was deleted while the verifier ran"));
        // and the new topic is seen as another topic of the same name, read from its start
        assertThat(errorLines(log))
            .anySatisfy(
                line ->
                    assertThat(line)
                        .contains("target=pg topic=" + topic)
                        .contains("the results topic was replaced (topic id " + before + " -> "));
        // and every verdict the deleted topic did not hold is on the new one, true, the verifier
        // never stopping
        await()
            .atMost(Duration.ofSeconds(120))
            .until(
                () -> {
                  Set<String> all = new HashSet<>(verdictsBefore);
                  all.addAll(verdicts(p, runId));
                  return all.size() == chunks * 3;
                });
        assertThat(verdicts(p, runId))
            .as("chunks 2 and 3, open or not opened at the deletion, have all their verdicts")
            .contains("2/0", "2/1", "2/2", "3/0", "3/1", "3/2");
        assertThat(first.failure()).as("the verifier did not stop").isEmpty();
        assertThat(first.problem()).isEmpty();
        List<ChunkResult> results = ComparePipeline.results(p.taskFile(), runId);
        Set<String> failed = failedKeysOfTrueVerdicts(results);
        assertThat(failed)
            .as(() -> "failed keys; their rows now on the source and on pg: " + p.rowsNow(failed))
            .containsExactly(CHANGED_ON_TARGET);
        // and the report aggregation, replaced once the topic was back, reports the whole run:
        // every chunk verified, exactly the one real difference
        await()
            .atMost(Duration.ofSeconds(90))
            .untilAsserted(
                () -> {
                  ReportEntry e = reportEntry(p, runId);
                  assertThat(e.getApplyChunks()).isEqualTo(chunks);
                  assertThat(e.getCaptureChunks()).isEqualTo(chunks);
                  assertThat(e.getCounts().getFailed()).isEqualTo(1);
                  assertThat(e.getCounts().getMissed() + e.getCounts().getExtra()).isZero();
                  assertThat(e.getStatus()).isEqualTo(ReportStatus.DIFFERENCES);
                });
        Cli cli = new Cli();
        assertThat(cli.run("report", "-c", p.targetsFile().toString()))
            .as("report's exit code (differences), " + cli.err())
            .isEqualTo(3);
        assertThat(load.done())
            .as("live load after the deletion")
            .isGreaterThan(loadAtDelete.get());
      } finally {
        first.close();
        watchLog.detachAppender(log);
      }

      // When a verifier is started again in the same process, looking for the topic only every
      // 20 s, and the topic is deleted again with no chunk open
      Path slowCheck = dir.resolve("targets-slow-check.properties");
      Properties targets = new Properties();
      try (var in = Files.newBufferedReader(p.targetsFile())) {
        targets.load(in);
      }
      targets.put("results.topic.check.ms", "20000");
      try (var out = Files.newBufferedWriter(slowCheck)) {
        targets.store(out, null);
      }
      Logger verifierLog =
          (Logger) LoggerFactory.getLogger("io.cdccompare.operations.run.RunningVerifier");
      ListAppender<ILoggingEvent> replaced = new ListAppender<>();
      replaced.start();
      verifierLog.addAppender(replaced);
      try (RunningVerifier second =
          RunningVerifier.start(TargetsConfig.load(slowCheck), "pg", true)) {
        // Then it runs: the first one released its state directories
        second.awaitRunning(Duration.ofSeconds(90));
        Uuid again = topicId(admin, topic);
        admin.deleteTopics(List.of(topic)).all().get();
        // and the report aggregation really stops on the missing topic (its thread is replaced)
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    errorLines(replaced).stream()
                        .anyMatch(l -> l.contains("found its source topic missing")));
        // while the topic is missing, the verifier's health line names it
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> second.problem().orElse("").contains("results topic " + topic));
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> admin.listTopics().names().get().contains(topic));
        assertThat(topicId(admin, topic)).isNotEqualTo(again);

        // When the compare is run again
        CompareRun.Summary next = new CompareRun(CompareConfig.load(p.taskFile()), false).run();

        // Then the replaced aggregation reports the new run whole, the verifier never stopping
        String nextRun = next.tables().get(0).runId();
        assertThat(nextRun).isNotEqualTo(summary.tables().get(0).runId());
        await()
            .atMost(Duration.ofSeconds(120))
            .untilAsserted(
                () -> {
                  ReportEntry e = reportEntry(p, nextRun);
                  assertThat(e.getApplyChunks()).isEqualTo(next.tables().get(0).chunks());
                  assertThat(e.getCaptureChunks()).isEqualTo(next.tables().get(0).chunks());
                  assertThat(e.getCounts().getFailed()).isEqualTo(1);
                  assertThat(e.getCounts().getMissed() + e.getCounts().getExtra()).isZero();
                });
        assertThat(second.failure()).isEmpty();
        assertThat(second.problem()).isEmpty();
      } finally {
        verifierLog.detachAppender(replaced);
      }
    }
  }

  private static Uuid topicId(Admin admin, String topic) throws Exception {
    return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).topicId();
  }

  private static List<String> errorLines(ListAppender<ILoggingEvent> log) {
    synchronized (log.list) {
      return log.list.stream()
          .filter(e -> e.getLevel() == Level.ERROR)
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  private static String verdict(ChunkResult r) {
    return r.getChunk() + "/" + r.getTablePartition();
  }

  private static Set<String> verdicts(ComparePipeline p, String runId) {
    Set<String> seen = new HashSet<>();
    ComparePipeline.results(p.taskFile(), runId).forEach(r -> seen.add(verdict(r)));
    return seen;
  }

  /** Every verdict VERIFIED, a repeated one identical, no row missed or extra: the failed keys. */
  private static Set<String> failedKeysOfTrueVerdicts(List<ChunkResult> results) {
    Map<String, String> seen = new HashMap<>();
    Set<String> failed = new TreeSet<>();
    for (ChunkResult r : results) {
      String signature =
          r.getState() + " " + r.getFailedKeys() + r.getMissedKeys() + r.getExtraKeys();
      assertThat(seen.putIfAbsent(verdict(r), signature))
          .as("a repeated verdict of " + verdict(r))
          .isIn(null, signature);
      assertThat(r.getState()).as(verdict(r) + ": " + r.getError()).isEqualTo(ChunkState.VERIFIED);
      assertThat(r.getMissedKeys()).isEmpty();
      assertThat(r.getExtraKeys()).isEmpty();
      failed.addAll(r.getFailedKeys());
    }
    return failed;
  }

  private static ReportEntry reportEntry(ComparePipeline p, String runId) {
    List<ReportEntry> entries =
        TaskReportReader.of(CompareConfig.load(p.taskFile())).entries().stream()
            .filter(e -> e.getTable() != null && runId.equals(e.getRunId()))
            .filter(e -> "pg".equals(e.getTarget()))
            .toList();
    assertThat(entries).as("the report's entries of the run").hasSize(1);
    return entries.get(0);
  }

  /** The report's entries of target pg and {@code table}, of every run. */
  private static List<ReportEntry> reportEntries(ComparePipeline p, String table) {
    return TaskReportReader.of(CompareConfig.load(p.taskFile())).entries().stream()
        .filter(e -> table.equals(e.getTable()) && "pg".equals(e.getTarget()))
        .toList();
  }
}
