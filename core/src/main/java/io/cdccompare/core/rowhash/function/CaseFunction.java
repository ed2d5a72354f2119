package io.cdccompare.core.rowhash.function;

import io.cdccompare.core.rowhash.LogicalType;
import java.util.Locale;

/**
 * {@code upper} and {@code lower}: the full Unicode case mapping of the canonical text, without
 * locale rules ({@link Locale#ROOT}), so a Turkish dotless i does not depend on the JVM's locale.
 */
public record CaseFunction(boolean upper) implements ColumnFunction {

  public static final CaseFunction UPPER = new CaseFunction(true);
  public static final CaseFunction LOWER = new CaseFunction(false);

  @Override
  public String name() {
    return upper ? "upper" : "lower";
  }

  @Override
  public boolean appliesTo(LogicalType type) {
    return StringFunctions.appliesTo(type);
  }

  @Override
  public String apply(LogicalType type, String canonical) {
    return upper ? canonical.toUpperCase(Locale.ROOT) : canonical.toLowerCase(Locale.ROOT);
  }

  @Override
  public String spec() {
    return name();
  }
}
