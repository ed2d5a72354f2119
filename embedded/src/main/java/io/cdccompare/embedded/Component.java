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
  MARIADB("mariadb"),
  /**
   * A Kafka Connect worker in distributed mode with Debezium's PostgreSQL source, Debezium's JDBC
   * sink and Apicurio's Avro converter. Needs {@link #KAFKA} (added when missing) and, for Avro,
   * {@link #REGISTRY}; started after every other component of the same call. Not part of {@link
   * #all()}: it starts only when named.
   */
  CONNECT("connect");

  private final String displayName;

  Component(String displayName) {
    this.displayName = displayName;
  }

  /** The name used in logs, errors and connection settings. */
  public String displayName() {
    return displayName;
  }

  /**
   * What {@code all} means: every server but {@link #CONNECT}, which the demo, {@code env up}'s
   * default and the soak never needed (it adds a worker JVM and about 100 MB of plugins).
   */
  public static Set<Component> all() {
    Set<Component> all = EnumSet.allOf(Component.class);
    all.remove(CONNECT);
    return all;
  }

  /**
   * Parses a comma separated list as written on the command line: {@code kafka}, {@code registry},
   * {@code postgres} (both PostgreSQL servers), {@code postgres-source}, {@code postgres-target},
   * {@code mariadb}, {@code connect}, or {@code all} (every one but {@code connect}).
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
        case "all" -> result.addAll(all());
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
            + " connect, all)");
  }
}
