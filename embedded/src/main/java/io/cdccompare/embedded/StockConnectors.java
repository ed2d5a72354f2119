package io.cdccompare.embedded;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of the stock connectors a platform team runs on Kafka Connect, as the tests, the
 * demo's worker and the benchmarks give them to the embedded worker ({@link ConnectServer}):
 * Debezium's PostgreSQL connector, Debezium's JDBC sink, and the converters (JSON with schemas, or
 * Avro through the registry with Apicurio's converter). Each call returns a new mutable map the
 * caller adds to.
 */
public final class StockConnectors {
  private StockConnectors() {}

  /**
   * Debezium's PostgreSQL connector on {@code database} of {@code pg}: pgoutput, the slot {@code
   * slot} and a publication of the same name filtered to {@code tables} ({@code schema.table,...}),
   * topics created with one partition (the broker creates none by itself). Converters and the
   * snapshot mode are the caller's.
   */
  public static Map<String, String> debeziumPostgres(
      PostgresServer pg, String database, String topicPrefix, String slot, String tables) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    config.put("tasks.max", "1");
    config.put("database.hostname", pg.host());
    config.put("database.port", Integer.toString(pg.port()));
    config.put("database.user", pg.user());
    config.put("database.password", pg.password());
    config.put("database.dbname", database);
    config.put("topic.prefix", topicPrefix);
    config.put("plugin.name", "pgoutput");
    config.put("slot.name", slot);
    config.put("publication.name", "pub_" + slot);
    config.put("publication.autocreate.mode", "filtered");
    config.put("table.include.list", tables);
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    return config;
  }

  /**
   * Debezium's JDBC sink writing {@code topics} into {@code table} of {@code database} on {@code
   * server}: upserts and deletes by the record key, the table as it is (no schema evolution).
   */
  public static Map<String, String> jdbcSink(
      JdbcServer server, String database, String topics, String table) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.debezium.connector.jdbc.JdbcSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", topics);
    config.put("connection.url", server.jdbcUrl(database));
    config.put("connection.username", server.user());
    config.put("connection.password", server.password());
    config.put("insert.mode", "upsert");
    config.put("delete.enabled", "true");
    config.put("primary.key.mode", "record_key");
    config.put("schema.evolution", "none");
    config.put("collection.name.format", table);
    return config;
  }

  /** Key and value converters: JSON with schemas. */
  public static Map<String, String> jsonConverters() {
    Map<String, String> converters = new HashMap<>();
    for (String side : List.of("key.converter", "value.converter")) {
      converters.put(side, "org.apache.kafka.connect.json.JsonConverter");
      converters.put(side + ".schemas.enable", "true");
    }
    return converters;
  }

  /** Key and value converters: Avro through {@code registry}, with Apicurio's converter. */
  public static Map<String, String> avroConverters(RegistryServer registry) {
    Map<String, String> converters = new HashMap<>();
    for (String side : List.of("key.converter", "value.converter")) {
      converters.put(side, "io.apicurio.registry.utils.converter.AvroConverter");
      converters.put(side + ".apicurio.registry.url", registry.apicurioApiUrl());
      converters.put(side + ".apicurio.registry.auto-register", "true");
      converters.put(side + ".apicurio.registry.find-latest", "true");
    }
    return converters;
  }
}
