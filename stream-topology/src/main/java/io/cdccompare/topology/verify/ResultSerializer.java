package io.cdccompare.topology.verify;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.registry.SchemaRegistryException;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes chunk results with {@link SpecificAvroSerializer}, registering the schema under the
 * results topic's subject. Every target's verifier registers the same schema there, often at the
 * same moment; Apicurio's Confluent API answers the loser of that race with HTTP 409 ("artifact
 * already exists") instead of the id. Registering again then finds the schema the winner
 * registered, so a 409 is tried again, a few times; any other refusal fails at once.
 */
final class ResultSerializer implements Serializer<ChunkResult> {
  private static final int ATTEMPTS = 3;

  private final SpecificAvroSerializer<ChunkResult> avro = new SpecificAvroSerializer<>();

  ResultSerializer(Map<String, ?> registry) {
    avro.configure(registry, false);
  }

  @Override
  public byte[] serialize(String topic, ChunkResult result) {
    for (int attempt = 1; ; attempt++) {
      try {
        return avro.serialize(topic, result);
      } catch (SerializationException e) {
        if (attempt >= ATTEMPTS || !registrationRace(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean registrationRace(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SchemaRegistryException refused && refused.status() == 409) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    avro.close();
  }
}
