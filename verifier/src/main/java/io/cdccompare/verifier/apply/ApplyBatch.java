package io.cdccompare.verifier.apply;

import java.util.List;

/**
 * What one target transaction writes: row changes in stream order, the positions of records read
 * that change no row (markers, tombstones of other tables) so the checkpoint moves past them too,
 * and the verdicts of CLOSE markers among them (a verdict's marker counts as passed).
 */
public record ApplyBatch(
    List<RowChange> changes, List<RecordPosition> passed, List<MarkerVerdict> verdicts) {

  public ApplyBatch {
    changes = List.copyOf(changes);
    passed = List.copyOf(passed);
    verdicts = List.copyOf(verdicts);
  }

  public static ApplyBatch of(List<RowChange> changes) {
    return new ApplyBatch(changes, List.of(), List.of());
  }

  /** The changes, and a CLOSE marker passed with its verdict. */
  public static ApplyBatch closing(List<RowChange> changes, MarkerVerdict verdict) {
    return new ApplyBatch(changes, List.of(), List.of(verdict));
  }
}
