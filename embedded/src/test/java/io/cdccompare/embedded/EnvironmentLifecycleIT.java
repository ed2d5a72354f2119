package io.cdccompare.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The environment leaves nothing behind and fails loudly when a server cannot start. */
class EnvironmentLifecycleIT {

  @Test
  void closeStopsEveryProcessAndDeletesEveryTemporaryDirectory() {
    // Given: every component running
    EmbeddedEnvironment env = EmbeddedEnvironment.start(Component.all());
    Path root = env.root();
    List<ProcessHandle> processes = env.processes();
    assertThat(processes).allMatch(ProcessHandle::isAlive);
    assertThat(commandLinesMentioning(root)).isNotEmpty();
    assertThat(processes.size()).isGreaterThanOrEqualTo(5);

    // When
    env.close();

    // Then
    assertThat(processes).noneMatch(ProcessHandle::isAlive);
    assertThat(commandLinesMentioning(root)).isEmpty();
    assertThat(root).doesNotExist();
  }

  private static List<String> commandLinesMentioning(Path root) {
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .map(p -> p.info().commandLine().orElse(""))
        .filter(cmd -> cmd.contains(root.toString()))
        .toList();
  }

  @Test
  void kafkaOnATakenPortFailsNamingTheComponentAndItsLog(@TempDir Path dir) throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      KafkaServer kafka = new KafkaServer(dir.resolve("kafka"), taken.getLocalPort());
      assertThatThrownBy(kafka::start)
          .isInstanceOf(ComponentStartException.class)
          .hasMessageContaining("kafka failed to start")
          .hasMessageContaining("port " + taken.getLocalPort())
          .hasMessageContaining(dir.resolve("kafka").resolve("kafka.log").toString());
      assertThat(kafka.processes()).isEmpty();
    }
  }

  @Test
  void postgresOnATakenPortFailsNamingTheComponentAndItsLog(@TempDir Path dir) throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      PostgresServer pg =
          new PostgresServer(Component.TARGET_POSTGRES, dir.resolve("pg"), taken.getLocalPort());
      assertThatThrownBy(pg::start)
          .isInstanceOf(ComponentStartException.class)
          .hasMessageContaining("postgres-target failed to start")
          .hasMessageContaining(dir.resolve("pg").resolve("postgres.log").toString());
    }
  }

  @Test
  void aServerThatDiesDuringStartFailsFastWithItsLog(@TempDir Path dir) throws IOException {
    // Given: a data directory that is a file, so initdb fails at once
    Path pgDir = dir.resolve("broken");
    Files.createDirectories(pgDir);
    Files.writeString(pgDir.resolve("data"), "not a directory");
    PostgresServer pg = new PostgresServer(Component.SOURCE_POSTGRES, pgDir, FreePort.next());

    // When / Then
    long t0 = System.nanoTime();
    assertThatThrownBy(pg::start)
        .isInstanceOf(ComponentStartException.class)
        .hasMessageContaining("postgres-source failed to start")
        .hasMessageContaining(pgDir.resolve("postgres.log").toString());
    assertThat((System.nanoTime() - t0) / 1_000_000_000).isLessThan(30);
  }

  @Test
  void unknownComponentNamesAreRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> Component.parseList("kafka,oracle"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown component 'oracle'")
        .hasMessageContaining("mariadb");
    assertThat(Component.parseList("postgres, kafka"))
        .containsExactlyInAnyOrder(
            Component.SOURCE_POSTGRES, Component.TARGET_POSTGRES, Component.KAFKA);
  }

  @Test
  void allIsEveryServerButTheConnectWorkerWhichStartsOnlyWhenNamed() {
    assertThat(Component.parseList("all"))
        .isEqualTo(Component.all())
        .doesNotContain(Component.CONNECT)
        .containsAll(EnumSet.complementOf(EnumSet.of(Component.CONNECT)));
    assertThat(Component.parseList("kafka,connect"))
        .containsExactlyInAnyOrder(Component.KAFKA, Component.CONNECT);
  }
}
