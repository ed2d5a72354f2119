package io.cdccompare.core.rowhash.function;

import io.cdccompare.core.rowhash.LogicalType;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** The precision a {@link Truncate} keeps. Written singular or plural in a configuration. */
public enum TruncateUnit {
  YEAR(null),
  MONTH(null),
  DAY(ChronoUnit.DAYS),
  HOUR(ChronoUnit.HOURS),
  MINUTE(ChronoUnit.MINUTES),
  SECOND(ChronoUnit.SECONDS),
  MILLISECOND(ChronoUnit.MILLIS),
  MICROSECOND(ChronoUnit.MICROS);

  private final ChronoUnit chronoUnit;

  TruncateUnit(ChronoUnit chronoUnit) {
    this.chronoUnit = chronoUnit;
  }

  /** The unit for {@code year}, {@code years}, {@code SECOND}..., or null if there is none. */
  public static TruncateUnit fromName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (TruncateUnit unit : values()) {
      String singular = unit.spec();
      if (lower.equals(singular) || lower.equals(singular + "s")) {
        return unit;
      }
    }
    return null;
  }

  public String spec() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Dates truncate to year, month or day; times of day to hour or finer; timestamps to any. */
  boolean appliesTo(LogicalType type) {
    return switch (type) {
      case DATE -> this == YEAR || this == MONTH || this == DAY;
      case TIME -> chronoUnit != null && this != DAY;
      case TIMESTAMP, TIMESTAMP_TZ -> true;
      default -> false;
    };
  }

  /** The time-based unit, for DAY and finer. */
  ChronoUnit chronoUnit() {
    return chronoUnit;
  }
}
