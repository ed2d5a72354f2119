package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code verify} on real servers: it creates the topics it and the report aggregation need, runs
 * the target's apply+verify application, and a record it cannot apply ends the command with one
 * line naming the target, topic, partition and offset — nothing is applied.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.TARGET_POSTGRES})
class VerifyCommandIT {

  @Test
  void aPoisonRecordEndsVerifyWithOneLineNamingItsPosition(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    // Given a table topic whose first record is no change, and a target with the table
    String prefix = "vc" + Long.toString(System.nanoTime() % 1_000_000, 36);
    String topic = prefix + ".public.items";
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      producer
          .send(
              new ProducerRecord<>(
                  topic,
                  0,
                  "1".getBytes(StandardCharsets.UTF_8),
                  "not json".getBytes(StandardCharsets.UTF_8)))
          .get();
    }
    JdbcServer target = env.targetPostgres();
    String database = target.createDatabase("verify_" + prefix);
    try (Connection c = target.connect(database);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE items (id int PRIMARY KEY, name text)");
    }
    Path file =
        Files.writeString(
            dir.resolve("targets.properties"),
            "topic.prefix="
                + prefix
                + "\nbootstrap.servers="
                + env.kafka().bootstrapServers()
                + "\nschema.registry.url="
                + env.registry().confluentApiUrl()
                + "\ntables=public.items"
                + "\ntarget.a.url="
                + target.jdbcUrl(database)
                + "\ntarget.a.user="
                + target.user()
                + "\ntarget.a.password="
                + target.password()
                + "\nstate.dir="
                + dir.resolve("state")
                + "\n");

    // When target a is verified
    StringWriter err = new StringWriter();
    CommandLine cli = CdcCompare.commandLine();
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute("verify", "-c", file.toString(), "--target", "a");

    // Then the command ends with exit 1 and one error line naming the record
    assertThat(exit).isEqualTo(ExitCode.FAILURE.code());
    List<String> errors = err.toString().lines().filter(l -> l.startsWith("cdc-compare:")).toList();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0))
        .contains("target a stopped")
        .contains("poison record at topic " + topic + ", partition 0, offset 0");
    // And the topics of the results and of the report aggregation were created
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
      assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
          .contains(
              prefix + ".compare.results",
              prefix + ".compare.report",
              prefix + ".compare.alerts",
              prefix + ".compare.hashes");
    }
    // And nothing was applied to the target
    try (Connection c = target.connect(database);
        Statement s = c.createStatement();
        var rs = s.executeQuery("SELECT count(*) FROM items")) {
      rs.next();
      assertThat(rs.getLong(1)).isZero();
    }
  }
}
