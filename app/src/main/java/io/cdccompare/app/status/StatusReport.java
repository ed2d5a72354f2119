package io.cdccompare.app.status;

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
}
