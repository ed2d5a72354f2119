package io.cdccompare.report.read;

import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.ORDERS;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.RUN;
import static io.cdccompare.report.read.ReportFixtures.counts;
import static io.cdccompare.report.read.ReportFixtures.entry;
import static io.cdccompare.report.read.ReportFixtures.nothingCompared;
import static io.cdccompare.report.read.ReportFixtures.recheckResult;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportJsonTest {
  private static final String TOPIC = "shop.compare.report";

  /** The entry of a run of slice 1 of 3: 31 of 90 source rows, 62 with the run before it. */
  private static ReportEntry slice1Of3(ReportEntry entry) {
    return ReportEntry.newBuilder(entry)
        .setSourceRows(90)
        .setComparedSourceRows(31)
        .setCoveredRows(62)
        .setSlice(1)
        .setSlices(3)
        .build();
  }

  private static List<TaskReport> differencesWithKeys() {
    List<TaskReport> tasks =
        TaskReports.of(
            List.of(
                slice1Of3(entry(PG, null, ReportStatus.DIFFERENCES, 3, 3, counts(27, 2, 1, 0, 1))),
                slice1Of3(
                    entry(PG, ORDERS, ReportStatus.DIFFERENCES, 3, 3, counts(27, 2, 1, 0, 1)))),
            Optional.empty(),
            List.of(PG, MARIA));
    DifferenceKeys keys =
        new DifferenceKeys(
            new DifferenceKeys.Keys(List.of("4"), 2),
            new DifferenceKeys.Keys(List.of("8"), 1),
            new DifferenceKeys.Keys(List.of(), 0));
    return TaskReports.withKeys(tasks, (t, target, table, run) -> keys);
  }

  /** {@link #differencesWithKeys()} with two recheck attempts of the run on pg's orders. */
  private static List<TaskReport> differencesWithRechecks() {
    RecheckAttempts attempts =
        RecheckAttempts.of(
            List.of(
                recheckResult(PG, ORDERS, 1, 0, 0)
                    .setCounts(counts(0, 1, 0, 0, 1))
                    .setFailedKeys(List.of("4"))
                    .setInFlightKeys(List.of("12"))
                    .build(),
                recheckResult(PG, ORDERS, 1, 0, 1).setState(ChunkState.UNVERIFIABLE).build(),
                recheckResult(PG, ORDERS, 2, 0, 0)
                    .setCounts(counts(0, 0, 0, 0, 1))
                    .setInFlightKeys(List.of("12"))
                    .build()),
            100);
    return TaskReports.withRechecks(differencesWithKeys(), attempts);
  }

  @Test
  void theRechecksOfATablesRunAreListedInAttemptOrder() throws Exception {
    // Given pg's orders rechecked twice
    List<TaskReport> tasks = differencesWithRechecks();

    // When it is written
    StringWriter text = new StringWriter();
    ReportJson.write(tasks, ReportOutcome.of(tasks), TOPIC, text);
    JsonNode doc = new ObjectMapper().readTree(text.toString());

    // Then the table holds both attempts with their counts and keys, and the exit code is the run's
    assertThat(doc.get("exitCode").asInt()).isEqualTo(3);
    JsonNode rechecks = doc.at("/tasks/0/targets/0/tables/0/rechecks");
    assertThat(rechecks.size()).isEqualTo(2);
    JsonNode first = rechecks.get(0);
    assertThat(first.get("runId").asText()).isEqualTo(RUN + ".recheck1");
    assertThat(first.get("attempt").asInt()).isEqualTo(1);
    assertThat(
            List.of(
                first.get("cleared").asLong(),
                first.get("failed").asLong(),
                first.get("missed").asLong(),
                first.get("extra").asLong(),
                first.get("inFlight").asLong(),
                first.get("unverifiableChunks").asLong()))
        .containsExactly(0L, 1L, 0L, 0L, 1L, 1L);
    assertThat(first.at("/keys/failed/keys").toString()).isEqualTo("[\"4\"]");
    assertThat(first.at("/keys/failed/total").asLong()).isEqualTo(1);
    assertThat(first.at("/keys/missed/keys").toString()).isEqualTo("[]");
    assertThat(first.at("/keys/inFlight/keys").toString()).isEqualTo("[\"12\"]");
    assertThat(rechecks.get(1).get("attempt").asInt()).isEqualTo(2);
    assertThat(rechecks.get(1).get("inFlight").asLong()).isEqualTo(1);
    assertThat(doc.at("/tasks/0/targets/0").has("rechecks")).isFalse();
    assertThat(ReportSchema.errors(doc)).as(text.toString()).isEmpty();
  }

  @Test
  void aTableWithoutRechecksHasNoRechecksField() {
    // Given the table's run was never rechecked, asked with the keys
    List<TaskReport> tasks =
        TaskReports.withRechecks(differencesWithKeys(), RecheckAttempts.of(List.of(), 100));

    // When it is written
    ObjectNode doc = ReportJson.document(tasks, ReportOutcome.of(tasks), TOPIC);

    // Then the table shows nothing new
    assertThat(doc.at("/tasks/0/targets/0/tables/0").has("rechecks")).isFalse();
  }

  @Test
  void theDocumentHoldsTheOutcomeAndEveryRow() throws Exception {
    // Given pg with differences (keys asked for) and maria without results
    List<TaskReport> tasks = differencesWithKeys();

    // When it is written
    StringWriter text = new StringWriter();
    ReportJson.write(tasks, ReportOutcome.of(tasks), TOPIC, text);
    JsonNode doc = new ObjectMapper().readTree(text.toString());

    // Then the outcome, the totals, the table and its keys are there with their values
    assertThat(doc.get("formatVersion").asInt()).isEqualTo(1);
    assertThat(doc.get("reportTopic").asText()).isEqualTo(TOPIC);
    assertThat(doc.get("exitCode").asInt()).isEqualTo(3);
    assertThat(doc.get("outcome").asText()).isEqualTo("DIFFERENCES");
    assertThat(doc.get("reason").asText())
        .isEqualTo("differences: nightly/pg-replica/public.orders");
    JsonNode pg = doc.at("/tasks/0/targets/0");
    assertThat(doc.at("/tasks/0/task").asText()).isEqualTo("nightly");
    assertThat(pg.get("target").asText()).isEqualTo(PG);
    assertThat(pg.get("status").asText()).isEqualTo("DIFFERENCES");
    assertThat(pg.get("runId").asText()).isEqualTo(RUN);
    assertThat(pg.get("taskKind").asText()).isEqualTo("FULL");
    assertThat(pg.get("lastUpdate").asText()).isEqualTo("2026-03-04T06:00:00Z");
    JsonNode orders = pg.at("/tables/0");
    assertThat(orders.get("table").asText()).isEqualTo(ORDERS);
    assertThat(
            List.of(
                orders.get("noted").asLong(),
                orders.get("verified").asLong(),
                orders.get("matched").asLong(),
                orders.get("failed").asLong(),
                orders.get("missed").asLong(),
                orders.get("extra").asLong(),
                orders.get("inFlight").asLong(),
                orders.get("unverifiableChunks").asLong(),
                orders.get("schemaDriftChunks").asLong()))
        .containsExactly(3L, 3L, 27L, 2L, 1L, 0L, 1L, 0L, 0L);
    assertThat(
            List.of(
                orders.get("sourceRows").asLong(),
                orders.get("comparedSourceRows").asLong(),
                orders.get("coveredRows").asLong(),
                orders.get("slice").asLong(),
                orders.get("slices").asLong()))
        .containsExactly(90L, 31L, 62L, 1L, 3L);
    assertThat(orders.get("coverage").asDouble()).isEqualTo(62.0 / 90);
    assertThat(orders.at("/keys/failed/keys").toString()).isEqualTo("[\"4\"]");
    assertThat(orders.at("/keys/failed/total").asLong()).isEqualTo(2);
    assertThat(orders.at("/keys/failed/omitted").asLong()).isEqualTo(1);
    assertThat(orders.at("/keys/missed/keys").toString()).isEqualTo("[\"8\"]");
    assertThat(orders.at("/keys/extra/keys").toString()).isEqualTo("[]");
    JsonNode maria = doc.at("/tasks/0/targets/1");
    assertThat(maria.get("status").asText()).isEqualTo("NO_RESULTS");
    assertThat(maria.get("runId").isNull()).isTrue();
    assertThat(maria.get("lastUpdate").isNull()).isTrue();
    assertThat(maria.get("sourceRows").asLong()).isZero();
    assertThat(maria.get("coverage").isNull()).isTrue();
    assertThat(maria.get("slice").isNull()).isTrue();
    assertThat(maria.get("slices").isNull()).isTrue();
    assertThat(maria.get("tables").size()).isZero();
  }

  @Test
  void documentsOfEveryOutcomeFollowTheSchema() {
    // Given reports of each outcome
    List<List<TaskReport>> reports =
        List.of(
            differencesWithKeys(),
            differencesWithRechecks(),
            List.of(),
            TaskReports.of(
                List.of(entry(PG, ORDERS, ReportStatus.IN_SYNC, 1, 1, counts(5, 0, 0, 0, 0))),
                Optional.empty(),
                List.of(PG)),
            TaskReports.of(
                List.of(
                    ReportFixtures.entry("nightly", PG, ORDERS)
                        .setStatus(ReportStatus.UNVERIFIABLE)
                        .setCaptureChunks(2)
                        .setApplyChunks(2)
                        .setUnverifiableChunks(1)
                        .setSchemaDriftChunks(1)
                        .setRunId(null)
                        .setTaskKind(null)
                        .build()),
                Optional.empty(),
                List.of(PG)),
            TaskReports.of(
                List.of(nothingCompared(PG, null, 10), nothingCompared(PG, ORDERS, 10)),
                Optional.empty(),
                List.of(PG)));

    for (List<TaskReport> tasks : reports) {
      // When each is written
      ObjectNode doc = ReportJson.document(tasks, ReportOutcome.of(tasks), TOPIC);

      // Then the schema accepts it
      assertThat(ReportSchema.errors(doc)).as(doc.toPrettyString()).isEmpty();
    }
  }

  @Test
  void theSchemaRefusesADocumentThatBreaksIt() {
    // Given valid documents, each then broken in one way
    ObjectNode missingCount =
        ReportJson.document(differencesWithKeys(), ReportOutcome.of(differencesWithKeys()), TOPIC);
    ((ObjectNode) missingCount.at("/tasks/0/targets/0/tables/0")).remove("failed");
    ObjectNode wrongCode =
        ReportJson.document(differencesWithKeys(), ReportOutcome.of(differencesWithKeys()), TOPIC);
    wrongCode.put("exitCode", 0);
    ObjectNode unknownField =
        ReportJson.document(differencesWithKeys(), ReportOutcome.of(differencesWithKeys()), TOPIC);
    ((ObjectNode) unknownField.at("/tasks/0/targets/0")).put("colour", "red");
    ObjectNode negative =
        ReportJson.document(differencesWithKeys(), ReportOutcome.of(differencesWithKeys()), TOPIC);
    ((ObjectNode) negative.at("/tasks/0/targets/0")).put("matched", -1);
    ObjectNode overCovered =
        ReportJson.document(differencesWithKeys(), ReportOutcome.of(differencesWithKeys()), TOPIC);
    ((ObjectNode) overCovered.at("/tasks/0/targets/0/tables/0")).put("coverage", 1.5);
    ObjectNode recheckColour =
        ReportJson.document(
            differencesWithRechecks(), ReportOutcome.of(differencesWithRechecks()), TOPIC);
    ((ObjectNode) recheckColour.at("/tasks/0/targets/0/tables/0/rechecks/1")).put("colour", "red");
    ObjectNode recheckWithoutKeys =
        ReportJson.document(
            differencesWithRechecks(), ReportOutcome.of(differencesWithRechecks()), TOPIC);
    ((ObjectNode) recheckWithoutKeys.at("/tasks/0/targets/0/tables/0/rechecks/0/keys"))
        .remove("inFlight");

    // When they are validated / Then each is refused
    assertThat(ReportSchema.errors(missingCount)).anyMatch(e -> e.contains("failed"));
    assertThat(ReportSchema.errors(wrongCode)).anyMatch(e -> e.contains("exitCode"));
    assertThat(ReportSchema.errors(unknownField)).anyMatch(e -> e.contains("colour"));
    assertThat(ReportSchema.errors(negative)).anyMatch(e -> e.contains("matched"));
    assertThat(ReportSchema.errors(overCovered)).anyMatch(e -> e.contains("coverage"));
    assertThat(ReportSchema.errors(recheckColour)).anyMatch(e -> e.contains("colour"));
    assertThat(ReportSchema.errors(recheckWithoutKeys)).anyMatch(e -> e.contains("inFlight"));
  }

  @Test
  void aTableThatComparedNothingIsIncompleteWithItsRowsNamed() throws Exception {
    // Given every row of orders was in flight on pg
    List<TaskReport> tasks =
        TaskReports.of(
            List.of(nothingCompared(PG, null, 10), nothingCompared(PG, ORDERS, 10)),
            Optional.empty(),
            List.of(PG));

    // When it is written
    StringWriter text = new StringWriter();
    ReportJson.write(tasks, ReportOutcome.of(tasks), TOPIC, text);
    JsonNode doc = new ObjectMapper().readTree(text.toString());

    // Then
    assertThat(doc.get("exitCode").asInt()).isEqualTo(5);
    assertThat(doc.get("outcome").asText()).isEqualTo("INCOMPLETE");
    assertThat(doc.get("reason").asText())
        .isEqualTo("nothing compared: nightly/pg-replica/public.orders (NOTHING_COMPARED)");
    JsonNode orders = doc.at("/tasks/0/targets/0/tables/0");
    assertThat(orders.get("status").asText()).isEqualTo("NOTHING_COMPARED");
    assertThat(orders.get("sourceRows").asLong()).isEqualTo(10);
    assertThat(orders.get("matched").asLong()).isZero();
    assertThat(orders.get("inFlight").asLong()).isEqualTo(10);
  }

  @Test
  void theExampleOfTheDocumentationFollowsTheSchema() throws Exception {
    // Given the example of docs/report-json.md
    String doc = java.nio.file.Files.readString(ReportSchema.FILE.resolveSibling("report-json.md"));
    int start = doc.indexOf("```json\n") + "```json\n".length();
    String example = doc.substring(start, doc.indexOf("```", start));

    // When it is validated / Then the schema accepts it
    assertThat(example).contains("\"formatVersion\"");
    assertThat(ReportSchema.errors(example)).isEmpty();
  }
}
