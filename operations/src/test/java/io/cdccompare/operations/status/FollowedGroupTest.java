package io.cdccompare.operations.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FollowedGroupTest {

  @Test
  void aVerifyOnlyTargetFollowsItsGroup() {
    // Given / When / Then
    assertThat(FollowedGroup.of(Map.of("mode", "verify-only", "follow.group", "connect-sink")))
        .contains("connect-sink");
  }

  @Test
  void aTargetThatAppliesFollowsNone() {
    // Given / When / Then
    assertThat(FollowedGroup.of(Map.of("url", "jdbc:postgresql://db/t"))).isEmpty();
    assertThat(FollowedGroup.of(Map.of("mode", "apply-verify", "follow.group", "connect-sink")))
        .isEmpty();
  }
}
