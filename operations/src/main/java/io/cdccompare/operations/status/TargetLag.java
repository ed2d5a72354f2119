package io.cdccompare.operations.status;

import io.cdccompare.operations.status.CheckpointReader.Checkpoints;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.stream.VerifierSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Puts one target's status together from what was read: its checkpoints, the table topics' offsets,
 * its consumer group's committed offsets and the timestamps of its oldest unapplied records ({@link
 * PartitionLag} does the arithmetic). Pure: no I/O.
 */
final class TargetLag {
  private TargetLag() {}

  /** The offsets whose record timestamps give the target's lag in time. */
  static Set<PartitionOffset> oldestUnapplied(
      VerifierSettings target, Checkpoints checkpoints, TopicOffsets offsets) {
    Map<TopicPartition, Long> applied = byPartition(checkpoints.list());
    Set<PartitionOffset> wanted = new LinkedHashSet<>();
    for (String topic : target.tables().topics()) {
      for (TopicPartition p : offsets.partitionsOf(topic)) {
        PartitionLag lag = lag(applied.get(p), offsets.partitions().get(p));
        if (lag.records() > 0) {
          wanted.add(new PartitionOffset(p, lag.oldest()));
        }
      }
    }
    return wanted;
  }

  /**
   * @param offsets the topics' offsets, {@code null} when Kafka could not be read (the rows then
   *     hold the checkpoints alone)
   * @param timestamps timestamps of the records at {@link #oldestUnapplied} offsets
   * @param timestampsFailure why some timestamps could not be read, or {@code null}
   * @param now the moment ages are measured at
   */
  static TargetStatus status(
      VerifierSettings target,
      Checkpoints checkpoints,
      TopicOffsets offsets,
      Map<PartitionOffset, Instant> timestamps,
      String timestampsFailure,
      Instant now) {
    return status(target, null, checkpoints, offsets, timestamps, timestampsFailure, now);
  }

  /**
   * @param followGroup the consumer group a verify-only target follows, or {@code null}: its
   *     committed offsets give each partition's follow lag
   */
  static TargetStatus status(
      VerifierSettings target,
      String followGroup,
      Checkpoints checkpoints,
      TopicOffsets offsets,
      Map<PartitionOffset, Instant> timestamps,
      String timestampsFailure,
      Instant now) {
    String database = JdbcTimeouts.display(target.database().jdbcUrl());
    Map<TopicPartition, Long> applied = byPartition(checkpoints.list());
    List<PartitionStatus> rows = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    List<String> unreachable = new ArrayList<>();
    if (offsets == null) {
      for (String topic : target.tables().topics()) {
        applied.entrySet().stream()
            .filter(e -> e.getKey().topic().equals(topic))
            .sorted(Comparator.comparingInt(e -> e.getKey().partition()))
            .forEach(
                e ->
                    rows.add(
                        new PartitionStatus(
                            topic,
                            e.getKey().partition(),
                            e.getValue(),
                            null,
                            null,
                            null,
                            null,
                            null,
                            null)));
      }
      return new TargetStatus(
          target.target(),
          target.applicationId(),
          database,
          null,
          checkpoints.note(),
          rows,
          missing,
          followGroup);
    }
    Map<TopicPartition, Long> committed =
        offsets.groupOffsets().getOrDefault(target.applicationId(), Map.of());
    String groupFailure = offsets.groupErrors().get(target.applicationId());
    if (groupFailure != null) {
      unreachable.add("kafka: " + groupFailure);
    }
    Map<TopicPartition, Long> followed =
        followGroup == null ? Map.of() : offsets.groupOffsets().getOrDefault(followGroup, Map.of());
    String followFailure = followGroup == null ? null : offsets.groupErrors().get(followGroup);
    if (followFailure != null) {
      unreachable.add("kafka: " + followFailure);
    }
    boolean timestampMissing = false;
    for (String topic : target.tables().topics()) {
      if (offsets.missingTopics().contains(topic)) {
        missing.add(topic);
        continue;
      }
      for (TopicPartition p : offsets.partitionsOf(topic)) {
        TopicOffsets.Range range = offsets.partitions().get(p);
        Long checkpoint = applied.get(p);
        PartitionLag lag = lag(checkpoint, range);
        Double seconds = 0.0;
        if (lag.records() > 0) {
          Instant oldest = timestamps.get(new PartitionOffset(p, lag.oldest()));
          seconds =
              oldest == null ? null : PartitionLag.age(lag.records(), oldest, now).toMillis() / 1e3;
          timestampMissing |= oldest == null;
        }
        Long followOffset = followed.get(p);
        Long followLag =
            followGroup == null || followFailure != null
                ? null
                : lag(followOffset == null ? null : followOffset - 1, range).records();
        rows.add(
            new PartitionStatus(
                topic,
                p.partition(),
                checkpoint,
                range.start(),
                range.end(),
                lag.records(),
                seconds,
                committed.get(p),
                lag.problem(),
                followOffset,
                followLag));
      }
    }
    if (timestampMissing && timestampsFailure != null) {
      unreachable.add("kafka: " + timestampsFailure);
    }
    String note = checkpoints.note();
    if (followGroup != null && followFailure == null && followed.isEmpty()) {
      String none = "the followed group " + followGroup + " has committed no offset";
      note = note == null ? none : note + "; " + none;
    }
    return new TargetStatus(
        target.target(),
        target.applicationId(),
        database,
        unreachable.isEmpty() ? null : String.join("; ", unreachable),
        note,
        rows,
        missing,
        followGroup);
  }

  private static PartitionLag lag(Long checkpoint, TopicOffsets.Range range) {
    return PartitionLag.of(checkpoint, range.start(), range.end());
  }

  private static Map<TopicPartition, Long> byPartition(List<Checkpoint> checkpoints) {
    Map<TopicPartition, Long> out = new HashMap<>();
    checkpoints.forEach(c -> out.put(new TopicPartition(c.topic(), c.partition()), c.offset()));
    return out;
  }
}
