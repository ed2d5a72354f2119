package io.cdccompare.verifier.apply;

import io.cdccompare.core.verdict.PartitionVerdict;

/**
 * A verdict to store with the batch that moves the checkpoint past its CLOSE marker.
 *
 * @param marker where the CLOSE marker was read; its partition and offset are the verdict's
 */
public record MarkerVerdict(RecordPosition marker, PartitionVerdict verdict) {

  public MarkerVerdict {
    if (marker == null || verdict == null) {
      throw new IllegalArgumentException("a marker verdict needs its marker and its verdict");
    }
    if (verdict.markerOffset() != marker.offset()
        || verdict.id().tablePartition() != marker.partition()) {
      throw new IllegalArgumentException(
          "the verdict of "
              + verdict.id()
              + " at offset "
              + verdict.markerOffset()
              + " does not belong to the marker at "
              + marker);
    }
  }
}
