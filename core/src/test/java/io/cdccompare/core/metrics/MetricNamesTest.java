package io.cdccompare.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.metrics.Metric.Type;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricNamesTest {
  @Test
  void everyMetricHasItsOwnMicrometerAndPrometheusName() {
    // Given the catalogue
    List<Metric> all = MetricNames.ALL;

    // Then no two metrics share a name on either side
    assertThat(all.stream().map(Metric::name)).doesNotHaveDuplicates();
    assertThat(all.stream().map(Metric::prometheusName)).doesNotHaveDuplicates();
  }

  @Test
  void prometheusNamesFollowTheRegistrysConvention() {
    assertThat(MetricNames.CAPTURE_EVENTS.prometheusName())
        .isEqualTo("cdccompare_capture_events_total");
    assertThat(MetricNames.APPLY_LAG_SECONDS.prometheusName())
        .isEqualTo("cdccompare_apply_lag_seconds");
    assertThat(MetricNames.HASHES_WAITING_BYTES.prometheusName())
        .isEqualTo("cdccompare_hashes_waiting_size_bytes");
    assertThat(MetricNames.VERIFY_DURATION.prometheusName())
        .isEqualTo("cdccompare_verify_duration_seconds");
  }

  @Test
  void aNameOutsideTheProjectsPrefixIsRefused() {
    assertThatThrownBy(
            () -> new Metric("verify.duration", Type.HISTOGRAM, "seconds", List.of(), ""))
        .hasMessageContaining("cdccompare.");
  }

  @Test
  void aLabelThatIsNotASnakeCaseWordIsRefused() {
    assertThatThrownBy(
            () -> new Metric("cdccompare.x", Type.GAUGE, "", List.of("Table Name"), "help"))
        .hasMessageContaining("bad label Table Name");
  }
}
