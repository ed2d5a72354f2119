package io.cdccompare.core.rowhash;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * Canonical text of dates, times and timestamps: {@code yyyy-MM-dd}, {@code HH:mm:ss[.f]} and
 * {@code yyyy-MM-dd HH:mm:ss[.f]} where the fraction has at most 9 digits and no trailing zeros. A
 * timestamp with time zone is converted to UTC first; a {@link LocalDateTime} given for one is
 * taken to be UTC already. PostgreSQL's {@code infinity} and {@code -infinity} (the drivers give
 * {@code MAX}/{@code MIN}) are written {@code Infinity} and {@code -Infinity}.
 *
 * <p>A time may lie outside a day: PostgreSQL allows {@code 24:00:00} and a MariaDB {@code TIME} is
 * a duration from {@code -838:59:59} to {@code 838:59:59}; such values are given as a {@link
 * Duration} or as text and written with as many hour digits as needed and a leading {@code -}.
 */
final class TemporalText {

  private TemporalText() {}

  static String date(Object value) {
    if (value instanceof LocalDate date) {
      return date(date);
    }
    throw CanonicalValues.unsupported(LogicalType.DATE, value);
  }

  static String date(LocalDate date) {
    if (date.equals(LocalDate.MAX)) {
      return "Infinity";
    }
    if (date.equals(LocalDate.MIN)) {
      return "-Infinity";
    }
    StringBuilder out = new StringBuilder(10);
    appendDate(out, date);
    return out.toString();
  }

  static String time(Object value) {
    if (value instanceof LocalTime time) {
      StringBuilder out = new StringBuilder(15);
      appendTime(out, time.getHour(), time.getMinute(), time.getSecond(), time.getNano());
      return out.toString();
    }
    if (value instanceof Duration duration) {
      return time(duration);
    }
    if (value instanceof String text) {
      return time(parseTime(text));
    }
    throw CanonicalValues.unsupported(LogicalType.TIME, value);
  }

  static String time(Duration duration) {
    StringBuilder out = new StringBuilder(16);
    Duration abs = duration;
    if (duration.isNegative()) {
      out.append('-');
      abs = duration.negated();
    }
    long hours = abs.toHours();
    if (hours < 10) {
      out.append('0');
    }
    out.append(hours).append(':');
    appendTwo(out, abs.toMinutesPart());
    out.append(':');
    appendTwo(out, abs.toSecondsPart());
    appendFraction(out, abs.toNanosPart());
    return out.toString();
  }

  /** Parses {@code [-]H+:MM:SS[.fffffffff]} (PostgreSQL and MariaDB text output of a time). */
  static Duration parseTime(String text) {
    String t = text.strip();
    try {
      boolean negative = t.startsWith("-");
      String body = negative ? t.substring(1) : t;
      int firstColon = body.indexOf(':');
      int secondColon = body.indexOf(':', firstColon + 1);
      if (firstColon < 1 || secondColon != firstColon + 3) {
        throw new IllegalArgumentException("not a time: '" + text + "'");
      }
      long hours = Long.parseLong(body.substring(0, firstColon));
      int minutes = Integer.parseInt(body.substring(firstColon + 1, secondColon));
      String secondsPart = body.substring(secondColon + 1);
      int point = secondsPart.indexOf('.');
      int seconds = Integer.parseInt(point < 0 ? secondsPart : secondsPart.substring(0, point));
      long nanos = 0;
      if (point >= 0) {
        String fraction = secondsPart.substring(point + 1);
        if (fraction.isEmpty()
            || fraction.length() > 9
            || !fraction.chars().allMatch(Character::isDigit)) {
          throw new IllegalArgumentException("not a time: '" + text + "'");
        }
        nanos = Long.parseLong((fraction + "000000000").substring(0, 9));
      }
      if (hours < 0 || minutes > 59 || seconds > 59 || minutes < 0 || seconds < 0) {
        throw new IllegalArgumentException("not a time: '" + text + "'");
      }
      Duration d =
          Duration.ofHours(hours).plusMinutes(minutes).plusSeconds(seconds).plusNanos(nanos);
      return negative ? d.negated() : d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a time: '" + text + "'", e);
    }
  }

  static String timestamp(Object value) {
    if (value instanceof LocalDateTime dateTime) {
      return timestamp(dateTime);
    }
    throw CanonicalValues.unsupported(LogicalType.TIMESTAMP, value);
  }

  static String timestamp(LocalDateTime dateTime) {
    StringBuilder out = new StringBuilder(26);
    appendTimestamp(dateTime, out);
    return out.toString();
  }

  static void appendTimestamp(LocalDateTime dateTime, StringBuilder out) {
    if (dateTime.equals(LocalDateTime.MAX)) {
      out.append("Infinity");
    } else if (dateTime.equals(LocalDateTime.MIN)) {
      out.append("-Infinity");
    } else if (dateTime.getYear() < 0 || dateTime.getYear() > 9999) {
      appendDate(out, dateTime.toLocalDate());
      out.append(' ');
      appendTime(
          out, dateTime.getHour(), dateTime.getMinute(), dateTime.getSecond(), dateTime.getNano());
    } else {
      appendFourDigitYearTimestamp(dateTime, out);
    }
  }

  /** The common case in one bulk append: per-character appends cost more than the digits. */
  private static void appendFourDigitYearTimestamp(LocalDateTime dateTime, StringBuilder out) {
    char[] c = new char[29];
    int year = dateTime.getYear();
    c[0] = (char) ('0' + year / 1000);
    c[1] = (char) ('0' + year / 100 % 10);
    c[2] = (char) ('0' + year / 10 % 10);
    c[3] = (char) ('0' + year % 10);
    c[4] = '-';
    two(c, 5, dateTime.getMonthValue());
    c[7] = '-';
    two(c, 8, dateTime.getDayOfMonth());
    c[10] = ' ';
    two(c, 11, dateTime.getHour());
    c[13] = ':';
    two(c, 14, dateTime.getMinute());
    c[16] = ':';
    two(c, 17, dateTime.getSecond());
    int length = 19;
    int nano = dateTime.getNano();
    if (nano != 0) {
      c[length++] = '.';
      for (int divisor = 100_000_000; divisor > 0 && nano != 0; divisor /= 10) {
        int digit = nano / divisor;
        c[length++] = (char) ('0' + digit);
        nano -= digit * divisor;
      }
    }
    out.append(c, 0, length);
  }

  private static void two(char[] c, int at, int value) {
    c[at] = (char) ('0' + value / 10);
    c[at + 1] = (char) ('0' + value % 10);
  }

  static void appendTimestampTz(Object value, StringBuilder out) {
    if (value instanceof OffsetDateTime offset
        && !offset.equals(OffsetDateTime.MAX)
        && !offset.equals(OffsetDateTime.MIN)) {
      appendTimestamp(offset.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime(), out);
    } else if (value instanceof Instant instant
        && !instant.equals(Instant.MAX)
        && !instant.equals(Instant.MIN)) {
      appendTimestamp(
          LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC),
          out);
    } else if (value instanceof LocalDateTime utc) {
      appendTimestamp(utc, out);
    } else {
      out.append(timestampTz(value));
    }
  }

  static String timestampTz(Object value) {
    if (value instanceof Instant instant) {
      return timestampTz(instant);
    }
    if (value instanceof OffsetDateTime offset) {
      if (offset.equals(OffsetDateTime.MAX)) {
        return "Infinity";
      }
      if (offset.equals(OffsetDateTime.MIN)) {
        return "-Infinity";
      }
      return timestampTz(offset.toInstant());
    }
    if (value instanceof ZonedDateTime zoned) {
      return timestampTz(zoned.toInstant());
    }
    if (value instanceof LocalDateTime utc) {
      return timestamp(utc);
    }
    throw CanonicalValues.unsupported(LogicalType.TIMESTAMP_TZ, value);
  }

  static String timestampTz(Instant instant) {
    if (instant.equals(Instant.MAX)) {
      return "Infinity";
    }
    if (instant.equals(Instant.MIN)) {
      return "-Infinity";
    }
    return timestamp(LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
  }

  private static void appendDate(StringBuilder out, LocalDate date) {
    int year = date.getYear();
    if (year < 0 || year > 9999) {
      out.append(date); // ISO-8601 extended years: +10000-01-01, -0044-03-15
      return;
    }
    out.append((char) ('0' + year / 1000))
        .append((char) ('0' + year / 100 % 10))
        .append((char) ('0' + year / 10 % 10))
        .append((char) ('0' + year % 10))
        .append('-');
    appendTwo(out, date.getMonthValue());
    out.append('-');
    appendTwo(out, date.getDayOfMonth());
  }

  private static void appendTime(StringBuilder out, int hour, int minute, int second, int nano) {
    appendTwo(out, hour);
    out.append(':');
    appendTwo(out, minute);
    out.append(':');
    appendTwo(out, second);
    appendFraction(out, nano);
  }

  private static void appendTwo(StringBuilder out, int value) {
    out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
  }

  private static void appendFraction(StringBuilder out, int nano) {
    if (nano == 0) {
      return;
    }
    int digits = 9;
    while (nano % 10 == 0) {
      nano /= 10;
      digits--;
    }
    out.append('.');
    for (int divisor = POWERS_OF_TEN[digits - 1]; divisor > 0; divisor /= 10) {
      out.append((char) ('0' + nano / divisor % 10));
    }
  }

  private static final int[] POWERS_OF_TEN = {
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000
  };
}
