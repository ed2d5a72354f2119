package io.cdccompare.jdbc.sql;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The physical type of a column as the JDBC driver describes it: PostgreSQL names such as {@code
 * int4}, {@code timestamptz}, {@code bpchar}; MariaDB names such as {@code DATETIME}, {@code
 * BOOLEAN} (a {@code TINYINT(1)}), {@code BIGINT UNSIGNED}, {@code JSON}, {@code uuid}.
 *
 * @param typeName the driver's type name, lowercased
 * @param jdbcType the {@link java.sql.Types} code
 */
public record ColumnType(String typeName, int jdbcType, int precision, int scale) {

  public ColumnType {
    if (typeName == null || typeName.isBlank()) {
      throw new IllegalArgumentException("a column type needs a name");
    }
    typeName = typeName.strip().toLowerCase(Locale.ROOT);
  }

  public static ColumnType of(String typeName) {
    return new ColumnType(typeName, java.sql.Types.OTHER, 0, 0);
  }

  /** The type of column {@code column} (1-based) of a result set. */
  public static ColumnType of(ResultSetMetaData metaData, int column) throws SQLException {
    return new ColumnType(
        metaData.getColumnTypeName(column),
        metaData.getColumnType(column),
        metaData.getPrecision(column),
        metaData.getScale(column));
  }

  /** The name without {@code unsigned}/{@code signed} and {@code zerofill}. */
  public String baseName() {
    return typeName.replace(" unsigned", "").replace(" signed", "").replace(" zerofill", "");
  }

  public boolean isUnsigned() {
    return typeName.contains("unsigned");
  }
}
