package io.cdccompare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.stream.CaptureNotices;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.producer.compare.CompareConfig;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every topic the programs use, as the code names it from the rendering's own configuration files
 * (which parse with the programs' own configuration classes: unknown keys refused), has a
 * KafkaTopic with the partitions, compaction and retention the code creates or expects.
 */
class TopicCoverageTest {
  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void everyTopicTheProgramsUseHasAKafkaTopic(Rendered rendered) {
    // Given the topics the programs use, named by the code from the configuration files
    Map<String, JsonNode> declared = topics(rendered);

    // Then each one is declared
    assertThat(declared.keySet()).containsAll(ProgramUsers.usedTopics(rendered));
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void topicsHaveTheLayoutTheCodeExpects(Rendered rendered) {
    Map<String, JsonNode> declared = topics(rendered);
    CaptureConfig capture = ProgramUsers.capture(rendered);
    CompareConfig task = ProgramUsers.task(rendered);
    TargetsConfig targets = ProgramUsers.targets(rendered);

    // table topics: the capture's partition count (keys are placed by it), never compacted (an
    // incremental run refuses a compacted topic), kept a week
    ProgramUsers.tableTopics(capture)
        .values()
        .forEach(
            t -> {
              assertThat(partitions(declared, t)).as(t).isEqualTo(capture.topicPartitions());
              assertThat(config(declared, t, "cleanup.policy")).as(t).isEqualTo("delete");
              assertThat(Long.parseLong(config(declared, t, "retention.ms")))
                  .as(t)
                  .isGreaterThanOrEqualTo(604_800_000L);
            });
    // hashes: compacted, the compare producer's partition count
    assertThat(partitions(declared, task.hashesTopic())).isEqualTo(task.hashesTopicPartitions());
    assertThat(config(declared, task.hashesTopic(), "cleanup.policy")).isEqualTo("compact");
    // report: compacted; the capture's offsets: compacted, one partition
    assertThat(config(declared, targets.topics().report(), "cleanup.policy")).isEqualTo("compact");
    assertThat(config(declared, capture.offsetsTopic(), "cleanup.policy")).isEqualTo("compact");
    assertThat(partitions(declared, capture.offsetsTopic())).isEqualTo(1);
    // notices: the capture writes partition 0 only; alerts: one partition, as the capture makes it
    assertThat(partitions(declared, CaptureNotices.topic(capture.topicPrefix()))).isEqualTo(1);
    assertThat(partitions(declared, capture.alertsTopic())).isEqualTo(1);
    // results: kept while a run may still be rechecked or repaired
    assertThat(config(declared, targets.topics().results(), "cleanup.policy")).isEqualTo("delete");
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void theThreeFilesDescribeOnePipeline(Rendered rendered) {
    CaptureConfig capture = ProgramUsers.capture(rendered);
    CompareConfig task = ProgramUsers.task(rendered);
    TargetsConfig targets = ProgramUsers.targets(rendered);

    assertThat(targets.topicPrefix()).isEqualTo(capture.topicPrefix());
    assertThat(task.topicPrefix()).isEqualTo(capture.topicPrefix());
    assertThat(capture.tables()).containsAll(targets.tables());
    assertThat(capture.tables()).containsAll(task.tables().stream().map(TableTask::table).toList());
    assertThat(task.topics()).isEqualTo(targets.topics());
    // every target the task waits for has a verifier Deployment
    for (String target : task.targets()) {
      assertThat(rendered.get("Deployment", "cdc-compare-verify-" + target)).isNotNull();
    }
    assertThat(rendered.ofKind("Deployment").stream().filter(d -> "verify".equals(component(d))))
        .hasSize(targets.targetNames().size());
  }

  static Map<String, JsonNode> topics(Rendered rendered) {
    Map<String, JsonNode> out = new TreeMap<>();
    for (JsonNode t : rendered.ofKind("KafkaTopic")) {
      String name =
          t.path("spec").path("topicName").asText(t.path("metadata").path("name").asText());
      assertThat(out.put(name, t)).as("topic " + name + " declared twice").isNull();
    }
    return out;
  }

  private static int partitions(Map<String, JsonNode> declared, String topic) {
    assertThat(declared).containsKey(topic);
    return declared.get(topic).path("spec").path("partitions").asInt();
  }

  private static String config(Map<String, JsonNode> declared, String topic, String key) {
    assertThat(declared).containsKey(topic);
    return declared.get(topic).path("spec").path("config").path(key).asText(null);
  }

  private static String component(JsonNode o) {
    return Rendered.label(o, "app.kubernetes.io/component");
  }
}
