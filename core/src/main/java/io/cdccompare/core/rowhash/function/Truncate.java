package io.cdccompare.core.rowhash.function;

import io.cdccompare.core.rowhash.CanonicalTextParser;
import io.cdccompare.core.rowhash.CanonicalValues;
import io.cdccompare.core.rowhash.LogicalType;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * {@code truncate(unit)}: a date, time or timestamp cut down to the given precision, toward zero
 * ({@code truncate(second)} of {@code 10:15:30.999} is {@code 10:15:30}). Works on the canonical
 * text, so a timestamp with time zone is truncated in UTC. {@code Infinity} and {@code -Infinity}
 * are left as they are. Dates accept {@code year}, {@code month}, {@code day}; times {@code hour}
 * to {@code microsecond}; timestamps every unit.
 */
public record Truncate(TruncateUnit unit) implements ColumnFunction {

  public Truncate {
    if (unit == null) {
      throw new IllegalArgumentException("truncate: the unit must be given");
    }
  }

  @Override
  public String name() {
    return "truncate";
  }

  @Override
  public boolean appliesTo(LogicalType type) {
    return unit.appliesTo(type);
  }

  @Override
  public String apply(LogicalType type, String canonical) {
    if (canonical.endsWith("Infinity")) {
      return canonical;
    }
    return switch (type) {
      case DATE -> CanonicalValues.canonical(type, truncate(CanonicalTextParser.date(canonical)));
      case TIME -> CanonicalValues.canonical(type, truncate(CanonicalTextParser.time(canonical)));
      case TIMESTAMP, TIMESTAMP_TZ ->
          CanonicalValues.canonical(
              LogicalType.TIMESTAMP, truncate(CanonicalTextParser.timestamp(canonical)));
      default -> throw new IllegalArgumentException("truncate does not apply to type " + type);
    };
  }

  private LocalDate truncate(LocalDate date) {
    return switch (unit) {
      case YEAR -> date.withDayOfYear(1);
      case MONTH -> date.withDayOfMonth(1);
      default -> date;
    };
  }

  private Duration truncate(Duration time) {
    return time.truncatedTo(unit.chronoUnit());
  }

  private LocalDateTime truncate(LocalDateTime timestamp) {
    return switch (unit) {
      case YEAR -> timestamp.toLocalDate().withDayOfYear(1).atStartOfDay();
      case MONTH -> timestamp.toLocalDate().withDayOfMonth(1).atStartOfDay();
      default -> timestamp.truncatedTo(unit.chronoUnit());
    };
  }

  @Override
  public String spec() {
    return "truncate(" + unit.spec() + ")";
  }
}
