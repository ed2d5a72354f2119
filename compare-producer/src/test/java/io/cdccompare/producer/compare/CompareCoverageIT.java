package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.schemas.avro.ComparedRange;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.source.TopicLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What key space a full compare covers (docs/design.md, "Coverage"): at deep=100 the chunks'
 * compared ranges meet and the table's ends are open, an empty table is one chunk over everything,
 * and below 100 a rotating task's runs compare disjoint slices that together hold every row.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
class CompareCoverageIT {
  private static final int MARKERS_PER_CHUNK = 6; // OPEN and CLOSE in each of 3 partitions

  @Test
  void atDeepHundredTheChunksMeetAndTheTablesFirstAndLastChunksAreOpen(EmbeddedEnvironment env)
      throws Exception {
    // Given 25 500 rows with a composite key: chunks of 7 000, the last one 4 500 rows
    CaptureFixture source = new CaptureFixture(env);
    CompareFixture f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE orders (region int, code text, qty int, PRIMARY KEY (region, code))",
        "INSERT INTO orders SELECT g % 7, 'c' || lpad(g::text, 6, '0'), g"
            + " FROM generate_series(1, 25500) g");
    String topic = topic(source, "orders");
    Map<String, String> task = f.task("full", "public.orders");
    task.put("chunk", "7000");
    task.put("deep", "100");

    // When the task runs
    f.runCaptured("public.orders", task, topic, 4 * MARKERS_PER_CHUNK);

    // Then chunk n covers the keys after chunk n-1's last key up to its own, the first chunk is
    // open below and the last open above
    List<Marker> closes = new ArrayList<>(CompareFixture.closes(f.markers(topic, "full")).values());
    assertThat(closes).hasSize(4);
    String previous = null;
    for (Marker close : closes) {
      boolean last = close.getChunk() == 3;
      assertThat(close.getComparedRange())
          .as("chunk %d", close.getChunk())
          .isEqualTo(range(previous, false, last ? null : close.getLastKey()));
      assertThat(close.getSlice()).isZero();
      assertThat(close.getSlices()).isEqualTo(1);
      previous = close.getLastKey();
    }
  }

  @Test
  void aTableOfWholeChunksHasNoEmptyChunkAfterItsLastAndThatOneIsOpenAbove(EmbeddedEnvironment env)
      throws Exception {
    // Given 3 000 rows in chunks of 1 000
    CaptureFixture source = new CaptureFixture(env);
    CompareFixture f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE exact (id int PRIMARY KEY, v text)",
        "INSERT INTO exact SELECT g, 'v' || g FROM generate_series(1, 3000) g");
    String topic = topic(source, "exact");
    Map<String, String> task = f.task("exact", "public.exact");
    task.put("chunk", "1000");
    task.put("deep", "100");

    // When the task runs
    CompareRun.Summary summary = f.runCaptured("public.exact", task, topic, 3 * MARKERS_PER_CHUNK);

    // Then it noted three chunks, the third covering everything after key 2000
    assertThat(summary.tables().get(0).chunks()).isEqualTo(3);
    Map<Long, Marker> closes = CompareFixture.closes(f.markers(topic, "exact"));
    assertThat(closes).hasSize(3);
    assertThat(closes.get(2L).getComparedRange()).isEqualTo(range("2000", false, null));
    assertThat(closes.get(2L).getChunkRows()).isEqualTo(1_000);
  }

  @Test
  void anEmptyTableAndATableEmptiedBetweenRunsAreOneChunkOverTheWholeKeySpace(
      EmbeddedEnvironment env) throws Exception {
    // Given a table without rows, compared at the default deep=10, then at 100
    CaptureFixture source = new CaptureFixture(env);
    CompareFixture f = new CompareFixture(source);
    source.sql("CREATE TABLE vacant (id int PRIMARY KEY, v text)");
    String topic = topic(source, "vacant");
    Map<String, String> sampled = f.task("vacant", "public.vacant");
    Map<String, String> full = new java.util.HashMap<>(sampled);
    full.put("deep", "100");
    List<String> runs = new ArrayList<>();

    try (CaptureFixture.Running capture = source.start(source.captureConfig("public.vacant"))) {
      // When it is compared empty at deep=10 and at deep=100, then filled, compared, emptied on
      // the source and compared again
      runs.add(run(f, topic, sampled, 1));
      runs.add(run(f, topic, full, 2));
      source.sql("INSERT INTO vacant SELECT g, 'v' || g FROM generate_series(1, 50) g");
      runs.add(run(f, topic, full, 3));
      source.sql("DELETE FROM vacant");
      runs.add(run(f, topic, full, 4));
    }

    // Then each empty run is one chunk of no row over the whole key space
    Map<String, List<Marker>> byRun = closesByRun(f.markers(topic, "vacant"));
    for (int i : List.of(0, 1, 3)) {
      assertThat(byRun.get(runs.get(i)))
          .as("run %d", i)
          .singleElement()
          .satisfies(
              close -> {
                assertThat(close.getChunkRows()).isZero();
                assertThat(close.getComparedRows()).isZero();
                assertThat(close.getComparedRange()).isEqualTo(range(null, false, null));
                assertThat(f.pairs(close)).isEmpty();
              });
    }
    // And the filled run compared its 50 rows over the whole key space too
    assertThat(byRun.get(runs.get(2)))
        .singleElement()
        .satisfies(
            close -> {
              assertThat(close.getComparedRows()).isEqualTo(50);
              assertThat(close.getComparedRange()).isEqualTo(range(null, false, null));
            });
  }

  @Test
  void rotatingRunsCompareDisjointSlicesThatTogetherHoldEveryKey(EmbeddedEnvironment env)
      throws Exception {
    // Given 10 500 rows in chunks of 1 000, compared at deep=30 with rotation: 4 slices
    CaptureFixture source = new CaptureFixture(env);
    CompareFixture f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE rot (id int PRIMARY KEY, v text)",
        "INSERT INTO rot SELECT g, 'v' || g FROM generate_series(1, 10500) g");
    String topic = topic(source, "rot");
    Map<String, String> task = f.task("rot", "public.rot");
    task.put("chunk", "1000");
    task.put("deep", "30");
    task.put("deep.rotate", "true");

    // When the task runs five times
    List<String> runs = new ArrayList<>();
    try (CaptureFixture.Running capture = source.start(source.captureConfig("public.rot"))) {
      for (int i = 1; i <= 5; i++) {
        runs.add(run(f, topic, task, 11 * i));
      }
    }

    // Then runs 1 to 4 take slices 0 to 3, the fifth starts over at slice 0
    Map<String, List<Marker>> byRun = closesByRun(f.markers(topic, "rot"));
    List<Set<String>> keys = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      List<Marker> closes = byRun.get(runs.get(i));
      assertThat(closes).hasSize(11);
      int slice = i % 4;
      assertThat(closes).allSatisfy(c -> assertThat(c.getSlice()).isEqualTo(slice));
      assertThat(closes).allSatisfy(c -> assertThat(c.getSlices()).isEqualTo(4));
      Set<String> runKeys = new HashSet<>();
      for (Marker close : closes) {
        Set<String> chunkKeys = f.pairs(close).keySet();
        assertThat(close.getComparedRange())
            .isEqualTo(range(close.getFirstComparedKey(), true, max(chunkKeys)));
        runKeys.addAll(chunkKeys);
      }
      keys.add(runKeys);
    }
    // And the four slices are disjoint and together hold every key, each exactly once
    Set<String> all =
        IntStream.rangeClosed(1, 10_500).mapToObj(Integer::toString).collect(Collectors.toSet());
    assertThat(keys.subList(0, 4).stream().mapToInt(Set::size).sum()).isEqualTo(10_500);
    Set<String> union = new HashSet<>();
    keys.subList(0, 4).forEach(union::addAll);
    assertThat(union).isEqualTo(all);
    assertThat(keys.get(4)).isEqualTo(keys.get(0));
    assertThat(keys.get(0)).hasSize(10 * 300 + 150);
  }

  /** Runs a task and waits for its markers; returns its run id. */
  private static String run(CompareFixture f, String topic, Map<String, String> task, int chunks)
      throws Exception {
    CompareRun.Summary summary = new CompareRun(CompareConfig.of(task), false).run();
    String name = task.get(CompareConfig.TASK_NAME);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> f.markers(topic, name).size() >= chunks * MARKERS_PER_CHUNK);
    return summary.tables().get(0).runId();
  }

  /** The CLOSE markers of partition 0 by run id, each run's in chunk order. */
  private static Map<String, List<Marker>> closesByRun(List<CompareFixture.MarkerAt> markers) {
    Map<String, List<Marker>> out = new TreeMap<>();
    for (CompareFixture.MarkerAt m : markers) {
      if (m.partition() == 0 && m.marker().getPhase().name().equals("CLOSE")) {
        out.computeIfAbsent(m.marker().getRunId(), r -> new ArrayList<>()).add(m.marker());
      }
    }
    return out;
  }

  private static String max(Set<String> intKeys) {
    return intKeys.stream()
        .max((a, b) -> Integer.compare(Integer.parseInt(a), Integer.parseInt(b)))
        .orElseThrow();
  }

  private static ComparedRange range(String lower, boolean lowerInclusive, String upper) {
    return ComparedRange.newBuilder()
        .setLower(lower)
        .setLowerInclusive(lowerInclusive)
        .setUpper(upper)
        .build();
  }

  private static String topic(CaptureFixture source, String table) {
    return TopicLayout.topicName(source.prefix, new TableName("public", table));
  }
}
