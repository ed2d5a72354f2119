package io.cdccompare.embedded;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The servers the embedded environment can start. */
public enum Component {
  KAFKA("kafka"),
  REGISTRY("registry"),
  SOURCE_POSTGRES("postgres-source"),
  TARGET_POSTGRES("postgres-target"),
  MARIADB("mariadb");

  private final String displayName;

  Component(String displayName) {
    this.displayName = displayName;
  }

  /** The name used in logs, errors and connection settings. */
  public String displayName() {
    return displayName;
  }

  /**
   * Parses a comma separated list as written on the command line: {@code kafka}, {@code registry},
   * {@code postgres} (both PostgreSQL servers), {@code postgres-source}, {@code postgres-target},
   * {@code mariadb}, or {@code all}.
   *
   * @throws IllegalArgumentException naming the unknown entry
   */
  public static Set<Component> parseList(String list) {
    Set<Component> result = EnumSet.noneOf(Component.class);
    for (String raw : list.split(",")) {
      String name = raw.trim().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        continue;
      }
      switch (name) {
        case "all" -> result.addAll(EnumSet.allOf(Component.class));
        case "postgres", "postgresql" -> {
          result.add(SOURCE_POSTGRES);
          result.add(TARGET_POSTGRES);
        }
        default -> result.add(byDisplayName(name));
      }
    }
    if (result.isEmpty()) {
      throw new IllegalArgumentException("no component named in '" + list + "'");
    }
    return result;
  }

  private static Component byDisplayName(String name) {
    for (Component c : values()) {
      if (c.displayName.equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "unknown component '"
            + name
            + "' (known: kafka, registry, postgres, postgres-source, postgres-target, mariadb,"
            + " all)");
  }
}
