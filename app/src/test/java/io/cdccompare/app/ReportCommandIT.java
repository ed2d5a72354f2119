package io.cdccompare.app;

import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.ORDERS;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.TASK;
import static io.cdccompare.report.read.ReportFixtures.counts;
import static io.cdccompare.report.read.ReportFixtures.entry;
import static io.cdccompare.report.read.ReportFixtures.nothingCompared;
import static io.cdccompare.report.read.ReportFixtures.recheckResult;
import static io.cdccompare.report.read.ReportFixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.core.report.ReportKey;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.report.read.ReportSchema;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cdc-compare report} against a real broker and registry: report entries and chunk results
 * written with the project's Avro serializer, read back by the command, shown as a table and as
 * schema-valid JSON, with the exit code of each situation. Each test has topics of its own.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY})
class ReportCommandIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private EmbeddedEnvironment env;
  private String prefix;
  private Path targetsFile;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @BeforeEach
  void freshTopics(EmbeddedEnvironment env) throws Exception {
    this.env = env;
    this.prefix = "rep" + Long.toString(System.nanoTime(), 36);
    this.targetsFile = targetsFile(env.kafka().bootstrapServers());
  }

  @Test
  void inSyncOnEveryTargetIsZero() throws Exception {
    // Given both targets verified the two noted chunks of orders (2003 rows, deep 100) without a
    // difference
    createTopics();
    produceEntries(
        wholeTable(entry(PG, null, ReportStatus.IN_SYNC, 2, 2, counts(2000, 0, 0, 0, 3))),
        wholeTable(entry(PG, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(2000, 0, 0, 0, 3))),
        wholeTable(entry(MARIA, null, ReportStatus.IN_SYNC, 2, 2, counts(2003, 0, 0, 0, 0))),
        wholeTable(entry(MARIA, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(2003, 0, 0, 0, 0))));

    // When the report is shown
    int exit = report();

    // Then exit 0, nothing on standard error, one row per target and table
    assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(ExitCode.OK.code());
    assertThat(err.toString()).isEmpty();
    assertThat(out.toString().lines())
        .containsExactly(
            "task nightly",
            "TARGET         TABLE          RUN                      STATUS   NOTED  VERIFIED"
                + "  SOURCE ROWS  COVERED  MATCHED  FAILED  MISSED  EXTRA  IN FLIGHT  UNVERIFIABLE"
                + "  DRIFT",
            "pg-replica     (all tables)   20260304T050607Z-a1b2c3  IN_SYNC      2         2"
                + "         2003     100%     2000       0       0      0          3             0"
                + "      0",
            "pg-replica     public.orders  20260304T050607Z-a1b2c3  IN_SYNC      2         2"
                + "         2003     100%     2000       0       0      0          3             0"
                + "      0",
            "maria-replica  (all tables)   20260304T050607Z-a1b2c3  IN_SYNC      2         2"
                + "         2003     100%     2003       0       0      0          0             0"
                + "      0",
            "maria-replica  public.orders  20260304T050607Z-a1b2c3  IN_SYNC      2         2"
                + "         2003     100%     2003       0       0      0          0             0"
                + "      0");

    // And the JSON says the same, valid against the schema
    JsonNode doc = reportJson();
    assertThat(doc.get("exitCode").asInt()).isZero();
    assertThat(doc.get("outcome").asText()).isEqualTo("IN_SYNC");
    assertThat(doc.at("/tasks/0/targets/1/tables/0/matched").asLong()).isEqualTo(2003);
    assertThat(doc.at("/tasks/0/targets/0/tables/0/inFlight").asLong()).isEqualTo(3);
    assertThat(doc.at("/tasks/0/targets/0/tables/0/sourceRows").asLong()).isEqualTo(2003);
    assertThat(doc.at("/tasks/0/targets/0/tables/0/coverage").asDouble()).isEqualTo(1.0);
  }

  @Test
  void differencesOnOneTargetAreThreeWithTheirKeys() throws Exception {
    // Given maria differs on orders: chunk 1 has a failed and a missed row in partition 0 (its
    // result re-emitted), chunk 2 an extra row in partition 1; pg is in sync
    createTopics();
    produceEntries(
        entry(PG, null, ReportStatus.IN_SYNC, 2, 2, counts(20, 0, 0, 0, 0)),
        entry(PG, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(20, 0, 0, 0, 0)),
        entry(MARIA, null, ReportStatus.DIFFERENCES, 2, 2, counts(17, 11, 1, 1, 0)),
        entry(MARIA, ORDERS, ReportStatus.DIFFERENCES, 2, 2, counts(17, 11, 1, 1, 0)));
    List<String> failed = new ArrayList<>();
    for (int k = 20; k >= 10; k--) {
      failed.add(Integer.toString(k));
    }
    ChunkResult chunk1 =
        result(MARIA, ORDERS, 1, 0)
            .setCounts(counts(8, 11, 1, 0, 0))
            .setFailedKeys(failed)
            .setMissedKeys(List.of("7"))
            .build();
    produceResults(
        chunk1,
        chunk1,
        result(MARIA, ORDERS, 1, 1).setCounts(counts(9, 0, 0, 0, 0)).build(),
        result(MARIA, ORDERS, 2, 0).build(),
        result(MARIA, ORDERS, 2, 1).setExtraKeys(List.of("42")).build(),
        result(PG, ORDERS, 1, 0).setFailedKeys(List.of("999")).setRunId("older").build());

    // When the report is shown with the keys, at most 10 per kind
    int exit = report("--keys", "--max-keys", "10");

    // Then exit 3, one line naming the table, and the keys under maria's row
    assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(ExitCode.DIFFERENCES.code());
    assertThat(err.toString().lines())
        .containsExactly("cdc-compare: differences: nightly/maria-replica/public.orders");
    String text = out.toString();
    assertThat(text)
        .contains(
            "maria-replica  public.orders  20260304T050607Z-a1b2c3  DIFFERENCES      2         2"
                + "            0        -       17      11       1      1          0"
                + "             0      0\n"
                + "    failed keys (11, first 10):\n"
                + "      10\n")
        .contains("      19\n      (1 more)\n    missed keys (1):\n      7\n")
        .endsWith("    extra keys (1):\n      42\n")
        .doesNotContain("999");

    // And the JSON holds them as arrays, with the same counts
    JsonNode doc = reportJson("--keys", "--max-keys", "10");
    assertThat(doc.get("exitCode").asInt()).isEqualTo(3);
    JsonNode maria = doc.at("/tasks/0/targets/1");
    assertThat(maria.get("target").asText()).isEqualTo(MARIA);
    JsonNode orders = maria.at("/tables/0");
    assertThat(
            List.of(
                orders.get("matched").asLong(),
                orders.get("failed").asLong(),
                orders.get("missed").asLong(),
                orders.get("extra").asLong()))
        .containsExactly(17L, 11L, 1L, 1L);
    assertThat(orders.at("/keys/failed/keys").toString())
        .isEqualTo("[\"10\",\"11\",\"12\",\"13\",\"14\",\"15\",\"16\",\"17\",\"18\",\"19\"]");
    assertThat(orders.at("/keys/failed/total").asLong()).isEqualTo(11);
    assertThat(orders.at("/keys/failed/omitted").asLong()).isEqualTo(1);
    assertThat(orders.at("/keys/missed/keys").toString()).isEqualTo("[\"7\"]");
    assertThat(orders.at("/keys/extra/keys").toString()).isEqualTo("[\"42\"]");
    assertThat(doc.at("/tasks/0/targets/0/tables/0").has("keys")).isFalse();
  }

  @Test
  void theRechecksOfATablesRunFollowItsRowWithTheirKeysAndLeaveTheExitCodeAlone() throws Exception {
    // Given both targets in sync on orders, pg with 3 rows in flight; pg's recheck 1 cleared one,
    // confirmed key 30 failed (its result re-emitted) and saw key 12 change again; recheck 2 saw
    // key 12 change again; a recheck of an older run on pg is in the results too
    createTopics();
    produceEntries(
        entry(PG, null, ReportStatus.IN_SYNC, 2, 2, counts(2000, 0, 0, 0, 3)),
        entry(PG, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(2000, 0, 0, 0, 3)),
        entry(MARIA, null, ReportStatus.IN_SYNC, 2, 2, counts(2003, 0, 0, 0, 0)),
        entry(MARIA, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(2003, 0, 0, 0, 0)));
    ChunkResult confirmed =
        recheckResult(PG, ORDERS, 1, 0, 1)
            .setCounts(counts(0, 1, 0, 0, 0))
            .setFailedKeys(List.of("30"))
            .build();
    produceResults(
        recheckResult(PG, ORDERS, 1, 0, 0)
            .setCounts(counts(1, 0, 0, 0, 1))
            .setInFlightKeys(List.of("12"))
            .build(),
        confirmed,
        confirmed,
        recheckResult(PG, ORDERS, 2, 0, 0)
            .setCounts(counts(0, 0, 0, 0, 1))
            .setInFlightKeys(List.of("12"))
            .build(),
        recheckResult(PG, ORDERS, 1, 0, 0)
            .setRunId("older.recheck1")
            .setFailedKeys(List.of("999"))
            .build());

    // When the report is shown with the keys
    int exit = report("--keys");

    // Then exit 0 as the run's rows say, and under pg's orders row one line per attempt with its
    // keys, the last one's in-flight key unsettled; maria's row shows nothing new
    assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(ExitCode.OK.code());
    List<String> lines = out.toString().lines().toList();
    assertThat(lines.get(3)).startsWith("pg-replica     public.orders");
    assertThat(lines.subList(4, lines.size() - 2))
        .containsExactly(
            "    recheck 1 (20260304T050607Z-a1b2c3.recheck1): cleared 1, failed 1, missed 0,"
                + " extra 0, in flight 1",
            "    failed keys (1):",
            "      30",
            "    in flight keys (1):",
            "      12",
            "    recheck 2 (20260304T050607Z-a1b2c3.recheck2): cleared 0, failed 0, missed 0,"
                + " extra 0, in flight 1 (unsettled)",
            "    in flight keys (1):",
            "      12");
    assertThat(lines.get(lines.size() - 2)).startsWith("maria-replica  (all tables)");
    assertThat(lines.get(lines.size() - 1)).startsWith("maria-replica  public.orders");
    assertThat(out.toString()).doesNotContain("999");

    // And without --keys they are not read
    assertThat(report()).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString()).doesNotContain("recheck");

    // And the JSON lists them on pg's table, valid against the schema
    JsonNode doc = reportJson("--keys");
    assertThat(doc.get("exitCode").asInt()).isZero();
    JsonNode rechecks = doc.at("/tasks/0/targets/0/tables/0/rechecks");
    assertThat(rechecks.size()).isEqualTo(2);
    assertThat(rechecks.get(0).get("runId").asText()).isEqualTo("20260304T050607Z-a1b2c3.recheck1");
    assertThat(
            List.of(
                rechecks.get(0).get("cleared").asLong(),
                rechecks.get(0).get("failed").asLong(),
                rechecks.get(0).get("inFlight").asLong(),
                rechecks.get(0).get("unverifiableChunks").asLong()))
        .containsExactly(1L, 1L, 1L, 0L);
    assertThat(rechecks.get(0).at("/keys/failed/keys").toString()).isEqualTo("[\"30\"]");
    assertThat(rechecks.get(1).get("attempt").asInt()).isEqualTo(2);
    assertThat(rechecks.get(1).at("/keys/inFlight/keys").toString()).isEqualTo("[\"12\"]");
    assertThat(doc.at("/tasks/0/targets/1/tables/0").has("rechecks")).isFalse();
  }

  @Test
  void anUnverifiableChunkIsFour() throws Exception {
    // Given pg could not check one of the two chunks, maria has differences
    createTopics();
    produceEntries(
        entry(TASK, PG, ORDERS)
            .setStatus(ReportStatus.UNVERIFIABLE)
            .setCaptureChunks(2)
            .setApplyChunks(2)
            .setUnverifiableChunks(1)
            .setCounts(counts(10, 0, 0, 0, 0))
            .build(),
        entry(MARIA, ORDERS, ReportStatus.DIFFERENCES, 2, 2, counts(19, 1, 0, 0, 0)));
    produceResults(
        result(PG, ORDERS, 2, 0).setState(ChunkState.UNVERIFIABLE).setError("lost").build());

    // When the report is shown
    int exit = report();

    // Then exit 4 naming the unverifiable table
    assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(ExitCode.UNVERIFIABLE.code());
    assertThat(err.toString().lines())
        .containsExactly(
            "cdc-compare: unverifiable: nightly/pg-replica/public.orders (UNVERIFIABLE)");
    assertThat(out.toString())
        .contains(
            "pg-replica     public.orders  20260304T050607Z-a1b2c3  UNVERIFIABLE      2         2"
                + "            0        -       10       0       0      0          0"
                + "             1      0");
    JsonNode doc = reportJson();
    assertThat(doc.get("exitCode").asInt()).isEqualTo(4);
    assertThat(doc.at("/tasks/0/targets/0/tables/0/unverifiableChunks").asLong()).isEqualTo(1);
  }

  @Test
  void aTargetBehindOrWithoutResultsIsFive() throws Exception {
    // Given pg verified 1 of 2 noted chunks and maria never reported the task
    createTopics();
    produceEntries(
        entry(PG, null, ReportStatus.IN_PROGRESS, 2, 1, counts(10, 0, 0, 0, 0)),
        entry(PG, ORDERS, ReportStatus.IN_PROGRESS, 2, 1, counts(10, 0, 0, 0, 0)));

    // When the report is shown
    int exit = report();

    // Then exit 5 naming both
    assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(ExitCode.INCOMPLETE.code());
    assertThat(err.toString().lines())
        .containsExactly(
            "cdc-compare: not every noted chunk is verified yet:"
                + " nightly/pg-replica/public.orders (IN_PROGRESS), nightly/maria-replica (NO_RESULTS)");
    assertThat(out.toString())
        .contains(
            "maria-replica  (all tables)   -                        NO_RESULTS       -         -"
                + "            -        -        -       -       -      -          -"
                + "             -      -");
    JsonNode doc = reportJson();
    assertThat(doc.get("exitCode").asInt()).isEqualTo(5);
    assertThat(doc.at("/tasks/0/targets/1/status").asText()).isEqualTo("NO_RESULTS");
  }

  @Test
  void aTableThatComparedNothingIsFive() throws Exception {
    // Given both targets verified the one chunk of orders, every one of its 10 rows in flight
    createTopics();
    produceEntries(
        nothingCompared(PG, null, 10),
        nothingCompared(PG, ORDERS, 10),
        nothingCompared(MARIA, null, 10),
        nothingCompared(MARIA, ORDERS, 10));

    // When the report is shown
    int exit = report();

    // Then exit 5 naming the tables, with their source rows shown
    assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(ExitCode.INCOMPLETE.code());
    assertThat(err.toString().lines())
        .containsExactly(
            "cdc-compare: nothing compared: nightly/pg-replica/public.orders (NOTHING_COMPARED),"
                + " nightly/maria-replica/public.orders (NOTHING_COMPARED)");
    assertThat(out.toString())
        .contains(
            "pg-replica     public.orders  20260304T050607Z-a1b2c3  NOTHING_COMPARED      1"
                + "         1           10     100%        0");
    JsonNode doc = reportJson();
    assertThat(doc.get("outcome").asText()).isEqualTo("INCOMPLETE");
    assertThat(doc.at("/tasks/0/targets/0/tables/0/status").asText()).isEqualTo("NOTHING_COMPARED");
  }

  @Test
  void aTaskWithoutEntriesIsFiveAndSaysSo() throws Exception {
    // Given entries of another task only
    createTopics();
    produceEntries(entry("weekly", PG, ORDERS).build());

    // When the report of the nightly task is shown
    int exit = report("--task", TASK);

    // Then exit 5 with one line saying there is no entry for it
    assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(ExitCode.INCOMPLETE.code());
    assertThat(err.toString().lines())
        .singleElement()
        .satisfies(
            line -> assertThat(line).startsWith("cdc-compare: no report entry for task nightly"));
    assertThat(out.toString()).startsWith("task nightly\n").doesNotContain("weekly");
  }

  @Test
  void aMissingReportTopicIsOneAndSaysNoVerifierHasRun() {
    // Given no topic under this prefix
    // When the report is shown
    int exit = report();

    // Then exit 1, one line naming the topic
    assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(ExitCode.FAILURE.code());
    assertThat(err.toString().lines())
        .containsExactly(
            "cdc-compare: topic "
                + prefix
                + ".compare.report does not exist (no verifier has run with this topic.prefix)");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void anUnreachableBrokerIsOneLineNamingTheBootstrapServers() throws Exception {
    // Given a targets file whose broker does not listen
    targetsFile = targetsFile("127.0.0.1:1");

    // When the report is shown with a short timeout
    long start = System.nanoTime();
    int exit = report("--timeout", "3");
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    // Then exit 1 within about the timeout, one line naming the servers
    assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(ExitCode.FAILURE.code());
    assertThat(err.toString().lines())
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .startsWith("cdc-compare: cannot read topic " + prefix + ".compare.report")
                    .contains("from Kafka at 127.0.0.1:1 within 3 s"));
    assertThat(took).isLessThan(Duration.ofSeconds(20));
  }

  private int report(String... options) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    List<String> args = new ArrayList<>(List.of("report", "-c", targetsFile.toString()));
    args.addAll(List.of(options));
    CommandLine cli = CdcCompare.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args.toArray(String[]::new));
  }

  /** The JSON of the report with these options, checked against docs/report.schema.json. */
  private JsonNode reportJson(String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of(options));
    args.addAll(List.of("-o", "json"));
    report(args.toArray(String[]::new));
    JsonNode doc = JSON.readTree(out.toString());
    assertThat(ReportSchema.errors(doc)).as(out.toString()).isEmpty();
    assertThat(doc.get("reportTopic").asText()).isEqualTo(prefix + ".compare.report");
    return doc;
  }

  private Path targetsFile(String bootstrapServers) throws Exception {
    Path file = dir.resolve("targets-" + Long.toString(System.nanoTime(), 36) + ".properties");
    Files.writeString(
        file,
        "topic.prefix="
            + prefix
            + "\nbootstrap.servers="
            + bootstrapServers
            + "\nschema.registry.url="
            + env.registry().confluentApiUrl()
            + "\ntables="
            + ORDERS
            + "\ntargets="
            + PG
            + ","
            + MARIA
            + "\ntarget."
            + PG
            + ".url=jdbc:postgresql://127.0.0.1:1/replica\ntarget."
            + MARIA
            + ".url=jdbc:mariadb://127.0.0.1:1/replica\n");
    return file;
  }

  private void createTopics() throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(prefix + ".compare.report", 1, (short) 1)
                      .configs(
                          Map.of(
                              TopicConfig.CLEANUP_POLICY_CONFIG,
                              TopicConfig.CLEANUP_POLICY_COMPACT)),
                  new NewTopic(prefix + ".compare.results", 3, (short) 1)))
          .all()
          .get();
    }
  }

  /** The entry of a run at deep 100 (slice 0 of 1) that read 2003 rows and compared all. */
  private static ReportEntry wholeTable(ReportEntry entry) {
    return ReportEntry.newBuilder(entry)
        .setSourceRows(2003)
        .setComparedSourceRows(2003)
        .setCoveredRows(2003)
        .setSlice(0)
        .setSlices(1)
        .build();
  }

  /** Report entries keyed as the report topology keys them. */
  private void produceEntries(ReportEntry... entries) throws Exception {
    Map<String, SpecificRecord> records = new java.util.LinkedHashMap<>();
    for (ReportEntry e : entries) {
      records.put(
          e.getTable() == null
              ? ReportKey.ofTask(e.getTask(), e.getTarget())
              : ReportKey.ofTable(e.getTask(), e.getTarget(), e.getTable()),
          e);
    }
    produce(prefix + ".compare.report", new ArrayList<>(records.entrySet()));
  }

  private void produceResults(ChunkResult... results) throws Exception {
    List<Map.Entry<String, SpecificRecord>> records = new ArrayList<>();
    for (ChunkResult r : results) {
      records.add(
          Map.entry(String.join("/", r.getTask(), r.getRunId(), r.getTable(), r.getTarget()), r));
    }
    produce(prefix + ".compare.results", records);
  }

  private void produce(String topic, List<Map.Entry<String, SpecificRecord>> records)
      throws Exception {
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers());
    props.put("schema.registry.url", env.registry().confluentApiUrl());
    try (SpecificAvroSerializer<SpecificRecord> values = new SpecificAvroSerializer<>()) {
      values.configure(props, false);
      try (KafkaProducer<String, SpecificRecord> producer =
          new KafkaProducer<>(props, new StringSerializer(), values)) {
        for (Map.Entry<String, SpecificRecord> record : records) {
          producer.send(new ProducerRecord<>(topic, record.getKey(), record.getValue())).get();
        }
      }
    }
  }
}
