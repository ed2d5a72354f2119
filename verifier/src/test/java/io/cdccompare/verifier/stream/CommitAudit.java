package io.cdccompare.verifier.stream;

import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.CheckpointStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Kafka Streams' clients, with the main consumer watched: every offset commit of a table topic is
 * checked, at the moment Streams makes it, against the target's checkpoint read over a connection
 * of its own. A commit past {@code checkpoint + 1} would mark records consumed that the target does
 * not hold: a violation. Also counts the commits that carried table offsets, so a test can show
 * commits really happened while changes were streaming.
 */
final class CommitAudit implements KafkaClientSupplier {
  private final String application;
  private final Set<String> topics;
  private final Supplier<Connection> connections;
  private final Dialect dialect;
  private final String bookkeepingSchema;
  private final List<String> violations = new ArrayList<>();
  private int checkedCommits;
  private Connection connection;

  CommitAudit(
      String application,
      Set<String> topics,
      Supplier<Connection> connections,
      String jdbcUrl,
      String bookkeepingSchema) {
    this.application = application;
    this.topics = Set.copyOf(topics);
    this.connections = connections;
    this.dialect = Dialect.forJdbcUrl(jdbcUrl);
    this.bookkeepingSchema = bookkeepingSchema;
  }

  /**
   * The audit of a verifier whose target is {@code database} on {@code server}, with its
   * bookkeeping in the connection's current schema, over the topic of {@code table}.
   */
  static CommitAudit of(
      VerifierSettings settings,
      io.cdccompare.embedded.JdbcServer server,
      String database,
      io.cdccompare.core.table.TableName table) {
    return new CommitAudit(
        settings.applicationId(),
        Set.of(settings.tables().topicOf(table)),
        () -> {
          try {
            return server.connect(database);
          } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
          }
        },
        server.jdbcUrl(database),
        null);
  }

  synchronized List<String> violations() {
    return List.copyOf(violations);
  }

  synchronized int checkedCommits() {
    return checkedCommits;
  }

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return Admin.create(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @Override
  @SuppressWarnings("unchecked")
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    Consumer<byte[], byte[]> real = consumer(config);
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (method.getName().startsWith("commit") && args != null && args[0] instanceof Map) {
            audit((Map<TopicPartition, OffsetAndMetadata>) args[0]);
          }
          try {
            return method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return (Consumer<byte[], byte[]>)
        Proxy.newProxyInstance(
            Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class}, handler);
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    return consumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    return consumer(config);
  }

  private static Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  private synchronized void audit(Map<TopicPartition, OffsetAndMetadata> offsets)
      throws SQLException {
    boolean table = false;
    for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
      TopicPartition tp = e.getKey();
      if (!topics.contains(tp.topic())) {
        continue;
      }
      table = true;
      if (connection != null && !connection.isValid(5)) {
        connection.close(); // the target restarted: audit over a new connection
        connection = null;
      }
      if (connection == null) {
        connection = connections.get();
      }
      Optional<Checkpoint> checkpoint =
          new CheckpointStore(connection, dialect, bookkeepingSchema)
              .find(application, tp.topic(), tp.partition());
      long applied = checkpoint.map(Checkpoint::offset).orElse(-1L);
      if (e.getValue().offset() > applied + 1) {
        violations.add(
            tp + " committed at " + e.getValue().offset() + " but applied up to " + applied);
      }
    }
    if (table) {
      checkedCommits++;
    }
  }

  synchronized void close() throws SQLException {
    if (connection != null) {
      connection.close();
    }
  }
}
