package io.cdccompare.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

class StoredOffsetsTest {
  @Test
  void theOffsetsReaderTakesTheCapturesSecuritySettings() {
    // Given the capture's admin client settings on a SASL_SSL listener
    Map<String, Object> admin =
        Map.of(
            "bootstrap.servers", "kafka:9093",
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;",
            "ssl.truststore.location", "/etc/ca/truststore.p12",
            "default.api.timeout.ms", "60000",
            "retries", "7");

    // When
    Map<String, Object> consumer = StoredOffsets.consumerProps(admin);

    // Then the reader connects as the admin client does, with no group and bytes out
    assertThat(consumer)
        .containsEntry("bootstrap.servers", "kafka:9093")
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("ssl.truststore.location", "/etc/ca/truststore.p12")
        .containsEntry("default.api.timeout.ms", "60000")
        .containsEntry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)
        .containsEntry(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class)
        .doesNotContainKey(ConsumerConfig.GROUP_ID_CONFIG)
        // an admin-only setting a consumer would warn about is left out
        .doesNotContainKey("retries");
  }
}
