package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.producer.compare.CompareConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The compare task's {@code targets} key, which {@code compare run --wait} needs. */
class CompareTargetsKeyTest {
  private static Map<String, String> task(String targets) {
    Map<String, String> m = new HashMap<>();
    m.put("task.name", "nightly");
    m.put("topic.prefix", "shop");
    m.put("bootstrap.servers", "localhost:9092");
    m.put("schema.registry.url", "http://localhost:8081");
    m.put("source.hostname", "db");
    m.put("source.database", "shop");
    m.put("source.user", "cdc");
    m.put("tables", "public.orders");
    if (targets != null) {
      m.put("targets", targets);
    }
    return m;
  }

  @Test
  void targetsAreReadInOrderAndNoneByDefault() {
    // Given / When / Then
    assertThat(CompareConfig.of(task("pg-replica, maria_2")).targets())
        .containsExactly("pg-replica", "maria_2");
    assertThat(CompareConfig.of(task(null)).targets()).isEmpty();
  }

  @Test
  void aTargetNameTheTargetsFileCannotHoldIsRefusedNamingTheKey() {
    // Given a name with a dot / When loaded / Then refused naming the key and the name
    assertThatThrownBy(() -> CompareConfig.of(task("pg.replica")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("targets")
        .hasMessageContaining("'pg.replica'");
  }

  @Test
  void aTargetNamedTwiceIsRefused() {
    // Given / When / Then
    assertThatThrownBy(() -> CompareConfig.of(task("pg,pg")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("targets")
        .hasMessageContaining("twice");
  }
}
