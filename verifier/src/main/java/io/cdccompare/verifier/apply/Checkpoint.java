package io.cdccompare.verifier.apply;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * How far an application has applied one partition of a topic to its target: the offset of the last
 * record applied (inclusive; a record at or below it is skipped) and that record's source position.
 * Stored in the target in the same transaction as the changes it covers.
 *
 * @param commitLsn commit LSN of the last record's change, {@code null} if it carried none
 * @param lsn LSN of the last record's change, {@code null} if it carried none
 * @param updatedAt when the checkpoint was written, to the microsecond
 */
public record Checkpoint(
    String application,
    String topic,
    int partition,
    long offset,
    Long commitLsn,
    Long lsn,
    Instant updatedAt) {

  public Checkpoint {
    if (application == null || application.isEmpty() || topic == null || topic.isEmpty()) {
      throw new IllegalArgumentException("a checkpoint needs an application and a topic");
    }
    if (partition < 0 || offset < 0) {
      throw new IllegalArgumentException(
          "partition and offset are never negative: " + topic + "-" + partition + "@" + offset);
    }
    if ((commitLsn == null) != (lsn == null)) {
      throw new IllegalArgumentException("a source position has both LSNs or none");
    }
    if (updatedAt == null) {
      throw new IllegalArgumentException("a checkpoint needs its time");
    }
    updatedAt = updatedAt.truncatedTo(ChronoUnit.MICROS);
  }
}
