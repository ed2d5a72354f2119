package io.cdccompare.embedded;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * A stock Kafka Connect worker in distributed mode ({@code
 * org.apache.kafka.connect.cli.ConnectDistributed} from {@code connect-runtime}) in a child JVM,
 * with Debezium's PostgreSQL source, Debezium's JDBC sink and Apicurio's Avro converter each in its
 * own folder of {@code plugin.path}. The worker's class path is its own ({@link
 * ConnectInstallation}), not this JVM's: no plugin or Connect jar is on a class path of ours.
 *
 * <p>Its group and its config, offset and status topics are named once per server, so {@link
 * #start()} after {@link #kill()} and {@link #restart()} bring back the same cluster: connectors
 * come back from the config topic, source offsets from the offset topic.
 */
public final class ConnectServer extends ChildProcessServer {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

  /** The plugins the worker must list before it counts as started. */
  static final List<String> PLUGIN_CLASSES =
      List.of(
          "io.debezium.connector.postgresql.PostgresConnector",
          "io.debezium.connector.jdbc.JdbcSinkConnector",
          "io.apicurio.registry.utils.converter.AvroConverter");

  private final String bootstrapServers;
  private final String clusterName;

  ConnectServer(Path dir, int port, String bootstrapServers) {
    super(Component.CONNECT, dir, "connect.log", port);
    this.bootstrapServers = bootstrapServers;
    this.clusterName = "connect-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** The worker's REST API, e.g. {@code http://127.0.0.1:8083}. */
  public String restUrl() {
    return "http://127.0.0.1:" + port;
  }

  /** A client of the worker's REST API. */
  public ConnectClient client() {
    return new ConnectClient(restUrl());
  }

  /** The worker's {@code group.id}; its internal topics start with it. */
  public String groupId() {
    return clusterName;
  }

  /** The worker's config, offset and status topics. */
  public List<String> internalTopics() {
    return List.of(clusterName + "-configs", clusterName + "-offsets", clusterName + "-status");
  }

  @Override
  public void start() {
    try {
      Files.createDirectories(dir);
      refuseTakenPort();
      ConnectInstallation installation = ConnectInstallation.locate();
      Path config = writeConfig(installation);
      String classPath =
          RegistryServer.ownCodeLocation() + File.pathSeparator + installation.classPath();
      process =
          ChildProcess.start(
              "connect",
              JavaCommand.onClassPath(
                  "384m",
                  List.of(
                      "-Dlogback.configurationFile="
                          + ChildLogging.logbackConfig(
                              dir, "org.apache.kafka.connect.runtime.Connect", "INFO")),
                  classPath,
                  "org.apache.kafka.connect.cli.ConnectDistributed",
                  List.of(config.toString())),
              dir,
              Map.of(),
              log);
      awaitReady();
    } catch (IOException e) {
      throw new ComponentStartException(component(), log, e.toString(), e);
    }
  }

  private Path writeConfig(ConnectInstallation installation) throws IOException {
    List<String> topics = internalTopics();
    Path config = dir.resolve("connect-distributed.properties");
    String text =
        String.join(
            "\n",
            "bootstrap.servers=" + bootstrapServers,
            "group.id=" + clusterName,
            "config.storage.topic=" + topics.get(0),
            "config.storage.replication.factor=1",
            "offset.storage.topic=" + topics.get(1),
            "offset.storage.replication.factor=1",
            "offset.storage.partitions=1",
            "status.storage.topic=" + topics.get(2),
            "status.storage.replication.factor=1",
            "status.storage.partitions=1",
            "key.converter=org.apache.kafka.connect.json.JsonConverter",
            "value.converter=org.apache.kafka.connect.json.JsonConverter",
            "key.converter.schemas.enable=true",
            "value.converter.schemas.enable=true",
            "listeners=http://127.0.0.1:" + port,
            "rest.advertised.host.name=127.0.0.1",
            "rest.advertised.port=" + port,
            "plugin.path="
                + installation.pluginPath().stream()
                    .map(Path::toString)
                    .collect(Collectors.joining(",")),
            // a source's offsets and a sink's commits within a second, not a minute
            "offset.flush.interval.ms=1000",
            // a killed worker's group member (and its sink tasks' consumers) expire in seconds
            "session.timeout.ms=6000",
            "heartbeat.interval.ms=2000",
            "consumer.session.timeout.ms=6000",
            "consumer.heartbeat.interval.ms=2000",
            "");
    Files.writeString(config, text);
    return config;
  }

  private void awaitReady() {
    ConnectClient client = client();
    Readiness.await(
        component(),
        log,
        process,
        restUrl(),
        START_TIMEOUT,
        Duration.ofMillis(250),
        () -> {
          client.connectors();
          List<String> plugins = client.plugins();
          if (!plugins.containsAll(PLUGIN_CLASSES)) {
            throw new IOException("plugins listed: " + plugins);
          }
        });
  }

  /**
   * Stops the worker as an operator does (SIGTERM: its tasks stop and commit), then starts it again
   * with the same group, topics and port.
   */
  public void restart() {
    close();
    start();
  }

  @Override
  public void close() {
    stop("TERM", Duration.ofSeconds(20));
  }
}
