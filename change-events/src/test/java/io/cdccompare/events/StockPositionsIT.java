package io.cdccompare.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.ConnectClient;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.testsupport.SourceFixture;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * What the plan for stock Debezium pipelines rests on (docs/design.md, "Stock Debezium pipelines"),
 * shown on a real Debezium PostgreSQL connector in a real Kafka Connect worker: two transactions
 * interleaved in the WAL (the first to begin writes first and commits last) reach the topic in
 * commit order; every event of one transaction carries the commit LSN of the transaction streamed
 * before it, which orders them ({@link StockSourcePosition}) although the event LSNs do not; and
 * the offset the worker stores for the connector reaches a transaction's commit once the next
 * transaction's event is in the topic.
 */
@WithEmbedded({Component.KAFKA, Component.SOURCE_POSTGRES, Component.CONNECT})
class StockPositionsIT {
  private static final Duration DELIVERY = Duration.ofSeconds(90);

  @Test
  void eventsAreOrderedByTheirTransactionsCommitNotByTheirOwnLsn(EmbeddedEnvironment env)
      throws Exception {
    // Given a Debezium PostgreSQL connector streaming an empty table
    SourceFixture source = new SourceFixture(env, "stock");
    source.sql("CREATE TABLE items (id int PRIMARY KEY, v int NOT NULL)");
    ConnectClient connect = env.connect().client();
    String connector = "stock-" + source.prefix;
    String slot = "stock_" + source.prefix.toLowerCase(Locale.ROOT);
    String topic = source.prefix + ".public.items";
    connect.create(connector, connectorConfig(source, slot));
    try {
      await("the connector streaming from its slot")
          .atMost(DELIVERY)
          .ignoreExceptions()
          .until(
              () -> {
                ConnectClient.ConnectorStatus status = connect.status(connector);
                assertThat(status.tasks()).noneMatch(t -> t.state().equals("FAILED"));
                return status.allIn("RUNNING")
                    && !source
                        .rows(
                            "SELECT 1 FROM pg_replication_slots WHERE active AND slot_name = '"
                                + slot
                                + "'")
                        .isEmpty();
              });
      source.sql("INSERT INTO items VALUES (100, 0)");
      await("the first streamed change")
          .atMost(DELIVERY)
          .ignoreExceptions()
          .until(() -> events(source, topic).size() == 1);

      // When transaction one writes first, transaction two writes and commits, then one writes
      // again and commits; each commit's LSN bounded by the WAL insert position around it
      long[] bounds = new long[4];
      try (Connection one = source.connect();
          Connection two = source.connect()) {
        one.setAutoCommit(false);
        two.setAutoCommit(false);
        execute(one, "INSERT INTO items VALUES (1, 1)");
        execute(two, "INSERT INTO items VALUES (2, 2)");
        bounds[0] = walInsert(two);
        two.commit();
        bounds[1] = walInsert(source);
        execute(one, "INSERT INTO items VALUES (3, 3)");
        bounds[2] = walInsert(one);
        one.commit();
        bounds[3] = walInsert(source);
      }

      // And a third transaction after them
      source.sql("INSERT INTO items VALUES (4, 4)");

      // Then the topic holds transaction two's change before transaction one's
      List<Event> events = new ArrayList<>();
      await("the interleaved changes")
          .atMost(DELIVERY)
          .ignoreExceptions()
          .until(
              () -> {
                events.clear();
                events.addAll(events(source, topic));
                return events.size() == 5;
              });
      assertThat(events.stream().map(Event::id)).containsExactly(100, 2, 1, 3, 4);
      StockSourcePosition two = events.get(1).position();
      StockSourcePosition oneFirst = events.get(2).position();
      StockSourcePosition oneSecond = events.get(3).position();
      StockSourcePosition three = events.get(4).position();

      // And the event LSNs do not order the transactions: one's first change was written before
      // two's, and one's second after two's commit
      assertThat(oneFirst.lsn()).isLessThan(two.lsn());
      assertThat(oneSecond.lsn()).isGreaterThanOrEqualTo(bounds[1]);

      // And every event of a transaction carries the commit of the transaction streamed before
      // it, which orders them: one's events carry two's commit, three's carries one's
      assertThat(oneFirst.lastCommitLsn()).isEqualTo(oneSecond.lastCommitLsn());
      assertThat(oneFirst.txId()).isEqualTo(oneSecond.txId()).isNotEqualTo(two.txId());
      assertThat(oneFirst.lastCommitLsn().getAsLong()).isBetween(bounds[0], bounds[1]);
      assertThat(three.lastCommitLsn().getAsLong()).isBetween(bounds[2], bounds[3]);
      assertThat(two.transactionBefore(oneFirst)).isTrue();
      assertThat(oneFirst.transactionBefore(three)).isTrue();
      assertThat(oneSecond.transactionBefore(oneFirst)).isFalse();

      // And the offset the worker stores reaches transaction one's commit once three's event is
      // in the topic (an event's stored offset names the commit before its own transaction)
      await("the stored offset at transaction one's commit")
          .atMost(DELIVERY)
          .ignoreExceptions()
          .until(
              () ->
                  connect.offsets(connector).stream()
                      .anyMatch(o -> ((Number) o.get("lsn_commit")).longValue() >= bounds[2]));
    } finally {
      connect.delete(connector);
      source.dropSlot(slot);
    }
  }

  /** One change event of the topic: the row's id and the event's position. */
  private record Event(int id, StockSourcePosition position) {}

  private static List<Event> events(SourceFixture source, String topic) {
    JsonConverter values = new JsonConverter();
    values.configure(Map.of("schemas.enable", "true"), false);
    List<Event> events = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : source.readAll(topic)) {
      Struct envelope = (Struct) values.toConnectData(topic, r.value()).value();
      events.add(
          new Event(
              envelope.getStruct("after").getInt32("id"),
              StockSourcePosition.of(envelope.getStruct("source"))));
    }
    return events;
  }

  private static Map<String, String> connectorConfig(SourceFixture source, String slot) {
    Map<String, String> config = source.debeziumConnector(slot, "public.items");
    config.put("snapshot.mode", "no_data"); // streaming only: every event has a log position
    for (String side : List.of("key", "value")) {
      config.put(side + ".converter", "org.apache.kafka.connect.json.JsonConverter");
      config.put(side + ".converter.schemas.enable", "true");
    }
    return config;
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** The WAL insert position, read in {@code c}'s transaction. */
  private static long walInsert(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
      rs.next();
      return SourcePosition.parseLsn(rs.getString(1));
    }
  }

  private static long walInsert(SourceFixture source) throws SQLException {
    try (Connection c = source.connect()) {
      return walInsert(c);
    }
  }
}
