package io.cdccompare.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fault-test controls of the servers: a broker stopped and started on its own data, a broker
 * paused (up but unreachable), a target database restarted. Each keeps what was committed before.
 * Its own environment: the shared one is never restarted.
 */
class ServerRestartIT {
  private static EmbeddedEnvironment env;

  @BeforeAll
  static void start() {
    env =
        EmbeddedEnvironment.start(
            EnumSet.of(Component.KAFKA, Component.TARGET_POSTGRES, Component.MARIADB));
  }

  @AfterAll
  static void stop() {
    env.close();
  }

  @Test
  void brokerRestartKeepsItsTopicsAndPauseMakesItUnreachableUntilResumed() throws Exception {
    // Given a topic
    try (Admin admin = admin()) {
      admin
          .createTopics(List.of(new NewTopic("kept", 3, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    long pidBefore = env.kafka().processes().get(0).pid();

    // When the broker is stopped and started on the same data
    env.kafka().restart();

    // Then it is another process, on the same port, that still has the topic
    assertThat(env.kafka().processes().get(0).pid()).isNotEqualTo(pidBefore);
    try (Admin admin = admin()) {
      assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("kept");

      // When it is paused, a request times out; once resumed, it answers again
      env.kafka().pause();
      try {
        assertThat(env.kafka().processes())
            .as("every process of the broker is stopped (state T)")
            .isNotEmpty()
            .allSatisfy(h -> assertThat(processState(h)).isEqualTo("T"));
        assertThatThrownBy(() -> admin.listTopics().names().get(3, TimeUnit.SECONDS))
            .isInstanceOfAny(TimeoutException.class, ExecutionException.class);
      } finally {
        env.kafka().resume();
      }
      assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("kept");
    }
  }

  @Test
  void targetPostgresRestartKeepsCommittedRowsAndBreaksOpenConnections() throws Exception {
    restartKeepsRowsAndBreaksConnections(env.targetPostgres(), env.targetPostgres()::restart);
  }

  @Test
  void mariadbRestartKeepsCommittedRowsAndBreaksOpenConnections() throws Exception {
    restartKeepsRowsAndBreaksConnections(env.mariadb(), env.mariadb()::restart);
  }

  private static void restartKeepsRowsAndBreaksConnections(JdbcServer server, Runnable restart)
      throws SQLException {
    // Given a committed row and an open connection
    String db = server.createDatabase("restart_" + server.port());
    try (Connection open = server.connect(db);
        Statement s = open.createStatement()) {
      s.execute("CREATE TABLE t (id int PRIMARY KEY)");
      s.execute("INSERT INTO t VALUES (7)");

      // When the server restarts
      restart.run();

      // Then the open connection is broken, and a new one finds the row
      assertThatThrownBy(() -> s.executeQuery("SELECT 1")).isInstanceOf(SQLException.class);
    }
    try (Connection c = server.connect(db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id FROM t")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(7);
    }
  }

  private static String processState(ProcessHandle h) {
    try {
      String stat =
          java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + h.pid() + "/stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[0];
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Admin admin() {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            env.kafka().bootstrapServers(),
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
            (int) Duration.ofSeconds(2).toMillis(),
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) Duration.ofSeconds(3).toMillis()));
  }
}
