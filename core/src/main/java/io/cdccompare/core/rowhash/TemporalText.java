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
    } else {
      appendDate(out, dateTime.toLocalDate());
      out.append(' ');
      appendTime(
          out, dateTime.getHour(), dateTime.getMinute(), dateTime.getSecond(), dateTime.getNano());
    }
  }

  static void appendTimestampTz(Object value, StringBuilder out) {
    if (value instanceof OffsetDateTime offset
        && offset.getOffset().equals(ZoneOffset.UTC)
        && !offset.equals(OffsetDateTime.MAX)
        && !offset.equals(OffsetDateTime.MIN)) {
      appendTimestamp(offset.toLocalDateTime(), out);
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
    if (year < 1000) {
      out.append(year < 10 ? "000" : year < 100 ? "00" : "0");
    }
    out.append(year).append('-');
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
    if (value < 10) {
      out.append('0');
    }
    out.append(value);
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
    String text = Integer.toString(nano);
    for (int i = text.length(); i < digits; i++) {
      out.append('0');
    }
    out.append(text);
  }
}
