package io.cdccompare.source;

import static io.cdccompare.core.note.Note.CHUNK;
import static io.cdccompare.core.note.Note.CHUNK_ROWS;
import static io.cdccompare.core.note.Note.COLUMN_FINGERPRINT;
import static io.cdccompare.core.note.Note.COMPARED_ROWS;
import static io.cdccompare.core.note.Note.COMPARED_SHAPE;
import static io.cdccompare.core.note.Note.DEEP;
import static io.cdccompare.core.note.Note.FIRST_KEY;
import static io.cdccompare.core.note.Note.HASHES_TOPIC;
import static io.cdccompare.core.note.Note.HASH_LOCATIONS;
import static io.cdccompare.core.note.Note.KIND;
import static io.cdccompare.core.note.Note.LAST_KEY;
import static io.cdccompare.core.note.Note.NOTED_AT;
import static io.cdccompare.core.note.Note.PHASE;
import static io.cdccompare.core.note.Note.RANGE_LOWER;
import static io.cdccompare.core.note.Note.RANGE_LOWER_INCL;
import static io.cdccompare.core.note.Note.RANGE_UPPER;
import static io.cdccompare.core.note.Note.RUN_ID;
import static io.cdccompare.core.note.Note.SAVED_POSITION;
import static io.cdccompare.core.note.Note.SLICE;
import static io.cdccompare.core.note.Note.SLICES;
import static io.cdccompare.core.note.Note.TABLE_NAME;
import static io.cdccompare.core.note.Note.TABLE_SCHEMA;
import static io.cdccompare.core.note.Note.TASK;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.note.HashLocation;
import io.cdccompare.core.note.Note;
import io.cdccompare.core.table.TableName;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The statements that write a compare note into {@code repi.validatetables} ({@link NoteTable}),
 * built from the one list of its columns ({@link Note}'s constants) and apart from their execution,
 * as the target side's keyset and checkpoint SQL is. Every note is written by one of two
 * statements: {@link #OPEN} (the upsert of a chunk's OPEN, which clears what a CLOSE wrote) and a
 * CLOSE ({@link #CLOSE_IN_WINDOW} for a keyset chunk, {@link #CLOSE_OF_OPEN} for a key-list chunk),
 * which updates only the row that holds the chunk's OPEN.
 */
public final class NoteSql {

  /** The columns that name a note's row: the table's primary key. */
  static final List<String> KEY = List.of(TASK, TABLE_SCHEMA, TABLE_NAME);

  /** What an OPEN writes besides the key and the phase; a CLOSE leaves them as the OPEN wrote. */
  static final List<String> OPENED =
      List.of(
          RUN_ID,
          KIND,
          CHUNK,
          DEEP,
          SLICE,
          SLICES,
          COLUMN_FINGERPRINT,
          COMPARED_SHAPE,
          SAVED_POSITION);

  /**
   * What a CLOSE writes besides the phase (its chunk and saved position included); an OPEN sets
   * those that are the CLOSE's alone to null.
   */
  static final List<String> CLOSED =
      List.of(
          CHUNK,
          FIRST_KEY,
          LAST_KEY,
          CHUNK_ROWS,
          COMPARED_ROWS,
          HASHES_TOPIC,
          HASH_LOCATIONS,
          RANGE_LOWER,
          RANGE_LOWER_INCL,
          RANGE_UPPER,
          SAVED_POSITION);

  /** The OPEN of a chunk: inserts the row of (task, table) or overwrites the note it holds. */
  public static final String OPEN = open();

  /**
   * The CLOSE of a keyset chunk. The row may hold this chunk's OPEN, the CLOSE of the chunk before
   * (committed after this OPEN) or the OPEN of the next one (read meanwhile): parameters after
   * {@link #bindClose}'s are the chunk before, this chunk and the next.
   */
  public static final String CLOSE_IN_WINDOW =
      close(
          "("
              + CHUNK
              + " = ? AND "
              + PHASE
              + " = 'CLOSE' OR "
              + CHUNK
              + " IN (?, ?) AND "
              + PHASE
              + " = 'OPEN')");

  /**
   * The CLOSE of a key-list chunk: only the row that holds this chunk's OPEN; the parameter after
   * {@link #bindClose}'s is the chunk.
   */
  public static final String CLOSE_OF_OPEN = close(CHUNK + " = ? AND " + PHASE + " = 'OPEN'");

  /**
   * An OPEN note.
   *
   * @param deep the percentage of rows compared, 1 to 100
   * @param slice the slice of the chunk the run compares, of {@code slices}
   * @param savedPosition the resume position the OPEN records, null for none
   */
  public record Open(
      String task,
      TableName table,
      String runId,
      String kind,
      long chunk,
      int deep,
      int slice,
      int slices,
      String fingerprint,
      String shape,
      String savedPosition) {}

  /**
   * A CLOSE note.
   *
   * @param firstKey the first compared key, null when the chunk compared none or lists keys
   * @param lastKey the last key read, null for a key-list chunk
   * @param range the compared key range, null when none
   * @param savedPosition the resume position after the chunk, null for a key-list chunk
   */
  public record Close(
      String task,
      TableName table,
      String runId,
      long chunk,
      String firstKey,
      String lastKey,
      int chunkRows,
      int comparedRows,
      String hashesTopic,
      List<HashLocation> locations,
      ComparedRange range,
      String savedPosition) {}

  private NoteSql() {}

  /**
   * Binds an OPEN to {@link #OPEN}.
   *
   * @return the index of the next parameter (none follows)
   */
  public static int bindOpen(PreparedStatement s, Open open) throws SQLException {
    int i = bindKey(s, 1, open.task(), open.table());
    s.setString(i++, open.runId());
    s.setString(i++, open.kind());
    s.setLong(i++, open.chunk());
    s.setInt(i++, open.deep());
    s.setInt(i++, open.slice());
    s.setInt(i++, open.slices());
    s.setString(i++, open.fingerprint());
    s.setString(i++, open.shape());
    s.setString(i++, open.savedPosition());
    return i;
  }

  /**
   * Binds a CLOSE to {@link #CLOSE_IN_WINDOW} or {@link #CLOSE_OF_OPEN}.
   *
   * @return the index of the statement's first chunk parameter
   */
  public static int bindClose(PreparedStatement s, Close close) throws SQLException {
    int i = 1;
    ComparedRange range = close.range();
    s.setLong(i++, close.chunk());
    s.setString(i++, close.firstKey());
    s.setString(i++, close.lastKey());
    s.setInt(i++, close.chunkRows());
    s.setInt(i++, close.comparedRows());
    s.setString(i++, close.hashesTopic());
    s.setString(i++, Note.hashLocationsJson(close.locations()));
    s.setString(i++, range == null ? null : range.lower());
    s.setObject(i++, range == null ? null : range.lowerInclusive(), Types.BOOLEAN);
    s.setString(i++, range == null ? null : range.upper());
    s.setString(i++, close.savedPosition());
    i = bindKey(s, i, close.task(), close.table());
    s.setString(i++, close.runId());
    return i;
  }

  private static int bindKey(PreparedStatement s, int first, String task, TableName table)
      throws SQLException {
    s.setString(first, task);
    s.setString(first + 1, table.schema());
    s.setString(first + 2, table.table());
    return first + 3;
  }

  private static String open() {
    List<String> inserted = Stream.concat(KEY.stream(), OPENED.stream()).toList();
    Stream<String> written = OPENED.stream().map(c -> c + " = excluded." + c);
    Stream<String> cleared =
        CLOSED.stream().filter(c -> !OPENED.contains(c)).map(c -> c + " = NULL");
    return "INSERT INTO "
        + NoteTable.NAME
        + " AS v ("
        + String.join(", ", inserted)
        + ", "
        + PHASE
        + ", "
        + NOTED_AT
        + ") VALUES ("
        + inserted.stream().map(c -> "?").collect(Collectors.joining(", "))
        + ", 'OPEN', now()) ON CONFLICT ("
        + String.join(", ", KEY)
        + ") DO UPDATE SET "
        + PHASE
        + " = 'OPEN', "
        + Stream.concat(written, cleared).collect(Collectors.joining(", "))
        + ", "
        + NOTED_AT
        + " = now()";
  }

  private static String close(String chunkCondition) {
    return "UPDATE "
        + NoteTable.NAME
        + " SET "
        + PHASE
        + " = 'CLOSE', "
        + CLOSED.stream().map(c -> c + " = ?").collect(Collectors.joining(", "))
        + ", "
        + NOTED_AT
        + " = now() WHERE "
        + KEY.stream().map(c -> c + " = ?").collect(Collectors.joining(" AND "))
        + " AND "
        + RUN_ID
        + " = ? AND "
        + chunkCondition;
  }
}
