package io.cdccompare.core.compare;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.function.ColumnFunction;
import io.cdccompare.core.rowhash.function.ColumnFunctionParser;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Everything both sides must agree on to compare a table's rows: the key columns (in key order),
 * the compared columns (in hash order) with their types and functions, the canonical format and the
 * hash function, and the target table. It travels with every note as JSON ({@link #toJson()}), so a
 * verifier hashes the target by the source's rules without a copy of the task configuration, and
 * its {@link #fingerprint()} tells a resumed task (or a verifier) that the key or the compared
 * columns changed.
 *
 * @param targetTable the target table as written in configuration, {@code null} when it has the
 *     source table's name
 */
public record ComparedShape(
    List<HashedColumn> keyColumns,
    HashPlan plan,
    CanonicalFormat format,
    String hashFunction,
    String targetTable) {

  private static final JsonFactory JSON = new JsonFactory();

  public ComparedShape {
    keyColumns = List.copyOf(keyColumns);
    if (keyColumns.isEmpty()) {
      throw new IllegalArgumentException("tables[" + plan.table() + "] needs key columns");
    }
    if (format == null || hashFunction == null || hashFunction.isBlank()) {
      throw new IllegalArgumentException("a compared shape needs a format and a hash function");
    }
  }

  /**
   * The shape as compact JSON with a fixed field order: {@code {"table", "targetTable", "format",
   * "hashFunction", "keyColumns": [{"source", "target", "type"}], "columns": [{"source", "target",
   * "type", "functions": [spec…]}]}}.
   */
  public String toJson() {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("table", plan.table());
      g.writeStringField("targetTable", targetTable);
      g.writeStringField("format", format.name());
      g.writeStringField("hashFunction", hashFunction);
      g.writeArrayFieldStart("keyColumns");
      for (HashedColumn key : keyColumns) {
        writeColumn(g, key, false);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("columns");
      for (HashedColumn column : plan.columns()) {
        writeColumn(g, column, true);
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * SHA-256 of {@link #toJson()} without the table names, as 32 hex digits: equal exactly when the
   * key and compared columns, their order, types, functions, format and hash function are equal.
   */
  public String fingerprint() {
    ComparedShape unnamed =
        new ComparedShape(
            keyColumns, new HashPlan("-", plan.columns()), format, hashFunction, null);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(unnamed.toJson().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * Reads the JSON of {@link #toJson()} back.
   *
   * @throws IllegalArgumentException if the text is not such a shape (naming what is wrong)
   */
  public static ComparedShape fromJson(String json) {
    try (JsonParser p = JSON.createParser(json)) {
      String table = null;
      String targetTable = null;
      CanonicalFormat format = null;
      String hashFunction = null;
      List<HashedColumn> keys = List.of();
      List<HashedColumn> columns = List.of();
      expect(p.nextToken(), JsonToken.START_OBJECT, "a shape object");
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        switch (field) {
          case "table" -> table = p.getValueAsString();
          case "targetTable" -> targetTable = p.getValueAsString();
          case "format" -> format = CanonicalFormat.valueOf(p.getValueAsString());
          case "hashFunction" -> hashFunction = p.getValueAsString();
          case "keyColumns" -> keys = readColumns(p);
          case "columns" -> columns = readColumns(p);
          default -> p.skipChildren();
        }
      }
      return new ComparedShape(
          keys, new HashPlan(table, columns), format, hashFunction, targetTable);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a compared shape: " + e.getMessage(), e);
    }
  }

  private static List<HashedColumn> readColumns(JsonParser p) throws IOException {
    expect(p.currentToken(), JsonToken.START_ARRAY, "an array of columns");
    List<HashedColumn> columns = new ArrayList<>();
    while (p.nextToken() == JsonToken.START_OBJECT) {
      String source = null;
      String target = null;
      LogicalType type = null;
      List<ColumnFunction> functions = new ArrayList<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        switch (field) {
          case "source" -> source = p.getValueAsString();
          case "target" -> target = p.getValueAsString();
          case "type" -> type = LogicalType.valueOf(p.getValueAsString());
          case "functions" -> {
            expect(p.currentToken(), JsonToken.START_ARRAY, "an array of functions");
            while (p.nextToken() == JsonToken.VALUE_STRING) {
              functions.add(ColumnFunctionParser.parse(p.getValueAsString()));
            }
          }
          default -> p.skipChildren();
        }
      }
      columns.add(new HashedColumn(source, target, type, functions));
    }
    return columns;
  }

  private static void expect(JsonToken actual, JsonToken wanted, String what) {
    if (actual != wanted) {
      throw new IllegalArgumentException("expected " + what + ", found " + actual);
    }
  }

  private static void writeColumn(JsonGenerator g, HashedColumn column, boolean functions)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("source", column.sourceName());
    g.writeStringField("target", column.targetName());
    g.writeStringField("type", column.type().name());
    if (functions) {
      g.writeArrayFieldStart("functions");
      for (ColumnFunction function : column.functions()) {
        g.writeString(function.spec());
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }
}
