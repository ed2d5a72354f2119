package io.cdccompare.operations.status;

import java.time.Instant;
import java.util.List;

/**
 * Everything {@code cdc-compare status} shows, as read at one moment. Each part that could not be
 * read carries its one-line reason; the others are complete.
 *
 * @param capture the capture's slot, {@code null} when the targets file names no source
 * @param kafkaUnreachable one-line reason the table topics' offsets could not be read, or {@code
 *     null}
 */
public record StatusReport(
    String topicPrefix,
    Instant readAt,
    String bootstrapServers,
    CaptureStatus capture,
    String kafkaUnreachable,
    List<TargetStatus> targets,
    CompareStatus compares) {

  public StatusReport {
    targets = List.copyOf(targets);
  }

  /** True when every part could be read (exit code 0); false when some part was unreachable. */
  public boolean complete() {
    return (capture == null || capture.state() != CaptureStatus.State.UNREACHABLE)
        && kafkaUnreachable == null
        && targets.stream().allMatch(t -> t.unreachable() == null)
        && compares.unreachable() == null;
  }

  /**
   * True when a position cannot be continued: the capture's slot lost WAL it still needed ({@code
   * wal_status = lost}), or a target's partition is {@code RESYNC_NEEDED} (records deleted before
   * they were applied, or a checkpoint past the end). A missing slot is not counted: before its
   * first start a capture has none.
   */
  public boolean resyncNeeded() {
    boolean slotLost =
        capture != null
            && capture.state() == CaptureStatus.State.OK
            && "lost".equals(capture.walStatus());
    return slotLost
        || targets.stream()
            .flatMap(t -> t.partitions().stream())
            .anyMatch(p -> p.problem() != null);
  }
}
