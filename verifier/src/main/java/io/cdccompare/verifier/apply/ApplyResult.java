package io.cdccompare.verifier.apply;

import java.util.List;

/**
 * What a batch did.
 *
 * @param applied changes written
 * @param skipped changes at or below the checkpoint of their partition (replays, duplicates)
 * @param verdictsStored verdicts written
 * @param verdictsSkipped verdicts whose marker the checkpoint had already passed: the stored one
 *     stands
 * @param checkpoints the checkpoints of the batch's partitions after it
 */
public record ApplyResult(
    int applied,
    int skipped,
    int verdictsStored,
    int verdictsSkipped,
    List<Checkpoint> checkpoints) {

  public ApplyResult {
    checkpoints = List.copyOf(checkpoints);
  }
}
