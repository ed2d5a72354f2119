package io.cdccompare.operations.explain;

import java.util.List;
import java.util.Optional;

/**
 * A difference explained: one key of a table, read now on the source and on a target, column by
 * column, with what the run found for it and whether the source row changed since the run.
 *
 * @param runOutcome what the run reported for the key on the target: {@code failed}, {@code
 *     missed}, {@code extra}, {@code in flight}, or {@code not listed} (matched or not compared)
 * @param sourceHash the row hash of the source row now (hex), empty when the source has none
 * @param targetHash the row hash of the target row now (hex), empty when the target has none
 * @param sinceRun whether the source row changed since the run
 * @param sinceRunText that, said plainly in one sentence
 */
public record RowExplanation(
    String task,
    String runId,
    String target,
    String table,
    String key,
    String runOutcome,
    boolean onSource,
    boolean onTarget,
    List<ColumnExplanation> columns,
    Optional<String> sourceHash,
    Optional<String> targetHash,
    SinceRun sinceRun,
    String sinceRunText) {

  /** Whether the source row changed since the run. */
  public enum SinceRun {
    UNCHANGED,
    CHANGED,
    UNKNOWN
  }

  public RowExplanation {
    columns = List.copyOf(columns);
  }

  /** The columns whose texts differ, by source name. */
  public List<String> differingColumns() {
    return columns.stream()
        .filter(ColumnExplanation::differs)
        .map(ColumnExplanation::sourceColumn)
        .toList();
  }

  /** What the two sides hold now, in one sentence. */
  public String nowText() {
    if (onSource && onTarget) {
      List<String> differing = differingColumns();
      return differing.isEmpty()
          ? "both sides hold the row and it is the same now (equal row hashes)"
          : "both sides hold the row; it differs in "
              + differing.size()
              + (differing.size() == 1 ? " column: " : " columns: ")
              + String.join(", ", differing);
    }
    if (onSource) {
      return "only the source holds the row: it is missing on target " + target;
    }
    if (onTarget) {
      return "only target " + target + " holds the row: it is extra (the source has none)";
    }
    return "neither side holds a row with this key now";
  }
}
