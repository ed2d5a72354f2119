package io.cdccompare.operations.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.time.Instant;

/**
 * Writes a {@link StatusReport} as one JSON document ({@code cdc-compare status -o json}): the same
 * parts and values as the text, with exact numbers, {@code null} where a value is unknown, and
 * {@code complete} false when some part was unreachable. Field names are the contract; they are
 * written explicitly, not derived from the Java records.
 */
public final class StatusJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private StatusJson() {}

  public static void print(StatusReport report, PrintWriter out) {
    try {
      out.println(MAPPER.writeValueAsString(tree(report)));
      out.flush();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the status as JSON", e);
    }
  }

  static ObjectNode tree(StatusReport report) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("topicPrefix", report.topicPrefix());
    root.put("readAt", text(report.readAt()));
    root.put("complete", report.complete());
    root.put("resyncNeeded", report.resyncNeeded());
    root.set("capture", capture(report.capture()));
    ObjectNode kafka = root.putObject("kafka");
    kafka.put("bootstrapServers", report.bootstrapServers());
    kafka.put("unreachable", report.kafkaUnreachable());
    ArrayNode targets = root.putArray("targets");
    report.targets().forEach(t -> targets.add(target(t)));
    root.set("compares", compares(report.compares()));
    return root;
  }

  private static ObjectNode capture(CaptureStatus c) {
    if (c == null) {
      return null;
    }
    ObjectNode node = MAPPER.createObjectNode();
    node.put("slot", c.slot());
    node.put("database", c.database());
    node.put("state", c.state().name());
    node.put("active", c.active());
    node.put("walStatus", c.walStatus());
    node.put("confirmedFlushLsn", c.confirmedFlushLsn());
    node.put("currentLsn", c.currentLsn());
    node.put("behindBytes", c.behindBytes());
    node.put("unreachable", c.unreachable());
    return node;
  }

  private static ObjectNode target(TargetStatus t) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("name", t.name());
    node.put("applicationId", t.applicationId());
    node.put("database", t.database());
    node.put("unreachable", t.unreachable());
    node.put("note", t.note());
    node.put("lagRecords", t.lagRecords());
    node.put("lagSeconds", t.lagSeconds());
    node.put("followGroup", t.followGroup());
    node.put("followLagRecords", t.followLagRecords());
    ArrayNode partitions = node.putArray("partitions");
    for (PartitionStatus p : t.partitions()) {
      ObjectNode row = partitions.addObject();
      row.put("topic", p.topic());
      row.put("partition", p.partition());
      row.put("checkpoint", p.checkpoint());
      row.put("startOffset", p.startOffset());
      row.put("endOffset", p.endOffset());
      row.put("lagRecords", p.lagRecords());
      row.put("lagSeconds", p.lagSeconds());
      row.put("groupOffset", p.groupOffset());
      row.put("problem", p.problem());
      row.put("followOffset", p.followOffset());
      row.put("followLagRecords", p.followLagRecords());
    }
    ArrayNode missing = node.putArray("missingTopics");
    t.missingTopics().forEach(missing::add);
    return node;
  }

  private static ObjectNode compares(CompareStatus c) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("reportTopic", c.reportTopic());
    node.put("reportExists", c.reportExists());
    node.put("unreachable", c.unreachable());
    ArrayNode entries = node.putArray("entries");
    for (CompareStatus.Entry e : c.entries()) {
      ObjectNode row = entries.addObject();
      row.put("task", e.task());
      row.put("target", e.target());
      row.put("runId", e.runId());
      row.put("status", e.status());
      row.put("chunksNoted", e.chunksNoted());
      row.put("chunksVerified", e.chunksVerified());
      row.put("lastUpdate", text(e.lastUpdate()));
    }
    return node;
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
