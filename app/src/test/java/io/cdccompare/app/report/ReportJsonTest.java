package io.cdccompare.app.report;

import static io.cdccompare.app.report.ReportFixtures.MARIA;
import static io.cdccompare.app.report.ReportFixtures.ORDERS;
import static io.cdccompare.app.report.ReportFixtures.PG;
import static io.cdccompare.app.report.ReportFixtures.RUN;
import static io.cdccompare.app.report.ReportFixtures.counts;
import static io.cdccompare.app.report.ReportFixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdccompare.schemas.avro.ReportStatus;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportJsonTest {
  private static final String TOPIC = "shop.compare.report";

  private static List<TaskReport> differencesWithKeys() {
    List<TaskReport> tasks =
        TaskReports.of(
            List.of(
                entry(PG, null, ReportStatus.DIFFERENCES, 3, 3, counts(27, 2, 1, 0, 1)),
                entry(PG, ORDERS, ReportStatus.DIFFERENCES, 3, 3, counts(27, 2, 1, 0, 1))),
            Optional.empty(),
            List.of(PG, MARIA));
    DifferenceKeys keys =
        new DifferenceKeys(
            new DifferenceKeys.Keys(List.of("4"), 2),
            new DifferenceKeys.Keys(List.of("8"), 1),
            new DifferenceKeys.Keys(List.of(), 0));
    return TaskReports.withKeys(tasks, (t, target, table, run) -> keys);
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
    assertThat(orders.at("/keys/failed/keys").toString()).isEqualTo("[\"4\"]");
    assertThat(orders.at("/keys/failed/total").asLong()).isEqualTo(2);
    assertThat(orders.at("/keys/failed/omitted").asLong()).isEqualTo(1);
    assertThat(orders.at("/keys/missed/keys").toString()).isEqualTo("[\"8\"]");
    assertThat(orders.at("/keys/extra/keys").toString()).isEqualTo("[]");
    JsonNode maria = doc.at("/tasks/0/targets/1");
    assertThat(maria.get("status").asText()).isEqualTo("NO_RESULTS");
    assertThat(maria.get("runId").isNull()).isTrue();
    assertThat(maria.get("lastUpdate").isNull()).isTrue();
    assertThat(maria.get("tables").size()).isZero();
  }

  @Test
  void documentsOfEveryOutcomeFollowTheSchema() {
    // Given reports of each outcome
    List<List<TaskReport>> reports =
        List.of(
            differencesWithKeys(),
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

    // When they are validated / Then each is refused
    assertThat(ReportSchema.errors(missingCount)).anyMatch(e -> e.contains("failed"));
    assertThat(ReportSchema.errors(wrongCode)).anyMatch(e -> e.contains("exitCode"));
    assertThat(ReportSchema.errors(unknownField)).anyMatch(e -> e.contains("colour"));
    assertThat(ReportSchema.errors(negative)).anyMatch(e -> e.contains("matched"));
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
