package io.cdccompare.operations.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlertMessageTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Alert alert() {
    return Alert.newBuilder()
        .setCode(AlertCode.RESYNC_NEEDED)
        .setOrigin("capture")
        .setTable(null)
        .setMessage("slot cdc_compare_shop was dropped")
        .setLsn(1234L)
        .setSampleKeys(List.of("7"))
        .setRaisedAt(Instant.parse("2026-12-01T10:00:00Z"))
        .build();
  }

  @Test
  void jsonCarriesEveryFieldOfTheAlert() throws Exception {
    JsonNode body = JSON.readTree(AlertMessage.JSON.body(alert()));

    assertThat(body.get("code").asText()).isEqualTo("RESYNC_NEEDED");
    assertThat(body.get("origin").asText()).isEqualTo("capture");
    assertThat(body.get("task").isNull()).isTrue();
    assertThat(body.get("lsn").asLong()).isEqualTo(1234);
    assertThat(body.get("raisedAt").asText()).isEqualTo("2026-12-01T10:00:00Z");
    assertThat(body.get("sampleKeys").get(0).asText()).isEqualTo("7");
  }

  @Test
  void slackIsOneTextWithAHeadlineOfWhatIsSetThenTheMessage() throws Exception {
    JsonNode body = JSON.readTree(AlertMessage.SLACK.body(alert()));

    assertThat(body.size()).isEqualTo(1);
    assertThat(body.get("text").asText())
        .isEqualTo("cdc-compare RESYNC_NEEDED\nslot cdc_compare_shop was dropped");
  }

  @Test
  void onlyJsonAndSlackAreFormats() {
    assertThat(AlertMessage.parse("slack")).isEqualTo(AlertMessage.SLACK);
    assertThatThrownBy(() -> AlertMessage.parse("Slack"))
        .hasMessage("--format must be json or slack, was 'Slack'");
  }
}
