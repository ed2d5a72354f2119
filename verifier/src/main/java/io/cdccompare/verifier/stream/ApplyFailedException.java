package io.cdccompare.verifier.stream;

import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.RowChange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A batch could not be applied to the target: nothing of it was written (the target transaction
 * rolled back) and the task stops, so its offsets are not committed. The message names the target,
 * the records of the batch (first and last position per partition) and the target's reason (which
 * names the table, column or record where the applier knows it).
 */
final class ApplyFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ApplyFailedException(String target, ApplyBatch batch, Throwable cause) {
    super(
        "target "
            + target
            + ": batch of records "
            + span(batch)
            + " could not be applied: "
            + cause.getMessage(),
        cause);
  }

  private static String span(ApplyBatch batch) {
    List<RecordPosition> positions = new ArrayList<>(batch.passed());
    batch.changes().stream().map(RowChange::position).forEach(positions::add);
    positions.sort(
        Comparator.comparing(RecordPosition::topic)
            .thenComparingInt(RecordPosition::partition)
            .thenComparingLong(RecordPosition::offset));
    List<String> ranges = new ArrayList<>();
    RecordPosition first = null;
    RecordPosition last = null;
    for (RecordPosition p : positions) {
      if (first != null
          && (!first.topic().equals(p.topic()) || first.partition() != p.partition())) {
        ranges.add(first + ".." + last.offset());
        first = null;
      }
      if (first == null) {
        first = p;
      }
      last = p;
    }
    if (first != null) {
      ranges.add(first + ".." + last.offset());
    }
    return String.join(", ", ranges);
  }
}
