package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * With the databases up and Kafka unreachable, {@code capture} and {@code verify} end within the
 * probe's timeout with exit 1 and one line naming the bootstrap servers, and change nothing: no
 * replication slot, no note tables, no bookkeeping tables.
 */
@WithEmbedded({Component.SOURCE_POSTGRES, Component.TARGET_POSTGRES})
class UnreachableKafkaIT {
  private static final String NO_KAFKA = "127.0.0.1:1";

  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = CdcCompare.commandLine();
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void captureNamesTheUnreachableKafkaAndCreatesNoSlot(EmbeddedEnvironment env, @TempDir Path dir)
      throws Exception {
    // Given a reachable source with a table, and a Kafka that does not listen
    JdbcServer source = env.sourcePostgres();
    String database = source.createDatabase("nokafka_" + System.nanoTime());
    sql(source, database, "CREATE TABLE items (id int PRIMARY KEY)");
    Path file =
        Files.writeString(
            dir.resolve("capture.properties"),
            "topic.prefix=nokafka\nbootstrap.servers="
                + NO_KAFKA
                + "\nschema.registry.url=http://127.0.0.1:1\nsource.hostname="
                + source.host()
                + "\nsource.port="
                + source.port()
                + "\nsource.database="
                + database
                + "\nsource.user="
                + source.user()
                + "\nsource.password="
                + source.password()
                + "\ntables=public.items\n");

    // When the capture starts
    int exit = run("capture", "-c", file.toString());

    // Then one line names Kafka, and the source is as it was
    assertThat(exit).isEqualTo(ExitCode.FAILURE.code());
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).startsWith("cdc-compare: cannot reach Kafka at " + NO_KAFKA);
    assertThat(
            count(
                source,
                database,
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'cdc_compare_nokafka'"))
        .isZero();
    assertThat(count(source, database, "SELECT count(*) FROM pg_namespace WHERE nspname = 'repi'"))
        .isZero();
  }

  @Test
  void verifyNamesTheUnreachableKafkaAndCreatesNoBookkeeping(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    // Given a reachable target, and a Kafka that does not listen
    JdbcServer target = env.targetPostgres();
    String database = target.createDatabase("nokafka_" + System.nanoTime());
    Path file =
        Files.writeString(
            dir.resolve("targets.properties"),
            "topic.prefix=nokafka\nbootstrap.servers="
                + NO_KAFKA
                + "\nschema.registry.url=http://127.0.0.1:1\ntables=public.items"
                + "\ntarget.a.url="
                + target.jdbcUrl(database)
                + "\ntarget.a.user="
                + target.user()
                + "\ntarget.a.password="
                + target.password()
                + "\n");

    // When target a is verified
    int exit = run("verify", "-c", file.toString());

    // Then one line names Kafka, and the target is as it was
    assertThat(exit).isEqualTo(ExitCode.FAILURE.code());
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).startsWith("cdc-compare: cannot reach Kafka at " + NO_KAFKA);
    assertThat(
            count(
                target,
                database,
                "SELECT count(*) FROM information_schema.tables"
                    + " WHERE table_name LIKE 'cdc_compare%'"))
        .isZero();
  }

  private static void sql(JdbcServer server, String database, String statement) throws Exception {
    try (Connection c = server.connect(database);
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private static long count(JdbcServer server, String database, String query) throws Exception {
    try (Connection c = server.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
