package io.cdccompare.report.read;

import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.ORDERS;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.counts;
import static io.cdccompare.report.read.ReportFixtures.entry;
import static io.cdccompare.report.read.ReportFixtures.recheckResult;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.report.SourceRows;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportTableTest {
  private static String render(List<TaskReport> tasks) {
    StringWriter text = new StringWriter();
    ReportTable.write(tasks, new PrintWriter(text));
    return text.toString().replace(System.lineSeparator(), "\n");
  }

  /** The entry of a run that compared slice 0 of 3: 1196 of the 2990 rows the source read. */
  private static ReportEntry slice0Of3(ReportEntry entry) {
    return ReportEntry.newBuilder(entry)
        .setSourceRows(2990)
        .setComparedSourceRows(1196)
        .setCoveredRows(1196)
        .setSlice(0)
        .setSlices(3)
        .build();
  }

  @Test
  void rowsAreAlignedTextLeftNumbersRight() {
    // Given pg with differences on one table and maria named but without results
    List<TaskReport> tasks =
        TaskReports.of(
            List.of(
                slice0Of3(
                    entry(PG, null, ReportStatus.DIFFERENCES, 12, 12, counts(1190, 1, 2, 0, 3))),
                slice0Of3(
                    entry(PG, ORDERS, ReportStatus.DIFFERENCES, 12, 12, counts(1190, 1, 2, 0, 3)))),
            Optional.empty(),
            List.of(PG, MARIA));

    // When it is written
    String text = render(tasks);

    // Then every column lines up
    assertThat(text)
        .isEqualTo(
            "task nightly\n"
                + "TARGET         TABLE          RUN                      STATUS       NOTED"
                + "  VERIFIED  SOURCE ROWS  COVERED  MATCHED  FAILED  MISSED  EXTRA  IN FLIGHT"
                + "  UNVERIFIABLE  DRIFT\n"
                + "pg-replica     (all tables)   20260304T050607Z-a1b2c3  DIFFERENCES     12"
                + "        12         2990      40%     1190       1       2      0          3"
                + "             0      0\n"
                + "pg-replica     public.orders  20260304T050607Z-a1b2c3  DIFFERENCES     12"
                + "        12         2990      40%     1190       1       2      0          3"
                + "             0      0\n"
                + "maria-replica  (all tables)   -                        NO_RESULTS       -"
                + "         -            -        -        -       -       -      -          -"
                + "             -      -\n");
  }

  @Test
  void keysAreListedUnderTheirRowWithHowManyMoreExist() {
    // Given a table with 3 failed keys of which 2 are shown, and 1 extra key
    TaskReport task =
        TaskReports.of(
                List.of(entry(PG, ORDERS, ReportStatus.DIFFERENCES, 1, 1, counts(7, 3, 0, 1, 0))),
                Optional.empty(),
                List.of(PG))
            .get(0);
    DifferenceKeys keys =
        new DifferenceKeys(
            new DifferenceKeys.Keys(List.of("9", "10"), 3),
            new DifferenceKeys.Keys(List.of(), 0),
            new DifferenceKeys.Keys(List.of("a,b"), 1));
    List<TaskReport> withKeys =
        TaskReports.withKeys(List.of(task), (t, target, table, run) -> keys);

    // When it is written
    String text = render(withKeys);

    // Then the keys follow the table's row, one per line, the missed kind left out
    assertThat(text)
        .endsWith(
            "public.orders  20260304T050607Z-a1b2c3  DIFFERENCES      1         1            0"
                + "        -        7       3       0      1          0             0      0\n"
                + "    failed keys (3, first 2):\n"
                + "      9\n"
                + "      10\n"
                + "      (1 more)\n"
                + "    extra keys (1):\n"
                + "      a,b\n");
  }

  @Test
  void recheckAttemptsFollowTheKeysOfTheirRowOneLineEachWithTheirKeys() {
    // Given orders with a missed key and 3 rows in flight on pg; attempt 1 cleared 1, confirmed
    // key 5 failed and left 2 in flight; attempt 2 cleared 1 and left key 8 in flight
    TaskReport task =
        TaskReports.of(
                List.of(entry(PG, ORDERS, ReportStatus.DIFFERENCES, 1, 1, counts(7, 0, 1, 0, 3))),
                Optional.empty(),
                List.of(PG))
            .get(0);
    DifferenceKeys keys =
        new DifferenceKeys(
            new DifferenceKeys.Keys(List.of(), 0),
            new DifferenceKeys.Keys(List.of("2"), 1),
            new DifferenceKeys.Keys(List.of(), 0));
    RecheckAttempts attempts =
        RecheckAttempts.of(
            List.of(
                recheckResult(PG, ORDERS, 1, 0, 0)
                    .setCounts(counts(1, 1, 0, 0, 2))
                    .setFailedKeys(List.of("5"))
                    .setInFlightKeys(List.of("8", "6"))
                    .build(),
                recheckResult(PG, ORDERS, 2, 0, 0)
                    .setCounts(counts(1, 0, 0, 0, 1))
                    .setInFlightKeys(List.of("8"))
                    .build()),
            100);

    // When it is written with its keys and rechecks
    String text =
        render(
            TaskReports.withRechecks(
                TaskReports.withKeys(List.of(task), (t, target, table, run) -> keys), attempts));

    // Then each attempt follows the row's keys, the last one's in-flight rows unsettled
    assertThat(text)
        .endsWith(
            "        -        7       0       1      0          3             0      0\n"
                + "    missed keys (1):\n"
                + "      2\n"
                + "    recheck 1 (20260304T050607Z-a1b2c3.recheck1): cleared 1, failed 1, missed 0,"
                + " extra 0, in flight 2\n"
                + "    failed keys (1):\n"
                + "      5\n"
                + "    in flight keys (2):\n"
                + "      6\n"
                + "      8\n"
                + "    recheck 2 (20260304T050607Z-a1b2c3.recheck2): cleared 1, failed 0, missed 0,"
                + " extra 0, in flight 1 (unsettled)\n"
                + "    in flight keys (1):\n"
                + "      8\n");
  }

  @Test
  void aRecheckWithAnUnverifiableChunkSaysSoAndARowWithoutRechecksShowsNothingNew() {
    // Given orders rechecked once with its one chunk unverifiable, lines never rechecked
    List<TaskReport> tasks =
        TaskReports.of(
            List.of(
                entry(PG, ORDERS, ReportStatus.IN_SYNC, 1, 1, counts(7, 0, 0, 0, 1)),
                entry(PG, ReportFixtures.LINES, ReportStatus.IN_SYNC, 1, 1, counts(7, 0, 0, 0, 0))),
            Optional.empty(),
            List.of(PG));
    RecheckAttempts attempts =
        RecheckAttempts.of(
            List.of(
                recheckResult(PG, ORDERS, 1, 0, 0)
                    .setState(io.cdccompare.schemas.avro.ChunkState.UNVERIFIABLE)
                    .build()),
            100);

    // When it is written
    String text = render(TaskReports.withRechecks(tasks, attempts));

    // Then the attempt names its unverifiable chunk; lines has no line under it
    assertThat(text)
        .contains(
            "pg-replica  public.order_lines  20260304T050607Z-a1b2c3  IN_SYNC      1         1"
                + "            0        -        7       0       0      0          0             0"
                + "      0\npg-replica  public.orders ")
        .endsWith(
            "public.orders       20260304T050607Z-a1b2c3  IN_SYNC      1         1            0"
                + "        -        7       0       0      0          1             0      0\n"
                + "    recheck 1 (20260304T050607Z-a1b2c3.recheck1): cleared 0, failed 0, missed 0,"
                + " extra 0, in flight 0, unverifiable chunks 1\n");
  }

  @Test
  void controlCharactersFromTheTopicAreEscaped() {
    // Given a table name and key with a new line and an escape character
    TaskReport task =
        TaskReports.of(
                List.of(
                    entry(
                        PG,
                        "public.evil\n\u001b[2J",
                        ReportStatus.DIFFERENCES,
                        1,
                        1,
                        counts(0, 1, 0, 0, 0))),
                Optional.empty(),
                List.of(PG))
            .get(0);
    DifferenceKeys keys =
        new DifferenceKeys(
            new DifferenceKeys.Keys(List.of("x\ty\u009b"), 1),
            new DifferenceKeys.Keys(List.of(), 0),
            new DifferenceKeys.Keys(List.of(), 0));

    // When it is written
    String text = render(TaskReports.withKeys(List.of(task), (t, target, table, run) -> keys));

    // Then no control character reaches the terminal
    assertThat(text).contains("public.evil\\n\\u001b[2J").contains("      x\\ty\\u009b\n");
    assertThat(text.replace("\n", "").chars()).noneMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f));
  }

  @Test
  void coverageIsShownInPercentsRoundedDownWithOneDecimalBelowOnePercent() {
    // Given
    // When
    // Then
    assertThat(ReportTable.percent(new SourceRows(1000, 400, 400))).isEqualTo("40%");
    assertThat(ReportTable.percent(new SourceRows(1000, 100, 999))).isEqualTo("99%");
    assertThat(ReportTable.percent(new SourceRows(1000, 100, 1000))).isEqualTo("100%");
    assertThat(ReportTable.percent(new SourceRows(1000, 500, 1200))).isEqualTo("100%");
    assertThat(ReportTable.percent(new SourceRows(1000, 5, 5))).isEqualTo("0.5%");
    assertThat(ReportTable.percent(new SourceRows(2000, 1, 1))).isEqualTo("0.0%");
    assertThat(ReportTable.percent(new SourceRows(1000, 0, 0))).isEqualTo("0%");
    assertThat(ReportTable.percent(SourceRows.ZERO)).isEqualTo("100%");
  }

  @Test
  void aRowWhoseSliceIsUnknownShowsNoCoverage() {
    // Given a table entry of a run seen only from results so far (slices 0)
    List<TaskReport> tasks =
        TaskReports.of(
            List.of(entry(PG, ORDERS, ReportStatus.IN_PROGRESS, 0, 1, counts(5, 0, 0, 0, 0))),
            Optional.empty(),
            List.of(PG));

    // When it is written
    String text = render(tasks);

    // Then its source rows are 0 and its coverage is not known
    assertThat(text)
        .contains(
            "public.orders  20260304T050607Z-a1b2c3  IN_PROGRESS      0         1            0"
                + "        -        5");
  }

  @Test
  void anEmptyReportSaysSo() {
    // Given nothing to show / When it is written / Then one line says so
    assertThat(render(List.of())).isEqualTo("the report holds no entry\n");
  }
}
