package io.cdccompare.report.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class ReportConfigTest {

  @Test
  void topicsDefaultUnderThePrefix() {
    // Given
    // When
    ReportConfig config = ReportConfig.of("shop", "http://registry:8081");

    // Then
    assertThat(config)
        .isEqualTo(
            new ReportConfig(
                "shop-compare-report",
                "shop.compare.results",
                "shop.compare.hashes",
                "shop.compare.report",
                "shop.compare.alerts",
                "http://registry:8081"));
  }

  @Test
  void theAppRunsExactlyOnceUnderItsApplicationId() {
    // Given
    ReportConfig config = ReportConfig.of("shop", "http://registry:8081");

    // When
    Properties props = config.streamsProperties("broker:9092");

    // Then
    assertThat(props)
        .containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "shop-compare-report")
        .containsEntry(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "broker:9092")
        .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    assertThat(config.serdeConfig()).containsEntry("schema.registry.url", "http://registry:8081");
  }

  @Test
  void anEmptyTopicIsRefusedByName() {
    // Given
    // When
    // Then
    assertThatThrownBy(() -> new ReportConfig("app", "r", "h", " ", "a", "mock://x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("report reportTopic must not be empty");
  }
}
