package io.cdccompare.core.rowhash;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;

/**
 * Reads canonical temporal texts back into values, for column functions that work on them and for
 * decoding keys into bind values. The inverse of {@link CanonicalValues} for dates, times and
 * timestamps; {@code Infinity} and {@code -Infinity} are not accepted here (callers keep them as
 * they are). Thread-safe.
 */
public final class CanonicalTextParser {

  private CanonicalTextParser() {}

  /** {@code yyyy-MM-dd}, or an ISO extended year such as {@code +10000-01-01}. */
  public static LocalDate date(String canonical) {
    try {
      return LocalDate.parse(canonical);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("not a canonical date: '" + canonical + "'", e);
    }
  }

  /**
   * {@code [-]HH:mm:ss[.f]} as a duration since midnight: a time of day, PostgreSQL's {@code
   * 24:00:00} or a MariaDB {@code TIME} outside a day.
   */
  public static Duration time(String canonical) {
    return TemporalText.parseTime(canonical);
  }

  /** {@code yyyy-MM-dd HH:mm:ss[.f]}. */
  public static LocalDateTime timestamp(String canonical) {
    int space = canonical.lastIndexOf(' ');
    if (space < 0) {
      throw new IllegalArgumentException("not a canonical timestamp: '" + canonical + "'");
    }
    try {
      return LocalDateTime.of(
          LocalDate.parse(canonical.substring(0, space)),
          LocalTime.parse(canonical.substring(space + 1)));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("not a canonical timestamp: '" + canonical + "'", e);
    }
  }
}
