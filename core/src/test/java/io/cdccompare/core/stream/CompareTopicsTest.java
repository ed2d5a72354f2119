package io.cdccompare.core.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CompareTopicsTest {

  @Test
  void theDefaultsLiveUnderThePrefix() {
    // Given the prefix shop / Then the four topics are shop.compare.*
    assertThat(CompareTopics.defaults("shop"))
        .isEqualTo(
            new CompareTopics(
                "shop.compare.hashes",
                "shop.compare.results",
                "shop.compare.report",
                "shop.compare.alerts"));
  }

  @Test
  void aConfiguredNameReplacesItsDefaultAndABlankOneKeepsIt() {
    // Given the defaults of shop
    CompareTopics defaults = CompareTopics.defaults("shop");

    // When the alerts and hashes topics are configured, the others blank or absent
    CompareTopics topics = defaults.with(" audit.hashes ", "", null, "ops.alerts");

    // Then those two are replaced (trimmed), the others keep their defaults
    assertThat(topics)
        .isEqualTo(
            new CompareTopics(
                "audit.hashes", "shop.compare.results", "shop.compare.report", "ops.alerts"));
  }

  @Test
  void aFileNamesItsTopicsUnderTheSameFourKeys() {
    // Given a file that sets report.topic and alerts.topic only
    Map<String, String> file = Map.of("report.topic", "audit.report", "alerts.topic", "ops.alerts");

    // When its topics are read / Then those two are its own, the others the defaults
    assertThat(CompareTopics.configured("shop", file::get))
        .isEqualTo(
            new CompareTopics(
                "shop.compare.hashes", "shop.compare.results", "audit.report", "ops.alerts"));
  }

  @Test
  void anEmptyPrefixOrNameIsRefused() {
    assertThatThrownBy(() -> CompareTopics.defaults(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topic prefix");
    assertThatThrownBy(() -> new CompareTopics("h", "r", "", "a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("report topic");
  }
}
