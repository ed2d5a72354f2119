package io.cdccompare.verifier.stream;

import io.cdccompare.core.table.TableName;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A verifier in a child JVM, for crash tests (started through {@code ParentWatchdog}). Its one
 * argument is a properties file: {@code target}, {@code applicationId}, {@code bootstrapServers},
 * {@code registryUrl}, {@code topicPrefix}, {@code table} (schema.table), {@code jdbcUrl}, {@code
 * user}, {@code password}, {@code applyBatchSize}, {@code applyMaxDelayMs}, {@code stateDir}, and
 * {@code streams.<key>} for each extra Kafka Streams property; optionally {@code targetTable}
 * (schema.table, or database.table on MariaDB; default the source table) and {@code
 * bookkeepingSchema}. Runs until it is killed; exits 1 when a stream thread fails.
 */
public final class VerifierProcess {
  private static final Logger LOG = LoggerFactory.getLogger(VerifierProcess.class);

  private VerifierProcess() {}

  public static void main(String[] args) throws Exception {
    Properties file = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(args[0]))) {
      file.load(in);
    }
    VerifierSettings settings = settings(file);
    ResultsTopic.ensure(settings);
    Properties props = VerifyTopologyFactory.streamsProperties(settings);
    props.put(StreamsConfig.STATE_DIR_CONFIG, file.getProperty("stateDir"));
    KafkaStreams streams = new KafkaStreams(VerifyTopologyFactory.build(settings), props);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch stopped = new CountDownLatch(1);
    streams.setUncaughtExceptionHandler(
        e -> {
          failure.compareAndSet(null, e);
          stopped.countDown();
          return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
    streams.setStateListener(
        (now, before) -> LOG.info("verifier {} state {} -> {}", settings.target(), before, now));
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> streams.close(Duration.ofSeconds(20)), "verifier-stop"));
    streams.start();
    LOG.info("verifier {} started: {}", settings.target(), settings);
    stopped.await();
    LOG.error("verifier {} failed", settings.target(), failure.get());
    System.exit(1);
  }

  static VerifierSettings settings(Properties file) {
    TableName source = tableName(file.getProperty("table"));
    String targetTable = file.getProperty("targetTable");
    VerifierSettings.Builder builder =
        VerifierSettings.builder(file.getProperty("target"))
            .applicationId(file.getProperty("applicationId"))
            .bootstrapServers(file.getProperty("bootstrapServers"))
            .registryUrl(file.getProperty("registryUrl"))
            .topicPrefix(file.getProperty("topicPrefix"))
            .target(
                file.getProperty("jdbcUrl"), file.getProperty("user"), file.getProperty("password"))
            .applyBatchSize(Integer.parseInt(file.getProperty("applyBatchSize")))
            .applyMaxDelay(Duration.ofMillis(Long.parseLong(file.getProperty("applyMaxDelayMs"))))
            .bookkeepingSchema(file.getProperty("bookkeepingSchema"));
    if (targetTable == null) {
      builder.table(source);
    } else {
      builder.table(source, tableName(targetTable));
    }
    for (String key : file.stringPropertyNames()) {
      if (key.startsWith("streams.")) {
        builder.streamsProperty(key.substring("streams.".length()), file.getProperty(key));
      }
    }
    return builder.build();
  }

  private static TableName tableName(String qualified) {
    String[] parts = qualified.split("\\.", 2);
    return new TableName(parts[0], parts[1]);
  }
}
