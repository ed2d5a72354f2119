package io.cdccompare.core.report;

/**
 * Which slice of every chunk a run compares, of how many (core {@code ChunkSampling}): slice 0 is
 * each chunk's last rows. A run of slice 0 starts a coverage cycle, a run of a later slice
 * continues the cycle of the run before it ({@link TableRun}); at {@code deep = 100}, and without
 * {@code deep.rotate}, every run compares slice 0. Immutable.
 *
 * @param slice the compared slice, {@code 0 .. slices - 1}
 * @param slices how many slices a chunk has at the run's {@code deep}: {@code ceil(100 / deep)}
 */
public record RunSlice(int slice, int slices) {

  public RunSlice {
    if (slices < 1 || slice < 0 || slice >= slices) {
      throw new IllegalArgumentException(
          "slice must be 0.." + (slices - 1) + " of " + slices + " slices, was " + slice);
    }
  }

  /** True when the run starts a new coverage cycle: it compares each chunk's last rows. */
  public boolean startsCycle() {
    return slice == 0;
  }
}
