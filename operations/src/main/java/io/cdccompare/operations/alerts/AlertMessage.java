package io.cdccompare.operations.alerts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdccompare.schemas.avro.Alert;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The body an alert is POSTed with: {@code json} (every field of the alert, named as in its Avro
 * schema, times in ISO-8601) or {@code slack} (an incoming-webhook message: one {@code text} line
 * naming code, task, table, target and run, then the alert's message).
 */
public enum AlertMessage {
  JSON,
  SLACK;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Parses {@code json} or {@code slack}. */
  public static AlertMessage parse(String text) {
    for (AlertMessage format : values()) {
      if (format.name().toLowerCase(Locale.ROOT).equals(text)) {
        return format;
      }
    }
    throw new IllegalArgumentException("--format must be json or slack, was '" + text + "'");
  }

  /** The alert's body in this format (UTF-8 JSON). */
  public byte[] body(Alert alert) {
    ObjectNode node = MAPPER.createObjectNode();
    if (this == SLACK) {
      node.put("text", headline(alert) + "\n" + alert.getMessage());
    } else {
      node.put("code", alert.getCode().name());
      node.put("origin", alert.getOrigin());
      node.put("task", alert.getTask());
      node.put("runId", alert.getRunId());
      node.put("table", alert.getTable());
      node.put("target", alert.getTarget());
      node.put("chunk", alert.getChunk());
      node.put("message", alert.getMessage());
      node.put("topic", alert.getTopic());
      node.put("partition", alert.getPartition());
      node.put("offset", alert.getOffset());
      node.put("lsn", alert.getLsn());
      node.put("raisedAt", alert.getRaisedAt().toString());
      alert.getSampleKeys().forEach(node.putArray("sampleKeys")::add);
    }
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code cdc-compare DIFFERENCES: task nightly, table public.items, target b, run r1}. */
  static String headline(Alert alert) {
    StringBuilder line = new StringBuilder("cdc-compare ").append(alert.getCode().name());
    String sep = ": ";
    for (String[] part :
        new String[][] {
          {"task", alert.getTask()},
          {"table", alert.getTable()},
          {"target", alert.getTarget()},
          {"run", alert.getRunId()}
        }) {
      if (part[1] != null) {
        line.append(sep).append(part[0]).append(' ').append(part[1]);
        sep = ", ";
      }
    }
    return line.toString();
  }
}
