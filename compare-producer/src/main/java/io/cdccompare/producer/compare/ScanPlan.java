package io.cdccompare.producer.compare;

import io.cdccompare.core.compare.ComparedShape;
import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.jdbc.hash.JdbcKeyReader;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.hash.KeyBinder;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.KeysetQueries;
import io.cdccompare.jdbc.sql.TableRef;
import java.util.List;
import java.util.Map;

/**
 * A table task resolved against the source catalog: every name checked, the key and compared
 * columns fixed, the table topic and its partition count known. Everything a chunk read needs is
 * built from it; nothing in it touches the database.
 *
 * @param keyColumns the source key columns, in key order
 * @param physicalTypes every source column's physical type
 * @param topic the table topic the capture writes the table's changes and markers to
 * @param hashLength bytes per row hash of {@code hashFunction}
 * @param partitions that topic's partition count (the key-to-partition mapping); 1 with an external
 *     capture, whose chunks are judged whole (one logical partition)
 * @param externalCapture whether a Debezium connector on Kafka Connect captures the table ({@link
 *     CompareConfig#externalCapture}): its topic may have any partition count, and every CLOSE note
 *     is followed by a tick ({@link TaskBookkeeping#tick})
 */
record ScanPlan(
    TableTask task,
    Dialect dialect,
    TableRef table,
    List<String> keyColumns,
    KeyCodec keyCodec,
    Map<String, ColumnType> physicalTypes,
    ComparedShape shape,
    HashFunction hashFunction,
    int hashLength,
    String topic,
    int partitions,
    boolean externalCapture) {

  ScanPlan {
    keyColumns = List.copyOf(keyColumns);
    physicalTypes = Map.copyOf(physicalTypes);
  }

  /** Reads the key columns from result set column 1 on. */
  JdbcKeyReader keyReader() {
    return new JdbcKeyReader(dialect, keyCodec, keyColumns, physicalTypes, 1);
  }

  /** Hashes the compared columns selected after the key columns. */
  JdbcRowHasher rowHasher() {
    return new JdbcRowHasher(
        shape.plan(),
        JdbcRowHasher.Side.SOURCE,
        dialect,
        physicalTypes,
        shape.format(),
        hashFunction,
        keyColumns.size() + 1);
  }

  KeyBinder keyBinder() {
    return new KeyBinder(dialect, keyCodec, keyColumns, physicalTypes);
  }

  KeysetQueries queries() {
    return new KeysetQueries(dialect, table, keyColumns, keyBinder().placeholders());
  }
}
