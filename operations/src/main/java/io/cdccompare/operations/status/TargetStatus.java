package io.cdccompare.operations.status;

import java.util.List;
import java.util.Objects;

/**
 * One target of the targets file: how far its verifier has applied each table-topic partition.
 *
 * @param applicationId the verifier's application id: its consumer group and its checkpoints' key
 * @param database the target's JDBC URL (no parameters, no credentials)
 * @param unreachable one-line reason a part of this target could not be read (its database, or the
 *     Kafka reads of its group offsets or oldest records), or {@code null}; without a database
 *     there are no partitions
 * @param note a fact about the target that is no failure (no checkpoint table yet), or {@code null}
 * @param partitions the table-topic partitions in topic and partition order
 * @param missingTopics table topics that do not exist (nothing captured yet)
 * @param followGroup for a verify-only target, the consumer group of the applier it follows ({@code
 *     target.<name>.follow.group}); {@code null} for a target whose verifier applies
 */
public record TargetStatus(
    String name,
    String applicationId,
    String database,
    String unreachable,
    String note,
    List<PartitionStatus> partitions,
    List<String> missingTopics,
    String followGroup) {

  public TargetStatus {
    partitions = List.copyOf(partitions);
    missingTopics = List.copyOf(missingTopics);
  }

  /** A target whose verifier applies the changes itself. */
  public TargetStatus(
      String name,
      String applicationId,
      String database,
      String unreachable,
      String note,
      List<PartitionStatus> partitions,
      List<String> missingTopics) {
    this(name, applicationId, database, unreachable, note, partitions, missingTopics, null);
  }

  static TargetStatus unreachable(
      String name, String applicationId, String database, String reason) {
    return new TargetStatus(name, applicationId, database, reason, null, List.of(), List.of());
  }

  /** Records not applied yet, over every partition whose lag is known. */
  public long lagRecords() {
    return partitions.stream()
        .map(PartitionStatus::lagRecords)
        .filter(Objects::nonNull)
        .mapToLong(Long::longValue)
        .sum();
  }

  /**
   * Records the followed group has not passed yet, over every partition where it is known, like
   * {@link #lagRecords()} for the verifier; {@code null} when the target follows no group.
   */
  public Long followLagRecords() {
    if (followGroup == null) {
      return null;
    }
    return partitions.stream()
        .map(PartitionStatus::followLagRecords)
        .filter(Objects::nonNull)
        .mapToLong(Long::longValue)
        .sum();
  }

  /** The oldest unapplied record's age over every partition whose lag is known; 0 without lag. */
  public double lagSeconds() {
    return partitions.stream()
        .map(PartitionStatus::lagSeconds)
        .filter(Objects::nonNull)
        .mapToDouble(Double::doubleValue)
        .max()
        .orElse(0);
  }
}
