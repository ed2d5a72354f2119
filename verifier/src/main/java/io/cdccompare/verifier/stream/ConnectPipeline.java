package io.cdccompare.verifier.stream;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stock Debezium pipeline a verify-only target is checked against (docs/design.md, "Stock
 * Debezium pipelines"): the Debezium PostgreSQL connector on Kafka Connect that captures the source
 * (its name and where its worker stores source offsets), the topic its notes arrive on, and the
 * converters its topics are written with, spelled as in the connector's own configuration. The sink
 * that writes the target is the followed group of {@link VerifierSettings.Follow} ({@code
 * connect-<sink name>}).
 *
 * @param connector the source connector's name, as its stored offsets are keyed
 * @param offsetsTopic the worker's {@code offset.storage.topic}
 * @param notesTopic the connector's topic of {@code repi.validatetables}, one partition
 * @param converters {@code key.converter}, {@code value.converter} and their {@code
 *     key.converter.*} / {@code value.converter.*} settings, as in the connector's configuration
 */
public record ConnectPipeline(
    String connector, String offsetsTopic, String notesTopic, Map<String, String> converters) {
  /** The Kafka Connect worker's default offsets topic in the distributed mode's examples. */
  public static final String DEFAULT_OFFSETS_TOPIC = "connect-offsets";

  public ConnectPipeline {
    require(connector, "connect.connector");
    require(offsetsTopic, "connect.offsets.topic");
    require(notesTopic, "connect.notes.topic");
    converters = Map.copyOf(converters);
    for (String side : new String[] {"key", "value"}) {
      if (!converters.containsKey(side + ".converter")) {
        throw new IllegalArgumentException(
            side
                + ".converter is required: the converter class of the connector's topics, as in"
                + " its configuration (org.apache.kafka.connect.json.JsonConverter or"
                + " io.apicurio.registry.utils.converter.AvroConverter)");
      }
    }
  }

  /** The settings of one side's converter, without the {@code <side>.converter.} prefix. */
  Map<String, String> converterSettings(String side) {
    String prefix = side + ".converter.";
    Map<String, String> settings = new LinkedHashMap<>();
    converters.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            settings.put(k.substring(prefix.length()), v);
          }
        });
    return settings;
  }

  private static void require(String value, String key) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(key + " is required for a Kafka Connect pipeline");
    }
  }
}
