package io.cdccompare.report.read;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdccompare.core.report.RowTotals;
import io.cdccompare.core.report.SourceRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;
import java.util.Optional;

/**
 * Writes a report as one JSON document (Jackson), as {@code docs/report-json.md} describes and
 * {@code docs/report.schema.json} checks: the outcome (exit code, kind, reason), then per task and
 * target the totals and the tables. Fields that have no value (a target without results has no run)
 * are {@code null}, never left out; {@code keys} appears on the tables that have differences when
 * the keys were asked for, and {@code rechecks} on the tables whose run was rechecked.
 */
public final class ReportJson {
  /** The version of the document's shape; a change that breaks a reader raises it. */
  static final int FORMAT_VERSION = 1;

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ReportJson() {}

  /** The document of {@code tasks} and their outcome. */
  public static ObjectNode document(
      List<TaskReport> tasks, ReportOutcome outcome, String reportTopic) {
    ObjectNode doc = JSON.createObjectNode();
    doc.put("formatVersion", FORMAT_VERSION);
    doc.put("reportTopic", reportTopic);
    doc.put("exitCode", outcome.exitCode());
    doc.put("outcome", outcome.kind().name());
    putText(doc, "reason", outcome.reason());
    ArrayNode taskArray = doc.putArray("tasks");
    for (TaskReport task : tasks) {
      ObjectNode taskNode = taskArray.addObject();
      taskNode.put("task", task.task());
      ArrayNode targets = taskNode.putArray("targets");
      for (TargetReport target : task.targets()) {
        ObjectNode targetNode = targets.addObject();
        targetNode.put("target", target.target());
        putRow(targetNode, target.total());
        ArrayNode tables = targetNode.putArray("tables");
        for (ReportRow row : target.tables()) {
          ObjectNode tableNode = tables.addObject();
          tableNode.put("table", row.table().orElseThrow());
          putRow(tableNode, row);
          row.keys().ifPresent(keys -> putKeys(tableNode.putObject("keys"), keys));
          if (!row.rechecks().isEmpty()) {
            putRechecks(tableNode.putArray("rechecks"), row.rechecks());
          }
        }
      }
    }
    return doc;
  }

  /** Writes the document, indented, followed by a new line. */
  public static void write(
      List<TaskReport> tasks, ReportOutcome outcome, String reportTopic, Writer out) {
    try {
      out.write(JSON.writeValueAsString(document(tasks, outcome, reportTopic)));
      out.write(System.lineSeparator());
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report: " + e.getMessage(), e);
    }
  }

  private static void putRow(ObjectNode node, ReportRow row) {
    node.put("status", row.status().name());
    putText(node, "runId", row.runId());
    putText(node, "taskKind", row.taskKind());
    RowTotals rows = row.totals().rows();
    node.put("noted", row.noted());
    node.put("verified", row.verified());
    SourceRows source = row.totals().source();
    node.put("sourceRows", source.read());
    node.put("comparedSourceRows", source.compared());
    node.put("coveredRows", source.covered());
    if (row.coverage().isPresent()) {
      node.put("coverage", row.coverage().get());
    } else {
      node.putNull("coverage");
    }
    if (row.slice().isPresent()) {
      node.put("slice", row.slice().get().slice());
      node.put("slices", row.slice().get().slices());
    } else {
      node.putNull("slice");
      node.putNull("slices");
    }
    node.put("matched", rows.matched());
    node.put("failed", rows.failed());
    node.put("missed", rows.missed());
    node.put("extra", rows.extra());
    node.put("inFlight", rows.inFlight());
    node.put("unverifiableChunks", row.totals().unverifiableChunks());
    node.put("schemaDriftChunks", row.totals().schemaDriftChunks());
    putText(node, "lastUpdate", row.lastUpdate().map(Object::toString));
  }

  private static void putKeys(ObjectNode node, DifferenceKeys keys) {
    putKind(node.putObject("failed"), keys.failed());
    putKind(node.putObject("missed"), keys.missed());
    putKind(node.putObject("extra"), keys.extra());
  }

  private static void putRechecks(ArrayNode array, List<RecheckAttempt> attempts) {
    for (RecheckAttempt attempt : attempts) {
      ObjectNode node = array.addObject();
      node.put("kind", attempt.kind());
      node.put("runId", attempt.runId());
      node.put("attempt", attempt.attempt());
      RowTotals rows = attempt.rows();
      node.put("cleared", rows.matched());
      node.put("failed", rows.failed());
      node.put("missed", rows.missed());
      node.put("extra", rows.extra());
      node.put("inFlight", rows.inFlight());
      node.put("unverifiableChunks", attempt.unverifiableChunks());
      ObjectNode keys = node.putObject("keys");
      putKeys(keys, attempt.keys());
      putKind(keys.putObject("inFlight"), attempt.inFlight());
    }
  }

  private static void putKind(ObjectNode node, DifferenceKeys.Keys keys) {
    node.put("total", keys.total());
    node.put("omitted", keys.omitted());
    ArrayNode shown = node.putArray("keys");
    keys.shown().forEach(shown::add);
  }

  private static void putText(ObjectNode node, String field, Optional<String> value) {
    if (value.isPresent()) {
      node.put(field, value.get());
    } else {
      node.putNull(field);
    }
  }
}
