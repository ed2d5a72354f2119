package io.cdccompare.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;

/**
 * A single-node Kafka broker in KRaft mode (broker and controller in one process), run from the
 * official {@code kafka.Kafka} entry point in a child JVM after {@code kafka-storage format
 * --standalone}. Offsets and transaction state have replication factor 1, so transactions work.
 */
public final class KafkaServer extends ChildProcessServer {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final int controllerPort;

  KafkaServer(Path dir, int port) {
    super(Component.KAFKA, dir, "kafka.log", port);
    this.controllerPort = FreePort.next();
  }

  /** The {@code bootstrap.servers} value for clients. */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  @Override
  public void start() {
    try {
      Files.createDirectories(dir);
      refuseTakenPort();
      Path config = writeConfig();
      if (!Files.exists(dir.resolve("data").resolve("meta.properties"))) {
        format(config); // not on a restart: the data directory keeps its cluster id
      }
      process =
          ChildProcess.start(
              "kafka",
              JavaCommand.onOwnClassPath(
                  "512m",
                  List.of(
                      "-Dlog4j2.configurationFile=" + writeLog4j(),
                      "-Dlogback.configurationFile="
                          + ChildLogging.logbackConfig(dir, "kafka.server", "INFO"),
                      "-Dkafka.logs.dir=" + dir.resolve("logs")),
                  "kafka.Kafka",
                  List.of(config.toString())),
              dir,
              Map.of(),
              log);
      awaitReady();
    } catch (IOException e) {
      throw new ComponentStartException(component(), log, e.toString(), e);
    }
  }

  private Path writeConfig() throws IOException {
    Path config = dir.resolve("server.properties");
    String text =
        String.join(
            "\n",
            "process.roles=broker,controller",
            "node.id=1",
            "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
            "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
            "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
            "controller.listener.names=CONTROLLER",
            "inter.broker.listener.name=PLAINTEXT",
            "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "log.dirs=" + dir.resolve("data"),
            "num.partitions=1",
            "offsets.topic.replication.factor=1",
            "offsets.topic.num.partitions=5",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "transaction.state.log.num.partitions=5",
            "share.coordinator.state.topic.replication.factor=1",
            "share.coordinator.state.topic.min.isr=1",
            "group.initial.rebalance.delay.ms=0",
            "auto.create.topics.enable=false",
            "log.flush.interval.messages=9223372036854775807",
            "log.segment.bytes=67108864",
            "num.network.threads=2",
            "num.io.threads=2",
            "background.threads=2",
            "");
    Files.writeString(config, text);
    return config;
  }

  private Path writeLog4j() throws IOException {
    Path file = dir.resolve("log4j2.properties");
    Files.writeString(
        file,
        String.join(
            "\n",
            "status = warn",
            "appender.out.type = Console",
            "appender.out.name = OUT",
            "appender.out.layout.type = PatternLayout",
            "appender.out.layout.pattern = [%d] %p %m (%c)%n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.out.ref = OUT",
            "logger.kafka.name = kafka",
            "logger.kafka.level = WARN",
            "logger.org.name = org.apache.kafka",
            "logger.org.level = WARN",
            "logger.started.name = kafka.server.KafkaRaftServer",
            "logger.started.level = INFO",
            ""));
    return file;
  }

  private void format(Path config) {
    int exit =
        ChildProcess.run(
            "kafka-storage format",
            JavaCommand.onOwnClassPath(
                "256m",
                List.of(
                    "-Dlog4j2.configurationFile=" + dir.resolve("log4j2.properties"),
                    "-Dlogback.configurationFile=" + dir.resolve("logback.xml")),
                "kafka.tools.StorageTool",
                List.of(
                    "format",
                    "--standalone",
                    "--ignore-formatted",
                    "-t",
                    Uuid.randomUuid().toString(),
                    "-c",
                    config.toString())),
            dir,
            Map.of(),
            log,
            Duration.ofSeconds(60));
    if (exit != 0) {
      throw new ComponentStartException(
          component(), log, "kafka-storage format exited with " + exit, null);
    }
  }

  private void awaitReady() {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
    props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200");
    try (Admin admin = Admin.create(props)) {
      Readiness.await(
          component(),
          log,
          process,
          bootstrapServers(),
          START_TIMEOUT,
          Duration.ofMillis(200),
          () ->
              admin
                  .describeCluster(new DescribeClusterOptions().timeoutMs(2000))
                  .nodes()
                  .get(3, TimeUnit.SECONDS));
    }
  }

  /**
   * Stops the broker as an operator does (SIGTERM, a controlled shutdown), keeping its data
   * directory: {@link #start()} or {@link #restart()} brings the same topics, offsets and
   * transactions back on the same port.
   */
  public void stopKeepingData() {
    stop("TERM", Duration.ofSeconds(15));
  }

  /** Stops the broker keeping its data, then starts it again on the same data and port. */
  public void restart() {
    stopKeepingData();
    start();
  }

  @Override
  public void close() {
    stopKeepingData();
  }
}
