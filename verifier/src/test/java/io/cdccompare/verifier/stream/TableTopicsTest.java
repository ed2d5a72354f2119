package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.table.TableName;
import io.cdccompare.source.TopicLayout;
import org.junit.jupiter.api.Test;

/** The verifier reads exactly the topics the capture writes. */
class TableTopicsTest {

  @Test
  void theVerifierNamesEveryTableTopicAsTheCaptureDoes() {
    for (String table :
        new String[] {
          "public.orders", "\"My Schema\".\"a.b\"", "s.\"ä ö\"", "\"x/y\".\"t-1_2\"", "A.B"
        }) {
      TableName name = TableName.parse(table);
      assertThat(TableTopics.topicName("pre.fix", name))
          .as(table)
          .isEqualTo(TopicLayout.topicName("pre.fix", name));
    }
  }
}
