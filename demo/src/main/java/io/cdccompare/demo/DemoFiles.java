package io.cdccompare.demo;

import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The demo's three configuration files, written for its embedded environment exactly as a user
 * writes them for a deployment: the capture's, the targets' (targets {@code a} on PostgreSQL and
 * {@code b} on MariaDB) and the compare task's. The demo then loads them with the commands' own
 * loaders.
 */
final class DemoFiles {
  private final EmbeddedEnvironment env;
  private final Path dir;

  DemoFiles(EmbeddedEnvironment env, Path dir) {
    this.env = env;
    this.dir = dir;
  }

  /** Writes {@code capture.properties}: snapshot first, 3 partitions, low latency. */
  Path capture() {
    Map<String, String> props = source();
    props.put("snapshot", "initial");
    props.put("topic.partitions", "3");
    props.put("poll.interval.ms", "20");
    props.put("heartbeat.interval.ms", "1000");
    return write("capture.properties", props);
  }

  /** Writes {@code task.properties}: every row compared, verified by both targets. */
  Path task() {
    Map<String, String> props = source();
    props.put("task.name", Demo.TASK);
    props.put("targets", Demo.TARGET_A + "," + Demo.TARGET_B);
    props.put("deep", "100");
    props.put("progress", "off");
    return write("task.properties", props);
  }

  /** Writes {@code targets.properties}: both targets, and the source for {@code status}. */
  Path targets() {
    Map<String, String> props = source();
    JdbcServer a = env.targetPostgres();
    props.put("target.a.url", a.jdbcUrl("shop"));
    props.put("target.a.user", a.user());
    props.put("target.a.password", a.password());
    JdbcServer b = env.mariadb();
    props.put("target.b.url", b.jdbcUrl("shop"));
    props.put("target.b.user", b.user());
    props.put("target.b.password", b.password());
    props.put("apply.max.delay.ms", "200");
    props.put("state.dir", env.root().resolve("streams").toString());
    props.put("streams.commit.interval.ms", "200");
    return write("targets.properties", props);
  }

  private Map<String, String> source() {
    JdbcServer pg = env.sourcePostgres();
    Map<String, String> props = new LinkedHashMap<>();
    props.put("topic.prefix", Demo.PREFIX);
    props.put("bootstrap.servers", env.kafka().bootstrapServers());
    props.put("schema.registry.url", env.registry().confluentApiUrl());
    props.put("source.hostname", pg.host());
    props.put("source.port", Integer.toString(pg.port()));
    props.put("source.database", "shop");
    props.put("source.user", pg.user());
    props.put("source.password", pg.password());
    props.put("tables", String.join(", ", DemoSchema.TABLES));
    return props;
  }

  private Path write(String name, Map<String, String> props) {
    StringBuilder text = new StringBuilder("# written by cdc-compare demo\n");
    props.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    try {
      return Files.writeString(dir.resolve(name), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
