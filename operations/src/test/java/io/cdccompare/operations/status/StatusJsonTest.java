package io.cdccompare.operations.status;

import static io.cdccompare.operations.status.StatusFixtures.compares;
import static io.cdccompare.operations.status.StatusFixtures.followingTarget;
import static io.cdccompare.operations.status.StatusFixtures.laggingTarget;
import static io.cdccompare.operations.status.StatusFixtures.report;
import static io.cdccompare.operations.status.StatusFixtures.slot;
import static io.cdccompare.operations.status.StatusFixtures.unreachableTarget;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusJsonTest {

  @Test
  void theDocumentHoldsEveryPartWithExactNumbersAndNullsForUnknowns() throws Exception {
    // Given
    StatusReport report =
        report(slot(), null, List.of(laggingTarget(), unreachableTarget()), compares());

    // When
    StringWriter text = new StringWriter();
    StatusJson.print(report, new PrintWriter(text));
    JsonNode json = new ObjectMapper().readTree(text.toString());

    // Then
    assertThat(json.get("complete").asBoolean()).isFalse();
    assertThat(json.at("/capture/behindBytes").asLong()).isEqualTo(24_680);
    assertThat(json.at("/capture/state").asText()).isEqualTo("OK");
    assertThat(json.at("/kafka/unreachable").isNull()).isTrue();
    JsonNode pg = json.at("/targets/0");
    assertThat(pg.get("lagRecords").asLong()).isEqualTo(6);
    assertThat(pg.get("lagSeconds").asDouble()).isEqualTo(90.25);
    assertThat(pg.at("/partitions/0/checkpoint").asLong()).isEqualTo(3);
    assertThat(pg.at("/partitions/0/endOffset").asLong()).isEqualTo(10);
    assertThat(pg.at("/partitions/0/groupOffset").asLong()).isEqualTo(2);
    assertThat(pg.at("/partitions/1/groupOffset").isNull()).isTrue();
    assertThat(pg.at("/missingTopics/0").asText()).isEqualTo("shop.public.items");
    assertThat(json.at("/targets/1/unreachable").asText()).startsWith("cannot connect to target");
    assertThat(json.at("/compares/entries/0/chunksNoted").asLong()).isEqualTo(12);
    assertThat(json.at("/compares/entries/0/chunksVerified").asLong()).isEqualTo(9);
    assertThat(json.at("/compares/entries/0/lastUpdate").asText())
        .isEqualTo("2026-01-01T11:59:00Z");
  }

  @Test
  void aVerifyOnlyTargetHasItsFollowedGroupAndItsLag() throws Exception {
    // Given / When
    JsonNode json =
        StatusJson.tree(
            report(null, null, List.of(followingTarget(), laggingTarget()), compares()));

    // Then
    JsonNode following = json.at("/targets/0");
    assertThat(following.get("followGroup").asText()).isEqualTo("jdbc-sink");
    assertThat(following.get("followLagRecords").asLong()).isEqualTo(5);
    assertThat(following.get("lagRecords").asLong()).isEqualTo(6);
    assertThat(following.at("/partitions/0/followOffset").asLong()).isEqualTo(9);
    assertThat(following.at("/partitions/0/followLagRecords").asLong()).isEqualTo(1);
    assertThat(following.at("/partitions/1/followOffset").isNull()).isTrue();
    assertThat(following.at("/partitions/1/followLagRecords").asLong()).isEqualTo(4);
    JsonNode applying = json.at("/targets/1");
    assertThat(applying.get("followGroup").isNull()).isTrue();
    assertThat(applying.get("followLagRecords").isNull()).isTrue();
    assertThat(applying.at("/partitions/0/followLagRecords").isNull()).isTrue();
  }

  @Test
  void noSourceIsANullCapture() throws Exception {
    // Given / When
    JsonNode json = StatusJson.tree(report(null, null, List.of(laggingTarget()), compares()));

    // Then
    assertThat(json.get("capture").isNull()).isTrue();
    assertThat(json.get("complete").asBoolean()).isTrue();
    assertThat(json.get("resyncNeeded").asBoolean()).isFalse();
  }
}
