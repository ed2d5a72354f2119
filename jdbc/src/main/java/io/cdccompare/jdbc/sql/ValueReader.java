package io.cdccompare.jdbc.sql;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Reads one column of the current row as the Java value that {@link
 * io.cdccompare.core.rowhash.CanonicalValues} accepts for the column's logical type; {@code null}
 * for SQL NULL.
 */
@FunctionalInterface
public interface ValueReader {
  Object read(ResultSet row, int column) throws SQLException;
}
