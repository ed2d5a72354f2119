package io.cdccompare.jdbc.sql;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Values of cdc-compare's own tables as the dialects read them back. */
public final class StoredValues {

  private StoredValues() {}

  /**
   * A {@link StoredType#TIMESTAMP_UTC} value as the dialect's reader gives it: an {@code
   * OffsetDateTime} (PostgreSQL {@code timestamptz}) or a UTC wall clock (MariaDB {@code
   * DATETIME}).
   */
  public static Instant instant(Object value) {
    if (value instanceof OffsetDateTime instant) {
      return instant.toInstant();
    }
    if (value instanceof LocalDateTime utc) {
      return utc.toInstant(ZoneOffset.UTC);
    }
    throw new IllegalStateException("not a stored timestamp: " + value);
  }
}
