package io.cdccompare.core.note;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.table.TableName;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One compare note: the row of {@code repi.validatetables} that the compare writes before (OPEN)
 * and after (CLOSE) each chunk and that the capture turns into a marker in every partition of the
 * noted table's topic. The one definition of that row's columns ({@link #TASK} …), of its {@code
 * hash_locations} JSON ({@link #hashLocationsJson}, {@link #parseHashLocations}) and of what a
 * well-formed note is: {@link #read} refuses a malformed one with the column at fault, so a note
 * written by hand or by another version never becomes a wrong marker.
 *
 * @param kind the task kind, {@code FULL}, {@code INCREMENTAL}, {@code REPAIR} or {@code RECHECK}
 * @param firstKey the chunk's first compared key (CLOSE), null when it compared none
 * @param lastKey the chunk's last key (CLOSE)
 * @param chunkRows rows the chunk read (CLOSE), null for an OPEN
 * @param comparedRows rows it compared (CLOSE), null for an OPEN
 * @param range the compared key range (CLOSE), null when the chunk compared none or the note is an
 *     OPEN
 * @param slice the slice of the chunk the run compares, of {@code slices}
 */
public record Note(
    String task,
    TableName table,
    String runId,
    String kind,
    long chunk,
    Phase phase,
    int deep,
    String firstKey,
    String lastKey,
    Integer chunkRows,
    Integer comparedRows,
    String hashesTopic,
    List<HashLocation> hashLocations,
    String columnFingerprint,
    String comparedShape,
    String savedPosition,
    ComparedRange range,
    int slice,
    int slices,
    Instant notedAt) {

  /** The two notes of a chunk. */
  public enum Phase {
    OPEN,
    CLOSE
  }

  /**
   * The Kafka header that makes a table topic's record a marker (its value is the note's phase):
   * the capture sets it, the verifiers route on it, and an external sink filters on it.
   */
  public static final String MARKER_HEADER = "cdc.marker";

  public static final String TASK = "task";
  public static final String TABLE_SCHEMA = "table_schema";
  public static final String TABLE_NAME = "table_name";
  public static final String RUN_ID = "run_id";
  public static final String KIND = "kind";
  public static final String CHUNK = "chunk";
  public static final String PHASE = "phase";
  public static final String DEEP = "deep";
  public static final String FIRST_KEY = "first_key";
  public static final String LAST_KEY = "last_key";
  public static final String CHUNK_ROWS = "chunk_rows";
  public static final String COMPARED_ROWS = "compared_rows";
  public static final String HASHES_TOPIC = "hashes_topic";
  public static final String HASH_LOCATIONS = "hash_locations";
  public static final String COLUMN_FINGERPRINT = "column_fingerprint";
  public static final String COMPARED_SHAPE = "compared_shape";
  public static final String SAVED_POSITION = "saved_position";
  public static final String RANGE_LOWER = "range_lower";
  public static final String RANGE_LOWER_INCL = "range_lower_incl";
  public static final String RANGE_UPPER = "range_upper";
  public static final String SLICE = "slice";
  public static final String SLICES = "slices";
  public static final String NOTED_AT = "noted_at";

  /** The task kinds a note may name (the note table's CHECK constraint). */
  public static final List<String> KINDS = List.of("FULL", "INCREMENTAL", "REPAIR", "RECHECK");

  private static final JsonFactory JSON = new JsonFactory();

  public Note {
    require(task != null && !task.isBlank(), TASK, task);
    require(table != null, TABLE_NAME, table);
    require(runId != null && !runId.isBlank(), RUN_ID, runId);
    require(kind != null && KINDS.contains(kind), KIND, kind);
    require(chunk >= 0, CHUNK, chunk);
    require(phase != null, PHASE, phase);
    require(deep >= 1 && deep <= 100, DEEP, deep);
    require(slices >= 1 && slice >= 0 && slice < slices, SLICE, slice + " of " + slices);
    require(chunkRows == null || chunkRows >= 0, CHUNK_ROWS, chunkRows);
    require(comparedRows == null || comparedRows >= 0, COMPARED_ROWS, comparedRows);
    hashLocations = List.copyOf(hashLocations);
  }

  /**
   * Reads a note row.
   *
   * @param column the row's value of a column: a {@code String}, {@code Number}, {@code Boolean},
   *     or {@code null} when the value is null or the row has no such column (a note table of an
   *     earlier version); {@code noted_at} as ISO-8601 text with an offset, or an {@link Instant}
   * @throws IllegalArgumentException naming the column at fault when the row is no well-formed note
   */
  public static Note read(Function<String, Object> column) {
    String phase = text(column, PHASE);
    Phase parsedPhase;
    try {
      parsedPhase = phase == null ? null : Phase.valueOf(phase.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw invalid(PHASE, phase);
    }
    String schema = text(column, TABLE_SCHEMA);
    String name = text(column, TABLE_NAME);
    require(schema != null && name != null, TABLE_NAME, schema + "." + name);
    Boolean lowerInclusive = (Boolean) typed(column, RANGE_LOWER_INCL, Boolean.class);
    ComparedRange range =
        lowerInclusive == null
            ? null
            : new ComparedRange(
                text(column, RANGE_LOWER), lowerInclusive, text(column, RANGE_UPPER));
    return new Note(
        text(column, TASK),
        new TableName(schema, name),
        text(column, RUN_ID),
        text(column, KIND),
        number(column, CHUNK, -1L).longValue(),
        parsedPhase,
        number(column, DEEP, 0).intValue(),
        text(column, FIRST_KEY),
        text(column, LAST_KEY),
        optionalInt(column, CHUNK_ROWS),
        optionalInt(column, COMPARED_ROWS),
        text(column, HASHES_TOPIC),
        parseHashLocations(text(column, HASH_LOCATIONS)),
        text(column, COLUMN_FINGERPRINT),
        text(column, COMPARED_SHAPE),
        text(column, SAVED_POSITION),
        range,
        number(column, SLICE, 0).intValue(),
        number(column, SLICES, 1).intValue(),
        notedAt(column.apply(NOTED_AT)));
  }

  /** The {@code hash_locations} text of these locations: a JSON array of objects. */
  public static String hashLocationsJson(List<HashLocation> locations) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartArray();
      for (HashLocation l : locations) {
        g.writeStartObject();
        g.writeNumberField("tablePartition", l.tablePartition());
        g.writeNumberField("hashesPartition", l.hashesPartition());
        g.writeNumberField("offset", l.offset());
        g.writeNumberField("part", l.part());
        g.writeNumberField("partCount", l.partCount());
        g.writeEndObject();
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing JSON to a string failed", e);
    }
    return out.toString();
  }

  /**
   * Parses {@code hash_locations}; none when it is null or blank. A location without {@code part}
   * and {@code partCount} (written before records were split) is part 0 of 1.
   *
   * @throws IllegalArgumentException naming {@code hash_locations} when it is not such an array
   */
  public static List<HashLocation> parseHashLocations(String json) {
    List<HashLocation> out = new ArrayList<>();
    if (json == null || json.isBlank()) {
      return out;
    }
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw invalid(HASH_LOCATIONS, "not a JSON array: " + json);
      }
      while (p.nextToken() == JsonToken.START_OBJECT) {
        long[] v = {-1, -1, -1, 0, 1};
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          if (p.nextToken() != JsonToken.VALUE_NUMBER_INT) {
            throw invalid(HASH_LOCATIONS, field + " is not a whole number: " + json);
          }
          switch (field) {
            case "tablePartition" -> v[0] = p.getLongValue();
            case "hashesPartition" -> v[1] = p.getLongValue();
            case "offset" -> v[2] = p.getLongValue();
            case "part" -> v[3] = p.getLongValue();
            case "partCount" -> v[4] = p.getLongValue();
            default -> throw invalid(HASH_LOCATIONS, "unknown field " + field + ": " + json);
          }
        }
        try {
          out.add(
              new HashLocation(
                  Math.toIntExact(v[0]),
                  Math.toIntExact(v[1]),
                  v[2],
                  Math.toIntExact(v[3]),
                  Math.toIntExact(v[4])));
        } catch (IllegalArgumentException e) {
          throw invalid(HASH_LOCATIONS, e.getMessage() + " in " + json);
        }
      }
      if (p.currentToken() != JsonToken.END_ARRAY || p.nextToken() != null) {
        throw invalid(HASH_LOCATIONS, "not a JSON array of objects: " + json);
      }
      return out;
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "note column " + HASH_LOCATIONS + " is not valid JSON: " + e.getMessage(), e);
    } catch (ArithmeticException e) {
      throw invalid(HASH_LOCATIONS, "a number out of range: " + json);
    }
  }

  private static String text(Function<String, Object> column, String name) {
    Object value = column.apply(name);
    return value == null ? null : value.toString();
  }

  private static Object typed(Function<String, Object> column, String name, Class<?> type) {
    Object value = column.apply(name);
    if (value != null && !type.isInstance(value)) {
      throw invalid(name, value);
    }
    return value;
  }

  private static Number number(Function<String, Object> column, String name, Number absent) {
    Object value = typed(column, name, Number.class);
    return value == null ? absent : (Number) value;
  }

  private static Integer optionalInt(Function<String, Object> column, String name) {
    Number value = (Number) typed(column, name, Number.class);
    return value == null ? null : value.intValue();
  }

  private static Instant notedAt(Object value) {
    if (value == null) {
      return Instant.EPOCH;
    }
    if (value instanceof Instant instant) {
      return instant;
    }
    try {
      return OffsetDateTime.parse(value.toString()).toInstant();
    } catch (DateTimeParseException e) {
      throw invalid(NOTED_AT, value);
    }
  }

  private static void require(boolean ok, String column, Object value) {
    if (!ok) {
      throw invalid(column, value);
    }
  }

  private static IllegalArgumentException invalid(String column, Object value) {
    return new IllegalArgumentException("note column " + column + " is invalid: " + value);
  }
}
