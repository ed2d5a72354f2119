package io.cdccompare.operations.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.core.metrics.MetricNames;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pipeline the user already runs, proved as it is: Debezium's PostgreSQL connector on a real
 * Kafka Connect worker (JSON with schemas, or Avro through the registry) and two Debezium JDBC
 * sinks, one writing a PostgreSQL target and one a MariaDB target, under a live load. The compare
 * runs with {@code capture=kafka-connect}; one {@code verify} verifier per target ({@link
 * RunningVerifier} from a targets file with {@code connect.connector}) reads the connector's topics
 * and follows its sink's group. Differences injected on each target are found exactly, by key,
 * class and target; nothing the load changes is reported different; a paused sink stalls only its
 * own target; a worker killed in the middle of a compare changes no verdict.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB,
  Component.CONNECT
})
class ConnectPipelineIT {
  private static final Duration DELIVERY = StockPipeline.DELIVERY;
  private static final int ROWS = StockPipeline.Table.ITEMS.rows();
  private static final List<String> TARGETS = StockPipeline.TARGETS;

  /** Differences made on a target directly, on ids the load never touches (it changes ≤ 2000). */
  private record Injected(Set<String> updated, Set<String> deleted, Set<String> inserted) {
    static final Map<String, Injected> BY_TARGET =
        Map.of(
            "pg",
            new Injected(
                Set.of("4002", "5000", "5998"), Set.of("4500", "5500"), Set.of("4001", "5001")),
            "maria",
            new Injected(Set.of("3002", "4800"), Set.of("3500"), Set.of("3001")));

    static final Injected NONE = new Injected(Set.of(), Set.of(), Set.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "avro"})
  void injectedDifferencesAreFoundExactlyOnEachTargetWrittenByAJdbcSinkUnderLoad(
      String format, EmbeddedEnvironment env) throws Exception {
    // Given both targets in step, then differences on each, and a live load
    try (StockPipeline p =
        new StockPipeline(
            env, "cpipe" + format.charAt(0), format, 60_000, StockPipeline.Table.ITEMS)) {
      inject(p);
      p.startLoad();
      p.startVerifiers();

      // When
      CompareRun.Summary summary = p.compare();

      // Then
      Map<String, List<ChunkResult>> results = p.results(summary, TARGETS);
      for (String target : TARGETS) {
        assertExact(p, target, results.get(target), Injected.BY_TARGET.get(target));
        SimpleMeterRegistry meters = p.meters.get(target);
        assertThat(
                meters
                    .get(MetricNames.CHUNKS_VERIFIED.name())
                    .tags("target", target, "state", "VERIFIED")
                    .counter()
                    .count())
            .as("the verdicts counted in " + target + "'s metrics")
            .isEqualTo(summary.tables().get(0).chunks());
        assertThat(
                meters
                    .get(MetricNames.ROWS.name())
                    .tags("target", target, "outcome", "failed")
                    .counter()
                    .count())
            .isEqualTo(Injected.BY_TARGET.get(target).updated().size());
      }
    }
  }

  @Test
  void aPausedSinkStallsOnlyItsOwnTargetWithAnAlertAndItVerifiesOnceResumed(EmbeddedEnvironment env)
      throws Exception {
    // Given both targets in step under a load, and maria's sink paused
    try (StockPipeline p =
        new StockPipeline(env, "cpause", "json", 6_000, StockPipeline.Table.ITEMS)) {
      p.task.put("chunk", "1500"); // fewer chunks: each group of stalled CLOSEs waits the timeout
      p.startLoad();
      p.startVerifiers();
      p.connect.pause(p.sinkOf("maria"));
      await().atMost(DELIVERY).until(() -> p.connect.status(p.sinkOf("maria")).allIn("PAUSED"));

      // When a compare runs
      CompareRun.Summary paused = p.compare();

      // Then maria's chunks are STALLED with an alert, pg's verified in sync
      Map<String, List<ChunkResult>> results = p.results(paused, TARGETS);
      assertThat(results.get("maria"))
          .allSatisfy(
              r -> {
                assertThat(r.getState()).isEqualTo(ChunkState.STALLED);
                assertThat(r.getError()).contains("connect-" + p.sinkOf("maria"));
              });
      assertExact(p, "pg", results.get("pg"), Injected.NONE);
      Alert alert =
          p.first(
              p.targets.topics().alerts(),
              Alert.class,
              a -> a.getCode() == AlertCode.STALLED && "maria".equals(a.getTarget()));
      assertThat(alert.getTable()).isEqualTo("public.items");
      assertThat(alert.getMessage()).contains("connect-" + p.sinkOf("maria"));

      // When the sink is resumed and the compare runs again
      p.connect.resume(p.sinkOf("maria"));
      CompareRun.Summary resumed = p.compare();

      // Then both targets verify in sync
      Map<String, List<ChunkResult>> again = p.results(resumed, TARGETS);
      for (String target : TARGETS) {
        assertExact(p, target, again.get(target), Injected.NONE);
      }
    }
  }

  @Test
  void aWorkerKilledInTheMiddleOfACompareChangesNoVerdict(EmbeddedEnvironment env)
      throws Exception {
    // Given both targets with differences, a load, and a compare slowed to several seconds
    try (StockPipeline p =
        new StockPipeline(env, "ckill", "json", 60_000, StockPipeline.Table.ITEMS)) {
      inject(p);
      p.startLoad();
      p.startVerifiers();
      p.task.put(CompareConfig.MAX_ROWS_PER_SECOND, "300");
      CompletableFuture<CompareRun.Summary> compare =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return p.compare();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });

      // When the worker is killed once the first verdict of the run is out, and started again
      p.first(p.targets.topics().results(), ChunkResult.class, r -> true);
      assertThat(compare).as("the compare is still running at the kill").isNotDone();
      List<ProcessHandle> worker = env.connect().processes();
      env.connect().kill();
      assertThat(worker)
          .as("the worker's processes, killed")
          .isNotEmpty()
          .noneMatch(ProcessHandle::isAlive);
      env.connect().start();
      CompareRun.Summary summary = compare.get();

      // Then every target's verdicts are exactly the injected differences
      Map<String, List<ChunkResult>> results = p.results(summary, TARGETS);
      for (String target : TARGETS) {
        assertExact(p, target, results.get(target), Injected.BY_TARGET.get(target));
      }
    }
  }

  /**
   * Every chunk of the target verified, its failed, missed and extra keys exactly the injected
   * ones, and only keys the load changes in flight, each counted once.
   */
  private static void assertExact(
      StockPipeline p, String target, List<ChunkResult> results, Injected injected)
      throws Exception {
    assertThat(results).as(target).allMatch(r -> r.getState() == ChunkState.VERIFIED);
    for (ChunkResult r : results) {
      for (String key : r.getFailedKeys()) {
        if (!injected.updated().contains(key)) { // the evidence of a false difference
          System.out.println(
              "DIAG target "
                  + target
                  + " chunk "
                  + r.getChunk()
                  + " key "
                  + key
                  + " source "
                  + row(p.source.connect(), key)
                  + " target "
                  + row(p.server(target).connect(p.database(target)), key)
                  + " result "
                  + r);
        }
      }
    }
    assertThat(keys(results, "failed")).as(target).isEqualTo(new TreeSet<>(injected.updated()));
    assertThat(keys(results, "missed")).as(target).isEqualTo(new TreeSet<>(injected.deleted()));
    assertThat(keys(results, "extra")).as(target).isEqualTo(new TreeSet<>(injected.inserted()));
    Set<String> inFlight = keys(results, "inFlight");
    assertThat(inFlight)
        .as("only keys the load changed are in flight on " + target)
        .allMatch(k -> Integer.parseInt(k) <= 2000)
        .hasSameSizeAs(results.stream().flatMap(r -> r.getInFlightKeys().stream()).toList());
    long counted =
        results.stream()
            .mapToLong(
                r ->
                    r.getCounts().getMatched()
                        + r.getCounts().getFailed()
                        + r.getCounts().getMissed())
            .sum();
    assertThat(counted + inFlight.size())
        .as("every source row counted once on " + target + ": matched, failed, missed, in flight")
        .isGreaterThanOrEqualTo(ROWS)
        .isLessThanOrEqualTo(StockPipeline.rows(p.source.connect()));
  }

  private static String row(Connection c, String id) throws Exception {
    try (c;
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name, qty FROM items WHERE id = " + id)) {
      return rs.next() ? rs.getInt(1) + "/" + rs.getString(2) + "/" + rs.getInt(3) : "none";
    }
  }

  /** Makes each target's injected differences on the target directly. */
  private static void inject(StockPipeline p) throws Exception {
    for (String target : TARGETS) {
      Injected d = Injected.BY_TARGET.get(target);
      try (Connection c = p.server(target).connect(p.database(target));
          Statement s = c.createStatement()) {
        s.execute("UPDATE items SET qty = -1 WHERE id IN (" + String.join(",", d.updated()) + ")");
        s.execute("DELETE FROM items WHERE id IN (" + String.join(",", d.deleted()) + ")");
        for (String id : d.inserted()) {
          s.execute("INSERT INTO items VALUES (" + id + ", 'extra', 1)");
        }
      }
    }
  }

  private static Set<String> keys(List<ChunkResult> results, String kind) {
    Set<String> keys = new TreeSet<>();
    for (ChunkResult r : results) {
      List<String> listed =
          switch (kind) {
            case "failed" -> r.getFailedKeys();
            case "missed" -> r.getMissedKeys();
            case "inFlight" -> r.getInFlightKeys();
            default -> r.getExtraKeys();
          };
      keys.addAll(listed);
    }
    return keys;
  }
}
