package io.cdccompare.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DebeziumSettingsTest {

  @Test
  void pinnedSettingsAreAddedWhereAbsent() {
    // Given a connector configuration that sets none of the pinned keys
    Map<String, String> config = Map.of("topic.prefix", "shop");

    // When the pinned settings are applied
    Map<String, String> pinned = DebeziumSettings.withPinned(config);

    // Then they are all there and the rest is kept
    assertThat(pinned)
        .containsEntry("topic.prefix", "shop")
        .containsEntry("decimal.handling.mode", "string")
        .containsEntry("time.precision.mode", "adaptive_time_microseconds")
        .containsEntry("binary.handling.mode", "bytes")
        .containsEntry("bigint.unsigned.handling.mode", "precise");
  }

  @Test
  void lossyTimePrecisionIsRefusedNamingTheKey() {
    // Given time.precision.mode=connect, which truncates to milliseconds
    // When the configuration is checked
    // Then it is refused naming the key and the value
    assertThatThrownBy(
            () -> DebeziumSettings.requirePinned(Map.of("time.precision.mode", "connect")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("time.precision.mode must be adaptive_time_microseconds")
        .hasMessageContaining("'connect'");
  }

  @Test
  void doubleDecimalsAreRefused() {
    // Given decimal.handling.mode=double
    // When the configuration is checked
    // Then it is refused
    assertThatThrownBy(
            () -> DebeziumSettings.requirePinned(Map.of("decimal.handling.mode", "double")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("decimal.handling.mode");
  }

  @Test
  void preciseDecimalsAreAccepted() {
    // Given decimal.handling.mode=precise, which this module reads too
    // When the configuration is checked
    // Then it passes and is kept
    assertThat(DebeziumSettings.withPinned(Map.of("decimal.handling.mode", "precise")))
        .containsEntry("decimal.handling.mode", "precise");
  }
}
