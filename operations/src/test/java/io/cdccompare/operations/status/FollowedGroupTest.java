package io.cdccompare.operations.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.operations.config.TargetsConfig;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FollowedGroupTest {

  @Test
  void aVerifyOnlyTargetFollowsItsGroupAndATargetThatAppliesFollowsNone() {
    // Given a targets file with a verify-only target and one that applies
    Map<String, String> values = new HashMap<>();
    values.put("topic.prefix", "shop");
    values.put("bootstrap.servers", "k1:9092");
    values.put("schema.registry.url", "http://registry:8081");
    values.put("tables", "public.orders");
    values.put("target.a.url", "jdbc:postgresql://a:5432/shop");
    values.put("target.b.url", "jdbc:postgresql://b:5432/shop");
    values.put("target.b.mode", "verify-only");
    values.put("target.b.follow.group", "connect-sink");

    // When / Then
    TargetsConfig config = TargetsConfig.of(values);
    assertThat(FollowedGroup.of(config, "b")).contains("connect-sink");
    assertThat(FollowedGroup.of(config, "a")).isEmpty();
  }
}
