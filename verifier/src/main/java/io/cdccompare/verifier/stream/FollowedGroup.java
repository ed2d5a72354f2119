package io.cdccompare.verifier.stream;

import java.util.Map;

/**
 * The consumer group of the program that applies the changes to a verify-only target
 * (docs/design.md, "Verify-only targets"), seen through its committed offsets: a committed offset
 * is the next offset that program will read, so an offset above a CLOSE marker's means it consumed
 * every record up to and including the marker. {@link AdminFollowedGroup} reads them with a Kafka
 * admin client. One per processor; not thread-safe.
 */
interface FollowedGroup extends AutoCloseable {

  /** The group id, as messages name it. */
  String groupId();

  /**
   * The group's committed offsets of the topic's partitions, by partition. A partition without a
   * committed offset is absent, and so is every partition when the group does not exist.
   *
   * @throws RuntimeException when the offsets cannot be read (the broker does not answer)
   */
  Map<Integer, Long> committedOffsets(String topic);

  @Override
  void close();
}
