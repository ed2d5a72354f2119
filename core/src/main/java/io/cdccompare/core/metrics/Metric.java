package io.cdccompare.core.metrics;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One metric the programs publish: its Micrometer name (dotted, without the unit), what kind of
 * meter it is, its base unit, its labels and one line for the metrics table of docs/operations.md.
 * Labels are bounded (task, table, target, topic, partition, outcome, code): never a key.
 *
 * @param name the Micrometer name, e.g. {@code cdccompare.capture.events}
 * @param type the kind of meter
 * @param unit the base unit ({@code seconds}, {@code bytes}, {@code records}, {@code rows}) or
 *     {@code ""} when the value is a plain count or ratio
 * @param labels the tag keys, in the order the README lists them
 * @param help what the value means
 */
public record Metric(String name, Type type, String unit, List<String> labels, String help) {
  private static final Pattern NAME = Pattern.compile("cdccompare(\\.[a-z][a-z0-9_]*)+");
  private static final Pattern LABEL = Pattern.compile("[a-z][a-z0-9_]*");

  /** The kinds of meter, as Prometheus shows them. */
  public enum Type {
    COUNTER,
    GAUGE,
    HISTOGRAM
  }

  public Metric {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(help, "help");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("metric name must be cdccompare.<word>…, was " + name);
    }
    labels = List.copyOf(labels);
    for (String label : labels) {
      if (!LABEL.matcher(label).matches()) {
        throw new IllegalArgumentException("metric " + name + ": bad label " + label);
      }
    }
  }

  /**
   * The name Prometheus shows, as Micrometer's Prometheus registry writes it: dots become
   * underscores, the unit is appended, and a counter ends in {@code _total}. A histogram's series
   * add {@code _bucket}, {@code _count} and {@code _sum} to this name.
   */
  public String prometheusName() {
    String base = name.replace('.', '_');
    if (!unit.isEmpty() && !base.endsWith("_" + unit)) {
      base = base + "_" + unit;
    }
    return type == Type.COUNTER ? base + "_total" : base;
  }
}
