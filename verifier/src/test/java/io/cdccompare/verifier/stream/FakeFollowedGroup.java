package io.cdccompare.verifier.stream;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * A followed consumer group in memory: each read of its committed offsets returns the next of the
 * answers given, and the last one again once they are used up.
 */
final class FakeFollowedGroup implements FollowedGroup {
  private final String groupId;
  private final Deque<Map<Integer, Long>> answers = new ArrayDeque<>();
  private Map<Integer, Long> last = Map.of();

  /** Reads of the committed offsets so far. */
  int reads;

  boolean closed;

  FakeFollowedGroup(String groupId) {
    this.groupId = groupId;
  }

  /** The answers of the next reads, in order; the last one stands after them. */
  @SafeVarargs
  final FakeFollowedGroup answer(Map<Integer, Long>... next) {
    answers.clear();
    answers.addAll(List.of(next));
    return this;
  }

  @Override
  public String groupId() {
    return groupId;
  }

  @Override
  public Map<Integer, Long> committedOffsets(String topic) {
    reads++;
    if (!answers.isEmpty()) {
      last = answers.poll();
    }
    return last;
  }

  @Override
  public void close() {
    closed = true;
  }
}
