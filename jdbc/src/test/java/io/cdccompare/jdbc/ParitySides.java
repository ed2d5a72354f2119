package io.cdccompare.jdbc;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.TableHashRules;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.hash.JdbcRowHasher.Side;
import io.cdccompare.jdbc.hash.TableCatalog;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a table on one side through the JDBC path and hashes every row, keyed by id. */
final class ParitySides {

  /** One hashed row: its hash and, for diagnostics, its canonical text. */
  record HashedRow(String hash, String text) {}

  private ParitySides() {}

  /** The hash plan of a table from the PostgreSQL (source) catalog, with the given rules. */
  static HashPlan sourcePlan(Connection postgres, TableHashRules rules) throws SQLException {
    Dialect dialect = Dialect.forJdbcUrl(postgres.getMetaData().getURL());
    Map<String, ColumnType> columns =
        TableCatalog.describe(postgres, dialect, TableRef.of(rules.table()));
    return rules.resolve(TableCatalog.sourceColumns(dialect, columns));
  }

  /** id → hashed row, reading this side's table in id order. */
  static Map<Long, HashedRow> hashAll(
      Connection connection, HashPlan plan, Side side, CanonicalFormat format) throws SQLException {
    Dialect dialect = Dialect.forJdbcUrl(connection.getMetaData().getURL());
    TableRef table = TableRef.of(plan.table());
    Map<String, ColumnType> types = TableCatalog.describe(connection, dialect, table);
    JdbcRowHasher hasher =
        new JdbcRowHasher(plan, side, dialect, types, format, HashFunction.md5(), 2);
    List<String> selectList = new java.util.ArrayList<>(List.of(dialect.quote("id")));
    selectList.addAll(hasher.selectList());
    String sql = dialect.selectAllSql(table, selectList, List.of("id"));
    Map<Long, HashedRow> result = new LinkedHashMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      while (rows.next()) {
        long id = rows.getLong(1);
        String text = hasher.canonicalText(rows);
        result.put(id, new HashedRow(hasher.hash(rows).hex(), text));
      }
    }
    return result;
  }
}
