package io.cdccompare.verifier.stream;

import io.cdccompare.core.stream.TableTopic;
import io.cdccompare.core.table.TableName;

/**
 * The capture's table topic names: core's {@link TableTopic}, the one naming the capture writes to;
 * {@code TableTopicsTest} holds the two together.
 */
final class TableTopics {
  private TableTopics() {}

  static String topicName(String prefix, TableName table) {
    return TableTopic.name(prefix, table);
  }
}
