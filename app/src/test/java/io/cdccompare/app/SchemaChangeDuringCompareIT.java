package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19's "DDL on the source during a compare" on the whole pipeline (a capture, a full compare
 * run of 4 chunks, a PostgreSQL target {@code pg} and its verifier), with a live load updating the
 * source throughout: the DDL runs while chunk 2 is open. The compare run hashes with the compared
 * shape it started with (columns and types fixed when the table's run begins), so every verdict
 * must be true: exactly the one real difference, never a row reported that is not different.
 */
class SchemaChangeDuringCompareIT {
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
  void aColumnAddedOnTheSourceDuringACompareStopsTheApplyNamingTableAndColumnAndNoVerdictIsFalse(
      @TempDir Path dir) throws Exception {
    ComparePipeline p = pipeline(dir, "ddl-add");
    CaptureFixture f = p.source();
    try (CaptureFixture.Running capture = f.start("public.items")) {
      RunningVerifier first = p.verifier("pg", true);
      CompareRun.Summary summary;
      AtomicLong loadAtDdl = new AtomicLong(-1);
      try (LiveLoad load = new LiveLoad(f, 2000, CHANGED_ON_TARGET)) {
        try {
          fill(p, INSERT);

          // When a column is added on the source (not on the target) while chunk 2 is open
          summary =
              compareWithDdl(
                  p, loadAtDdl, load, "ALTER TABLE items ADD COLUMN c int NOT NULL DEFAULT 7");

          // Then the compare run completes with the columns it started with
          assertThat(summary.complete()).isTrue();
          assertThat(
                  f.rows(
                          "SELECT count(*) FROM information_schema.columns"
                              + " WHERE table_name = 'items' AND column_name = 'c'")
                      .get(0)[0])
              .as("the column was really added on the source")
              .isEqualTo(1L);
          // and the verifier stops at the first change that carries the column, naming table
          // and column (nothing of that batch is applied)
          Optional<Throwable> failure = first.awaitStop(Duration.ofSeconds(90));
          assertThat(load.done()).as("live load after the DDL").isGreaterThan(loadAtDdl.get());
          assertThat(failure).as("the verifier stopped on the added column").isPresent();
          assertThat(causes(failure.get()))
              .contains("target pg")
              .contains("target table public.items has no column 'c'");
          assertThat(first.problem())
              .as("its health names the target, table and column")
              .hasValueSatisfying(
                  line ->
                      assertThat(line).startsWith("target pg stopped:").contains("no column 'c'"));
          // every verdict published before the stop is true
          assertTrueVerdicts(p, summary.tables().get(0).runId(), false);
        } finally {
          first.close();
        }

        // When the user adds the column on the target too and the verifier is started again
        ComparePipeline.sql(
            p.pgServer(), p.pgDb(), "ALTER TABLE items ADD COLUMN c int NOT NULL DEFAULT 7");
        try (RunningVerifier second = p.verifier("pg", true)) {
          // Then every chunk gets one true verdict per partition: exactly the real difference
          String runId = summary.tables().get(0).runId();
          long chunks = summary.tables().get(0).chunks();
          await().atMost(Duration.ofSeconds(120)).until(() -> verdictCount(p, runId) == chunks * 3);
          assertTrueVerdicts(p, runId, true);
          load.stop();
          // and the changes that carry the new column reach the target
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> targetLong(p, "SELECT coalesce(sum(n), 0) FROM items") == sourceSumN(f));
        }
      }
    }
  }

  @Test
  void
      aColumnTypeChangedOnTheSourceDuringACompareStopsTheRunNamingTableAndColumnAndNoVerdictIsFalse(
          @TempDir Path dir) throws Exception {
    ComparePipeline p = pipeline(dir, "ddl-type");
    CaptureFixture f = p.source();
    // a single-precision column: widened to double precision its canonical text changes
    // (0.1 real is 0.10000000149011612 double), its value does not
    f.sql("ALTER TABLE items ADD COLUMN r real NOT NULL DEFAULT 0");
    ComparePipeline.sql(
        p.pgServer(), p.pgDb(), "ALTER TABLE items ADD COLUMN r real NOT NULL DEFAULT 0");
    try (CaptureFixture.Running capture = f.start("public.items");
        RunningVerifier verifier = p.verifier("pg", true);
        LiveLoad load = new LiveLoad(f, 2000, CHANGED_ON_TARGET)) {
      fill(
          p,
          "INSERT INTO items SELECT g, 'item ' || g, g, g / 10.0 FROM generate_series(1, 2000) g");
      AtomicLong loadAtDdl = new AtomicLong(-1);
      AtomicReference<String> stoppedRun = new AtomicReference<>();

      // When the column's type is changed on the source while chunk 2 is open
      assertThatThrownBy(
              () ->
                  compareWithDdl(
                      p, loadAtDdl, load, "ALTER TABLE items ALTER COLUMN r TYPE double precision"))
          // Then the run stops naming the table and the column, with chunk 2 not closed
          .isInstanceOf(CdcCompareException.class)
          .hasMessageContaining("SCHEMA_DRIFT: table public.items changed on the source during run")
          .hasMessageContaining("column 'r' is now float8, the run compares it as float4")
          .hasMessageContaining("chunk 2 is not closed")
          // and the command line exits 4 on it (the README's exit-code table: schema drift)
          .satisfies(
              e ->
                  assertThat(CdcCompare.exitCode((Exception) e))
                      .isEqualTo(ExitCode.UNVERIFIABLE.code()));
      assertThat(f.rows("SELECT r FROM items WHERE id = 1").get(0)[0])
          .as("r is double precision on the source now")
          .isEqualTo(0.10000000149011612d);
      stoppedRun.set(
          (String)
              f.rows("SELECT run_id FROM repi.comparetables WHERE task = 'ddl-type'").get(0)[0]);
      // and every verdict of the chunks it closed is true
      await().atMost(Duration.ofSeconds(60)).until(() -> verdictCount(p, stoppedRun.get()) >= 3);
      assertTrueVerdicts(p, stoppedRun.get(), false);

      // When the compare is run again
      CompareRun.Summary next = new CompareRun(CompareConfig.load(p.taskFile()), false).run();

      // Then the table restarts under a new run that compares the new type, and every chunk gets
      // one true verdict: exactly the real difference, though the target column is still real
      assertThat(next.complete()).isTrue();
      assertThat(next.tables().get(0).restarted()).isTrue();
      String nextRun = next.tables().get(0).runId();
      assertThat(nextRun).isNotEqualTo(stoppedRun.get());
      assertThat(
              (String)
                  f.rows("SELECT compared_shape FROM repi.validatetables WHERE task = 'ddl-type'")
                      .get(0)[0])
          .contains("\"source\":\"r\",\"target\":\"r\",\"type\":\"DOUBLE\"");
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> verdictCount(p, nextRun) == next.tables().get(0).chunks() * 3);
      assertThat(load.done()).as("live load after the DDL").isGreaterThan(loadAtDdl.get());
      assertThat(verifier.failure()).as("the verifier applies the widened values").isEmpty();
      assertTrueVerdicts(p, nextRun, true);
      load.stop();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> targetLong(p, "SELECT coalesce(sum(n), 0) FROM items") == sourceSumN(f));
    }
  }

  private static ComparePipeline pipeline(Path dir, String task) throws Exception {
    return ComparePipeline.create(
        env,
        dir,
        task,
        Map.of("chunk", "500"),
        List.of("pg"),
        Map.of("streams.session.timeout.ms", "6000"));
  }

  private static final String INSERT =
      "INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, 2000) g";

  /** 2 000 rows on the source, replicated, and one real difference on the target. */
  private static void fill(ComparePipeline p, String insert) throws Exception {
    p.source().sql(insert);
    ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), 2000);
    ComparePipeline.sql(
        p.pgServer(),
        p.pgDb(),
        "UPDATE items SET name = 'changed' WHERE id = " + CHANGED_ON_TARGET);
  }

  /** A full compare run whose chunk 2 is open when the source runs {@code ddl}. */
  private static CompareRun.Summary compareWithDdl(
      ComparePipeline p, AtomicLong loadAtDdl, LiveLoad load, String ddl) throws Exception {
    AtomicReference<Exception> ddlFailure = new AtomicReference<>();
    CompareRun run =
        new CompareRun(CompareConfig.load(p.taskFile()), false)
            .onChunkOpened(
                (table, chunk) -> {
                  if (chunk == 2 && loadAtDdl.get() < 0) {
                    try {
                      p.source().sql("SET lock_timeout = '30s'", ddl);
                      loadAtDdl.set(load.done());
                    } catch (SQLException e) {
                      ddlFailure.set(e);
                    }
                  }
                });
    CompareRun.Summary summary = run.run();
    assertThat(ddlFailure.get()).as("the DDL").isNull();
    assertThat(loadAtDdl.get()).as("the DDL ran while chunk 2 was open").isGreaterThan(0);
    assertThat(summary.tables().get(0).chunks()).isEqualTo(4);
    return summary;
  }

  /**
   * Every verdict of the run is VERIFIED, a repeated one is identical, and the differences are at
   * most ({@code all} false) or exactly ({@code all} true) the one real difference.
   */
  private static void assertTrueVerdicts(ComparePipeline p, String runId, boolean all) {
    List<ChunkResult> results = ComparePipeline.results(p.taskFile(), runId);
    Map<String, String> seen = new HashMap<>();
    Set<String> failed = new TreeSet<>();
    Set<String> missedOrExtra = new TreeSet<>();
    for (ChunkResult r : results) {
      String verdict = r.getChunk() + "/" + r.getTablePartition();
      String signature =
          r.getState() + " " + r.getFailedKeys() + r.getMissedKeys() + r.getExtraKeys();
      String earlier = seen.putIfAbsent(verdict, signature);
      assertThat(earlier).as("a repeated verdict of " + verdict).isIn(null, signature);
      assertThat(r.getState()).as(verdict + ": " + r.getError()).isEqualTo(ChunkState.VERIFIED);
      failed.addAll(r.getFailedKeys());
      missedOrExtra.addAll(r.getMissedKeys());
      missedOrExtra.addAll(r.getExtraKeys());
    }
    assertThat(missedOrExtra).as("missed or extra rows").isEmpty();
    if (all) {
      assertThat(failed).containsExactly(CHANGED_ON_TARGET);
    } else {
      assertThat(failed).isSubsetOf(CHANGED_ON_TARGET);
    }
  }

  private static long verdictCount(ComparePipeline p, String runId) {
    return ComparePipeline.results(p.taskFile(), runId).stream()
        .map(r -> r.getChunk() + "/" + r.getTablePartition())
        .distinct()
        .count();
  }

  private static long targetLong(ComparePipeline p, String query) throws SQLException {
    try (var c = p.pgServer().connect(p.pgDb());
        var s = c.createStatement();
        var rs = s.executeQuery(query)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long sourceSumN(CaptureFixture f) throws SQLException {
    return ((Number) f.rows("SELECT coalesce(sum(n), 0) FROM items").get(0)[0]).longValue();
  }

  private static String causes(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      s.append(c.getMessage()).append(" / ");
    }
    return s.toString();
  }
}
