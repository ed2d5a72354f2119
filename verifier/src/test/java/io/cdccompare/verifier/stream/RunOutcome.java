package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a compare run found on one target, summed over its chunk results (one per chunk and
 * partition of one table), with the readers the end-to-end tests wait through.
 */
record RunOutcome(
    long matched, List<String> failed, List<String> missed, List<String> extra, long inFlight) {

  /**
   * Waits for every chunk result of the run from every app (one per chunk and partition, each
   * VERIFIED), then sums them per target. A replayed result must equal the first.
   */
  static Map<String, RunOutcome> collect(
      ResultsReader results, String runId, long chunks, VerifierApp... apps) {
    int partitions = TargetDb.PARTITIONS;
    Map<String, ChunkResult> byKey = new TreeMap<>();
    await("results of run " + runId)
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              for (VerifierApp app : apps) {
                app.requireHealthy();
              }
              for (ConsumerRecord<String, ChunkResult> r : results.ofRun(runId)) {
                ChunkResult before = byKey.putIfAbsent(r.key(), r.value());
                assertThat(before == null || before.equals(r.value()))
                    .as("a replayed result of %s equals the first", r.key())
                    .isTrue();
              }
              return byKey.size() >= chunks * partitions * apps.length;
            });
    assertThat(byKey).hasSize((int) (chunks * partitions * apps.length));
    Map<String, RunOutcome> out = new HashMap<>();
    for (VerifierApp app : apps) {
      String target = app.settings.target();
      Set<String> cells = new HashSet<>();
      long matched = 0;
      long inFlight = 0;
      List<String> failed = new ArrayList<>();
      List<String> missed = new ArrayList<>();
      List<String> extra = new ArrayList<>();
      for (ChunkResult r : byKey.values()) {
        if (!r.getTarget().equals(target)) {
          continue;
        }
        assertThat(r.getState())
            .as("%s chunk %d: %s", target, r.getChunk(), r.getError())
            .isEqualTo(ChunkState.VERIFIED);
        assertThat(r.getPartitionCount()).isEqualTo(partitions);
        cells.add(r.getChunk() + "/" + r.getTablePartition());
        matched += r.getCounts().getMatched();
        inFlight += r.getCounts().getInFlight();
        failed.addAll(r.getFailedKeys());
        missed.addAll(r.getMissedKeys());
        extra.addAll(r.getExtraKeys());
      }
      assertThat(cells).hasSize((int) (chunks * partitions));
      out.put(target, new RunOutcome(matched, failed, missed, extra, inFlight));
    }
    return out;
  }

  /** This outcome with its key lists sorted (results come in partition order). */
  RunOutcome sorted() {
    return new RunOutcome(
        matched,
        failed.stream().sorted().toList(),
        missed.stream().sorted().toList(),
        extra.stream().sorted().toList(),
        inFlight);
  }

  /** The end offsets of the topic's partitions, by partition. */
  static Map<Integer, Long> endOffsets(EmbeddedEnvironment env, String topic) {
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (int p = 0; p < TargetDb.PARTITIONS; p++) {
        partitions.add(new TopicPartition(topic, p));
      }
      Map<Integer, Long> end = new TreeMap<>();
      consumer.endOffsets(partitions).forEach((tp, offset) -> end.put(tp.partition(), offset));
      return end;
    }
  }

  /** The offsets of the last records before {@code end}, by partition. */
  static Map<Integer, Long> lastOffsets(Map<Integer, Long> end) {
    Map<Integer, Long> last = new TreeMap<>();
    end.forEach((p, offset) -> last.put(p, offset - 1));
    return last;
  }
}
