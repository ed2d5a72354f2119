package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.db.TargetSession;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.report.aggregate.ReportConfig;
import io.cdccompare.report.aggregate.ReportTopics;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import io.cdccompare.schemas.avro.RowCounts;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.CheckpointStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cdc-compare status} against real servers: a logical replication slot on the source
 * PostgreSQL, a table topic with records written by a plain producer, checkpoints written by the
 * verifier's own {@link CheckpointStore} into a PostgreSQL and a MariaDB target, a consumer group's
 * committed offsets, a report entry, and a target whose port is closed.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
class StatusCommandIT {
  /** Partition 0's records are 10 s apart, the first one 200 s before they are written. */
  private static final Duration FIRST_AGE = Duration.ofSeconds(200);

  private static final Duration SPACING = Duration.ofSeconds(10);

  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** Source database and slot of each slot a test created: an idle slot keeps WAL on the server. */
  private final List<String[]> slots = new ArrayList<>();

  @AfterEach
  void dropSlots(EmbeddedEnvironment env) throws SQLException {
    for (String[] slot : slots) {
      try (Connection c = env.sourcePostgres().connect(slot[0]);
          Statement s = c.createStatement()) {
        s.execute("SELECT pg_drop_replication_slot('" + slot[1] + "')");
      }
    }
  }

  @Test
  void showsTheSlotTheLagPerPartitionAndAnUnreachableTargetAndExitsOne(EmbeddedEnvironment env)
      throws Exception {
    // Given the capture's slot on the source, with WAL written after it
    Scene scene = new Scene(env);
    Slot slot = scene.createSlotAndWriteWal();
    // a 3-partition table topic: partition 0 offsets 0..9 (the last a tombstone), partition 1
    // offsets 0..3, partition 2 offsets 0..4
    Instant written = scene.produce(10, 4, 5);
    // a PostgreSQL target applied up to offset 3 of partitions 0 and 1, nothing of partition 2;
    // another application's checkpoint in the same table is not this target's
    TargetDb pg = scene.postgresTarget();
    pg.saveCheckpoint(scene.appId("pg"), 0, 3);
    pg.saveCheckpoint(scene.appId("pg"), 1, 3);
    pg.saveCheckpoint("someone-else", 2, 4);
    // its consumer group committed offset 4 of partition 0
    scene.commitGroupOffset(scene.appId("pg"), 0, 4);
    // and a MariaDB target whose port is closed
    int closed = closedPort();
    Path file =
        scene.targetsFile(
            pg.section("pg", scene.appId("pg"))
                + "target.maria.url=jdbc:mariadb://127.0.0.1:"
                + closed
                + "/target\ntarget.maria.user=root\n");

    // When
    Instant before = Instant.now();
    int exit = run("status", "-c", file.toString());
    Instant after = Instant.now();

    // Then the unreachable target makes the exit code 1, and everything else is printed
    assertThat(exit).as(err.toString()).isEqualTo(ExitCode.FAILURE.code());
    List<String> lines = out.toString().lines().toList();
    assertThat(lines)
        .contains(
            "CAPTURE  slot " + slot.name() + "  " + scene.sourceUrl(),
            "  pg  " + pg.url() + "  application " + scene.appId("pg"),
            "COMPARES  "
                + scene.prefix
                + ".compare.report  does not exist: no verifier has run yet");
    // the slot: inactive, WAL reserved, its confirmed position, at least the WAL written since
    Matcher capture =
        find(
            lines,
            "  no\\s+reserved\\s+"
                + Pattern.quote(slot.confirmedFlushLsn())
                + "\\s+\\S+\\s+[0-9.]+ [KMG]?i?B \\((\\d+) bytes\\)");
    assertThat(Long.parseLong(capture.group(1))).isGreaterThanOrEqualTo(slot.walWrittenSince());
    // partition 0: checkpoint 3, end 10 -> 6 records, the oldest (offset 4) written 160 s before
    // the records were produced; the group committed 4
    String topic = Pattern.quote(scene.topic());
    Matcher p0 = find(lines, "\\s+" + topic + "\\s+0\\s+3\\s+10\\s+6\\s+([0-9.]+)\\s+4");
    Instant oldest = written.minus(FIRST_AGE).plus(SPACING.multipliedBy(4));
    assertThat(Double.parseDouble(p0.group(1)))
        .isBetween(seconds(oldest, before) - 0.1, seconds(oldest, after) + 0.1);
    // partition 1: caught up; partition 2: no checkpoint, so all 5 records
    find(lines, "\\s+" + topic + "\\s+1\\s+3\\s+4\\s+0\\s+0\\.0\\s+-");
    Matcher p2 = find(lines, "\\s+" + topic + "\\s+2\\s+-\\s+5\\s+5\\s+([0-9.]+)\\s+-");
    assertThat(Double.parseDouble(p2.group(1))).isLessThan(Double.parseDouble(p0.group(1)));
    find(lines, "\\s+total\\s+11\\s+" + Pattern.quote(p0.group(1)));
    // the MariaDB target: one line naming it and why
    assertThat(lines)
        .anyMatch(
            l ->
                l.startsWith(
                    "  maria  jdbc:mariadb://127.0.0.1:"
                        + closed
                        + "/target  UNREACHABLE  cannot connect to target maria at"
                        + " jdbc:mariadb://127.0.0.1:"
                        + closed
                        + "/target as root: "));
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void everythingReachableIsExitZeroAndTheSameInJson(EmbeddedEnvironment env) throws Exception {
    // Given a slot, a table topic, a MariaDB and a PostgreSQL target with checkpoints, and a report
    Scene scene = new Scene(env);
    Slot slot = scene.createSlotAndWriteWal();
    scene.produce(6, 2, 0);
    TargetDb maria = scene.mariadbTarget();
    maria.saveCheckpoint(scene.appId("maria"), 0, 1);
    maria.saveCheckpoint(scene.appId("maria"), 1, 1);
    TargetDb pg = scene.postgresTarget();
    pg.saveCheckpoint(scene.appId("pg"), 0, 5);
    pg.saveCheckpoint(scene.appId("pg"), 1, 1);
    scene.writeReportEntry("daily", "maria", 12, 9);
    Path file =
        scene.targetsFile(
            maria.section("maria", scene.appId("maria")) + pg.section("pg", scene.appId("pg")));

    // When
    int exit = run("status", "-c", file.toString(), "-o", "json");

    // Then
    assertThat(exit).as(out.toString() + err).isEqualTo(ExitCode.OK.code());
    JsonNode json = new ObjectMapper().readTree(out.toString());
    assertThat(json.get("complete").asBoolean()).isTrue();
    assertThat(json.at("/capture/slot").asText()).isEqualTo(slot.name());
    assertThat(json.at("/capture/state").asText()).isEqualTo("OK");
    assertThat(json.at("/capture/active").asBoolean()).isFalse();
    assertThat(json.at("/capture/confirmedFlushLsn").asText()).isEqualTo(slot.confirmedFlushLsn());
    assertThat(json.at("/capture/behindBytes").asLong())
        .isGreaterThanOrEqualTo(slot.walWrittenSince());
    JsonNode mariaStatus = json.at("/targets/0");
    assertThat(mariaStatus.get("name").asText()).isEqualTo("maria");
    assertThat(mariaStatus.get("unreachable").isNull()).isTrue();
    assertThat(offsets(mariaStatus, "checkpoint")).containsExactly(1L, 1L, null);
    assertThat(offsets(mariaStatus, "endOffset")).containsExactly(6L, 2L, 0L);
    assertThat(offsets(mariaStatus, "lagRecords")).containsExactly(4L, 0L, 0L);
    assertThat(mariaStatus.at("/partitions/0/lagSeconds").asDouble()).isPositive();
    assertThat(mariaStatus.at("/partitions/1/lagSeconds").asDouble()).isZero();
    assertThat(mariaStatus.get("lagRecords").asLong()).isEqualTo(4);
    JsonNode pgStatus = json.at("/targets/1");
    assertThat(offsets(pgStatus, "checkpoint")).containsExactly(5L, 1L, null);
    assertThat(offsets(pgStatus, "lagRecords")).containsExactly(0L, 0L, 0L);
    assertThat(pgStatus.get("lagSeconds").asDouble()).isZero();
    assertThat(json.at("/compares/reportExists").asBoolean()).isTrue();
    JsonNode entry = json.at("/compares/entries/0");
    assertThat(entry.get("task").asText()).isEqualTo("daily");
    assertThat(entry.get("target").asText()).isEqualTo("maria");
    assertThat(entry.get("status").asText()).isEqualTo("IN_PROGRESS");
    assertThat(entry.get("chunksNoted").asLong()).isEqualTo(12);
    assertThat(entry.get("chunksVerified").asLong()).isEqualTo(9);
    assertThat(json.at("/compares/entries").size()).isEqualTo(1);
  }

  @Test
  void aMissingSlotTopicAndCheckpointTableAreShownAsFactsAndExitZero(EmbeddedEnvironment env)
      throws Exception {
    // Given no slot, no table topic, and a target database without a checkpoint table
    Scene scene = new Scene(env);
    scene.createSourceDatabase();
    TargetDb pg = scene.postgresTarget();
    Path file = scene.targetsFile(pg.section("pg", scene.appId("pg")));

    // When
    int exit = run("status", "-c", file.toString());

    // Then
    assertThat(exit).as(out.toString() + err).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString().lines())
        .anyMatch(
            l ->
                l.startsWith(
                    "CAPTURE  slot "
                        + scene.slotName()
                        + "  "
                        + scene.sourceUrl()
                        + "  MISSING: no such replication slot"))
        .contains(
            "    no table \"cdc_compare\".\"cdc_compare_checkpoints\" yet: no verifier has"
                + " applied to this target",
            "    " + scene.topic() + "  topic does not exist: nothing captured yet");
  }

  private int run(String... args) {
    CommandLine cli = CdcCompare.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private static Matcher find(List<String> lines, String regex) {
    Pattern pattern = Pattern.compile(regex);
    for (String line : lines) {
      Matcher m = pattern.matcher(line);
      if (m.matches()) {
        return m;
      }
    }
    throw new AssertionError("no line matches " + regex + " in:\n" + String.join("\n", lines));
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 1e3;
  }

  private static List<Long> offsets(JsonNode target, String field) {
    List<Long> values = new ArrayList<>();
    target
        .get("partitions")
        .forEach(p -> values.add(p.get(field).isNull() ? null : p.get(field).asLong()));
    return values;
  }

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** The capture's slot as created, and the WAL the source wrote after it. */
  private record Slot(String name, String confirmedFlushLsn, long walWrittenSince) {}

  /** One test's source database, table topic and targets, under a prefix of its own. */
  private final class Scene {
    final EmbeddedEnvironment env;
    final String prefix = "st" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    String sourceDatabase;

    Scene(EmbeddedEnvironment env) {
      this.env = env;
    }

    String topic() {
      return prefix + ".public.orders";
    }

    String slotName() {
      return "cdc_compare_" + prefix;
    }

    String appId(String target) {
      return "verify-" + prefix + "-" + target;
    }

    String sourceUrl() {
      return env.sourcePostgres().jdbcUrl(sourceDatabase);
    }

    void createSourceDatabase() {
      sourceDatabase = env.sourcePostgres().createDatabase("src_" + prefix);
    }

    /** Creates the slot (dropped after the test), then writes WAL after it. */
    Slot createSlotAndWriteWal() throws SQLException {
      createSourceDatabase();
      try (Connection c = env.sourcePostgres().connect(sourceDatabase);
          Statement s = c.createStatement()) {
        s.execute("SELECT pg_create_logical_replication_slot('" + slotName() + "', 'pgoutput')");
        slots.add(new String[] {sourceDatabase, slotName()});
        s.execute("CREATE TABLE orders (id int PRIMARY KEY, note text)");
        s.execute("INSERT INTO orders SELECT g, repeat('x', 100) FROM generate_series(1, 500) g");
        try (ResultSet rs =
            s.executeQuery(
                "SELECT confirmed_flush_lsn::text,"
                    + " pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::bigint"
                    + " FROM pg_replication_slots WHERE slot_name = '"
                    + slotName()
                    + "'")) {
          assertThat(rs.next()).as("slot created").isTrue();
          Slot slot = new Slot(slotName(), rs.getString(1), rs.getLong(2));
          assertThat(slot.walWrittenSince()).as("WAL written after the slot").isPositive();
          return slot;
        }
      }
    }

    /**
     * Creates the table topic with one partition per count and writes that many records into each
     * with a plain producer; partition 0's records are {@link #SPACING} apart starting {@link
     * #FIRST_AGE} ago and its last one is a tombstone; the other partitions' records are new.
     *
     * @return when the records were produced
     */
    Instant produce(int... counts) throws Exception {
      Instant now = Instant.now();
      try (Admin admin = Admin.create(kafka());
          KafkaProducer<byte[], byte[]> producer =
              new KafkaProducer<>(kafka(), new ByteArraySerializer(), new ByteArraySerializer())) {
        admin
            .createTopics(List.of(new NewTopic(topic(), counts.length, (short) 1)))
            .all()
            .get(30, TimeUnit.SECONDS);
        for (int partition = 0; partition < counts.length; partition++) {
          for (int offset = 0; offset < counts[partition]; offset++) {
            boolean first = partition == 0;
            long timestamp =
                first
                    ? now.minus(FIRST_AGE).plus(SPACING.multipliedBy(offset)).toEpochMilli()
                    : now.toEpochMilli();
            byte[] value =
                first && offset == counts[partition] - 1
                    ? null
                    : ("{\"id\":" + offset + "}").getBytes(StandardCharsets.UTF_8);
            producer
                .send(
                    new ProducerRecord<>(
                        topic(),
                        partition,
                        timestamp,
                        ("k" + offset).getBytes(StandardCharsets.UTF_8),
                        value))
                .get(30, TimeUnit.SECONDS);
          }
        }
      }
      return now;
    }

    void commitGroupOffset(String group, int partition, long offset) throws Exception {
      try (Admin admin = Admin.create(kafka())) {
        admin
            .alterConsumerGroupOffsets(
                group,
                Map.of(new TopicPartition(topic(), partition), new OffsetAndMetadata(offset)))
            .all()
            .get(30, TimeUnit.SECONDS);
      }
    }

    /** A compacted report topic holding one task entry, as the report aggregation writes it. */
    void writeReportEntry(String task, String target, long noted, long verified) throws Exception {
      ReportConfig report = ReportConfig.of(prefix, env.registry().confluentApiUrl());
      ReportTopics.ensure(report, env.kafka().bootstrapServers(), Map.of());
      ReportEntry entry =
          ReportEntry.newBuilder()
              .setTask(task)
              .setTarget(target)
              .setTable(null)
              .setRunId("run-1")
              .setTaskKind(TaskKind.FULL)
              .setCounts(RowCounts.newBuilder().setMatched(900).build())
              .setCaptureChunks(noted)
              .setApplyChunks(verified)
              .setStatus(ReportStatus.IN_PROGRESS)
              .setLastUpdate(Instant.now())
              .build();
      try (SpecificAvroSerializer<ReportEntry> values = new SpecificAvroSerializer<>();
          KafkaProducer<byte[], byte[]> producer =
              new KafkaProducer<>(kafka(), new ByteArraySerializer(), new ByteArraySerializer())) {
        values.configure(report.serdeConfig(), false);
        producer
            .send(
                new ProducerRecord<>(
                    report.reportTopic(),
                    (task + "/" + target).getBytes(StandardCharsets.UTF_8),
                    values.serialize(report.reportTopic(), entry)))
            .get(30, TimeUnit.SECONDS);
      }
    }

    TargetDb postgresTarget() throws SQLException {
      JdbcServer server = env.targetPostgres();
      String database = server.createDatabase("tgt_" + prefix);
      try (Connection c = server.connect(database);
          Statement s = c.createStatement()) {
        s.execute("CREATE SCHEMA cdc_compare");
      }
      return new TargetDb(this, server, database, "cdc_compare");
    }

    TargetDb mariadbTarget() {
      JdbcServer server = env.mariadb();
      String database = server.createDatabase("tgt_" + prefix);
      String bookkeeping = server.createDatabase("bk_" + prefix);
      return new TargetDb(this, server, database, bookkeeping);
    }

    Path targetsFile(String targets) throws Exception {
      JdbcServer source = env.sourcePostgres();
      Path file = dir.resolve(prefix + ".properties");
      Files.writeString(
          file,
          "topic.prefix="
              + prefix
              + "\nbootstrap.servers="
              + env.kafka().bootstrapServers()
              + "\nschema.registry.url="
              + env.registry().confluentApiUrl()
              + "\ntables=public.orders"
              + "\nsource.hostname="
              + source.host()
              + "\nsource.port="
              + source.port()
              + "\nsource.database="
              + sourceDatabase
              + "\nsource.user="
              + source.user()
              + "\nsource.password="
              + source.password()
              + "\n"
              + targets);
      return file;
    }

    Map<String, Object> kafka() {
      return Map.of("bootstrap.servers", env.kafka().bootstrapServers());
    }
  }

  /** A target database with the verifier's checkpoint table in its bookkeeping schema. */
  private record TargetDb(Scene scene, JdbcServer server, String database, String bookkeeping) {
    String url() {
      return server.jdbcUrl(database);
    }

    /** Writes a checkpoint with the verifier's own store, creating its table if missing. */
    void saveCheckpoint(String application, int partition, long offset) throws SQLException {
      Dialect dialect = Dialect.forJdbcUrl(url());
      try (Connection c = server.connect(database)) {
        TargetSession.prepare(c, dialect);
        CheckpointStore store = new CheckpointStore(c, dialect, bookkeeping);
        store.createTableIfMissing();
        store.save(
            new Checkpoint(
                application, scene.topic(), partition, offset, 100L + offset, 90L, Instant.now()));
      }
    }

    String section(String name, String applicationId) {
      String key = "target." + name + ".";
      return key
          + "url="
          + url()
          + "\n"
          + key
          + "user="
          + server.user()
          + "\n"
          + key
          + "password="
          + server.password()
          + "\n"
          + key
          + "bookkeeping.schema="
          + bookkeeping
          + "\n"
          + key
          + "application.id="
          + applicationId
          + "\n";
    }
  }
}
