package io.cdccompare.producer.compare;

import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.jdbc.hash.TableCatalog;
import io.cdccompare.jdbc.sql.ColumnType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * DDL on the source during a table's run (docs/faults.md): the run hashes with the columns and
 * types it resolved when the table's run began, so a column added later is not compared and a chunk
 * read that still works is hashed by the old rules on both sides. When a chunk read fails
 * (PostgreSQL refuses a prepared chunk query whose result type changed: "cached plan must not
 * change result type"), this tells whether a selected column was dropped or changed its type, so
 * the run stops with a {@code SCHEMA_DRIFT} error naming the table and the column instead of the
 * driver's message. Run again, the table restarts from its first key under a new run, since its
 * compared shape has another fingerprint.
 */
final class SourceSchemaChange {
  private SourceSchemaChange() {}

  /**
   * The error naming what changed, or empty when every selected column is as the run resolved it
   * (then the read failed for another reason).
   */
  static Optional<CdcCompareException> afterFailedRead(
      Connection catalog, ScanPlan plan, String runId, long chunk, SQLException readFailure) {
    Map<String, ColumnType> now;
    try {
      now = TableCatalog.describe(catalog, plan.dialect(), plan.table());
    } catch (SQLException e) {
      return Optional.empty();
    }
    List<String> selected = new ArrayList<>(plan.keyColumns());
    plan.shape().plan().columns().stream().map(HashedColumn::sourceName).forEach(selected::add);
    for (String column : selected) {
      ColumnType was = plan.physicalTypes().get(column);
      ColumnType is = now.get(column);
      if (was == null || was.equals(is)) {
        continue;
      }
      String change =
          is == null
              ? "column '" + column + "' was dropped"
              : "column '"
                  + column
                  + "' is now "
                  + is.typeName()
                  + ", the run compares it as "
                  + was.typeName();
      return Optional.of(
          new CdcCompareException(
              ErrorCode.SCHEMA_DRIFT,
              "table "
                  + plan.task().table()
                  + " changed on the source during run "
                  + runId
                  + ": "
                  + change
                  + "; chunk "
                  + chunk
                  + " is not closed. Run the compare again: the table restarts from its first"
                  + " key under a new run",
              readFailure));
    }
    return Optional.empty();
  }
}
