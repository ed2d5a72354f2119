package io.cdccompare.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.note.Note;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The note statements are built from the note's one column list: a column added to the table but
 * not to the statements, or a placeholder too many or too few, fails here before any database.
 */
class NoteSqlTest {
  private static final Pattern DDL_COLUMN =
      Pattern.compile("^\\s{2}([a-z_]+)\\s", Pattern.MULTILINE);

  private static List<String> tableColumns() {
    Matcher m = DDL_COLUMN.matcher(NoteTable.DDL);
    return m.results().map(r -> r.group(1)).toList();
  }

  private static long placeholders(String sql) {
    return sql.chars().filter(c -> c == '?').count();
  }

  @Test
  void anOpenWritesEveryColumnOfTheNoteTable() {
    List<String> columns = tableColumns();

    assertThat(columns).hasSize(23).contains(Note.RANGE_UPPER, Note.SLICES, Note.NOTED_AT);
    for (String column : columns) {
      assertThat(NoteSql.OPEN)
          .as(column)
          .containsPattern("[ (]" + column + "[,)]|" + column + " = ");
    }
    for (String cleared : List.of(Note.FIRST_KEY, Note.HASH_LOCATIONS, Note.RANGE_LOWER_INCL)) {
      assertThat(NoteSql.OPEN).contains(cleared + " = NULL");
    }
    assertThat(NoteSql.OPEN)
        .doesNotContain(Note.CHUNK + " = NULL", Note.SAVED_POSITION + " = NULL");
  }

  @Test
  void aCloseWritesWhatACloseKnowsAndLeavesTheOpensSettings() {
    for (String column : NoteSql.CLOSED) {
      assertThat(NoteSql.CLOSE_IN_WINDOW).contains(column + " = ?");
      assertThat(NoteSql.CLOSE_OF_OPEN).contains(column + " = ?");
    }
    for (String kept :
        List.of(Note.KIND, Note.DEEP, Note.SLICE, Note.COLUMN_FINGERPRINT, Note.COMPARED_SHAPE)) {
      assertThat(NoteSql.CLOSE_IN_WINDOW).doesNotContain(kept + " = ");
    }
    assertThat(NoteSql.CLOSE_OF_OPEN).endsWith("run_id = ? AND chunk = ? AND phase = 'OPEN'");
  }

  @Test
  void theBindersFillEveryPlaceholder() {
    assertThat(placeholders(NoteSql.OPEN)).isEqualTo(NoteSql.KEY.size() + NoteSql.OPENED.size());
    // bindClose binds the CLOSE's columns, the key and the run id; the conditions add their chunks
    long close = NoteSql.CLOSED.size() + NoteSql.KEY.size() + 1;
    assertThat(placeholders(NoteSql.CLOSE_IN_WINDOW)).isEqualTo(close + 3);
    assertThat(placeholders(NoteSql.CLOSE_OF_OPEN)).isEqualTo(close + 1);
  }

  @Test
  void everyPositionStatementThatNamesATableEndsWithItsRow() {
    for (String sql :
        Arrays.asList(
            PositionSql.RUNNING,
            PositionSql.ADVANCE,
            PositionSql.RECORD_START,
            PositionSql.FINISH,
            PositionSql.COMPLETE)) {
      assertThat(sql)
          .startsWith("UPDATE repi.comparetables SET ")
          .endsWith(PositionSql.WHERE_TABLE);
    }
    assertThat(placeholders(PositionSql.ADVANCE)).isEqualTo(5 + 3);
    assertThat(placeholders(PositionSql.RESET)).isEqualTo(6);
  }
}
