package io.cdccompare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.stream.CaptureNotices;
import io.cdccompare.core.stream.CompareTopics;
import io.cdccompare.core.table.TableName;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.report.aggregate.ReportConfig;
import io.cdccompare.source.TopicLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What each program needs from Kafka, derived from the code's own topic-naming functions applied to
 * the rendering's configuration files ({@link CaptureConfig}, {@link TargetsConfig}, {@link
 * CompareConfig}, {@link TopicLayout}, {@link CaptureNotices}): the topics it uses and the ACLs
 * those uses take. The operations per use were read off the clients each program opens (the
 * README's ACL table says why each one is needed).
 */
final class ProgramUsers {
  enum Op {
    Read,
    Write,
    Create,
    Delete,
    Describe,
    DescribeConfigs
  }

  /** One ACL: a resource (type, name, literal or prefix) and the operations on it. */
  record Need(String type, String name, String pattern, Set<Op> ops) {
    static Need topic(String name, Op... ops) {
      return new Need("topic", name, "literal", EnumSet.of(ops[0], ops));
    }

    static Need topicPrefix(String name, Op... ops) {
      return new Need("topic", name, "prefix", EnumSet.of(ops[0], ops));
    }

    static Need group(String name, Op... ops) {
      return new Need("group", name, "literal", EnumSet.of(ops[0], ops));
    }

    static Need transactionalIdPrefix(String name, Op... ops) {
      return new Need("transactionalId", name, "prefix", EnumSet.of(ops[0], ops));
    }
  }

  private ProgramUsers() {}

  static CaptureConfig capture(Rendered r) {
    return CaptureConfig.of(r.configFile("capture.properties"));
  }

  static TargetsConfig targets(Rendered r) {
    return TargetsConfig.of(r.configFile("targets.properties"));
  }

  static CompareConfig task(Rendered r) {
    return CompareConfig.of(r.configFile("task.properties"));
  }

  /** The table topics the capture writes: {@link TopicLayout} over its tables. */
  static Map<TableName, String> tableTopics(CaptureConfig c) {
    return new TopicLayout(c.topicPrefix(), c.tables(), c.topicPartitions()).topics();
  }

  /** The KafkaUser a workload's Kafka clients log in as (the Secret of its JAAS line). */
  static String userOf(JsonNode workload) {
    for (JsonNode c : KustomizeRenderer.containers(workload)) {
      for (JsonNode env : c.path("env")) {
        if (env.path("name").asText().equals("KAFKA_SASL_JAAS_CONFIG")) {
          return env.path("valueFrom").path("secretKeyRef").path("name").asText();
        }
      }
    }
    throw new AssertionError(
        workload.path("metadata").path("name").asText() + " has no Kafka user");
  }

  /** Per KafkaUser name, what the program running as that user needs. */
  static Map<String, List<Need>> needs(Rendered r) {
    Map<String, List<Need>> out = new LinkedHashMap<>();
    for (JsonNode w : r.workloads()) {
      List<String> args = CliFlagsTest.args(KustomizeRenderer.containers(w).get(0));
      String user = userOf(w);
      List<Need> needs =
          switch (args.get(0)) {
            case "capture" -> captureNeeds(capture(r));
            case "verify" -> verifyNeeds(targets(r), args.get(args.indexOf("--target") + 1));
            case "compare" -> compareNeeds(capture(r), task(r));
            case "alerts" -> alertsNeeds(targets(r), args);
            default -> throw new AssertionError("unknown program " + args);
          };
      assertThat(out.put(user, needs)).as("two programs log in as " + user).isNull();
    }
    return out;
  }

  static List<Need> captureNeeds(CaptureConfig c) {
    List<Need> n = new ArrayList<>();
    // the idempotent producer of changes and markers (Write is enough since Kafka 3.0)
    tableTopics(c).values().forEach(t -> n.add(Need.topic(t, Op.Describe, Op.Write)));
    // Capture.prepare creates these three whether or not they exist; the offsets topic is also
    // read back at start (StoredOffsets) and by Debezium's offset store, which checks its policy
    n.add(
        Need.topic(
            c.offsetsTopic(), Op.Create, Op.Describe, Op.DescribeConfigs, Op.Read, Op.Write));
    n.add(Need.topic(c.alertsTopic(), Op.Create, Op.Describe, Op.Write));
    n.add(Need.topic(CaptureNotices.topic(c.topicPrefix()), Op.Create, Op.Describe, Op.Write));
    return n;
  }

  static List<Need> verifyNeeds(TargetsConfig t, String target) {
    List<Need> n = new ArrayList<>();
    String app = t.verifierSettings(target).applicationId();
    CompareTopics topics = t.topics();
    t.tables()
        .forEach(
            table ->
                n.add(
                    Need.topic(
                        TopicLayout.topicName(t.topicPrefix(), table), Op.Describe, Op.Read)));
    // Kafka Streams: its group is the application id, its internal topics start with it
    n.add(Need.group(app, Op.Describe, Op.Read));
    n.add(
        Need.topicPrefix(app + "-", Op.Create, Op.Describe, Op.DescribeConfigs, Op.Read, Op.Write));
    // hash records read by offset; verdicts and stop alerts written
    n.add(Need.topic(topics.hashes(), Op.Describe, Op.Read));
    n.add(Need.topic(topics.results(), Op.Describe, Op.Write));
    n.add(Need.topic(topics.alerts(), Op.Describe, Op.Write));
    if (t.reportAggregate()) {
      // the report aggregation: exactly-once Kafka Streams (transactional ids start with the
      // application id), reads results and hashes, writes the report and alerts, and purges its
      // repartition topic (DeleteRecords: Delete)
      ReportConfig report = t.reportConfig();
      n.add(Need.topic(topics.results(), Op.Read));
      n.add(Need.topic(topics.report(), Op.Describe, Op.Write));
      n.add(Need.group(report.applicationId(), Op.Describe, Op.Read));
      n.add(
          Need.topicPrefix(
              report.applicationId() + "-",
              Op.Create,
              Op.Delete,
              Op.Describe,
              Op.DescribeConfigs,
              Op.Read,
              Op.Write));
      n.add(Need.transactionalIdPrefix(report.applicationId() + "-", Op.Describe, Op.Write));
    } else {
      // ReportTopics lists the topics to create the missing ones: the report must be visible
      n.add(Need.topic(topics.report(), Op.Describe));
    }
    return n;
  }

  static List<Need> compareNeeds(CaptureConfig capture, CompareConfig task) {
    List<Need> n = new ArrayList<>();
    for (TableTask table : task.tables()) {
      // TopicCheck describes each table topic; an incremental run reads it and its cleanup policy
      n.add(
          Need.topic(
              TopicLayout.topicName(capture.topicPrefix(), table.table()),
              Op.Describe,
              Op.DescribeConfigs,
              Op.Read));
    }
    CompareTopics topics = task.topics();
    // hash records (idempotent producer), sized by the topic's max.message.bytes
    n.add(Need.topic(topics.hashes(), Op.Describe, Op.DescribeConfigs, Op.Write));
    // flow control and the in-flight recheck read the verdicts; --wait reads the report
    n.add(Need.topic(topics.results(), Op.Describe, Op.Read));
    n.add(Need.topic(topics.report(), Op.Describe, Op.Read));
    return n;
  }

  static List<Need> alertsNeeds(TargetsConfig t, List<String> args) {
    int at = args.indexOf("--group");
    // AlertsCommand's default group: <prefix>-alerts
    String group = at >= 0 ? args.get(at + 1) : t.topicPrefix() + "-alerts";
    return List.of(
        Need.topic(t.topics().alerts(), Op.Describe, Op.Read),
        Need.group(group, Op.Describe, Op.Read));
  }

  /** Every topic some program of the rendering uses. */
  static Set<String> usedTopics(Rendered r) {
    Set<String> out = new java.util.TreeSet<>();
    needs(r).values().stream()
        .flatMap(List::stream)
        .filter(n -> n.type().equals("topic") && n.pattern().equals("literal"))
        .forEach(n -> out.add(n.name()));
    return out;
  }
}
