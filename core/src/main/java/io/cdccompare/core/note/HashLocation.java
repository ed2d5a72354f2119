package io.cdccompare.core.note;

/**
 * Where one part of a chunk's hash record for one partition of the table topic lies on the hashes
 * topic: what a CLOSE note lists in its {@code hash_locations} and its marker carries.
 *
 * @param tablePartition the partition of the table topic whose keys the record holds
 * @param hashesPartition the partition of the hashes topic the record was written to
 * @param offset its offset there
 * @param part which part of a record split for size, from 0
 * @param partCount how many parts the record was split into (1 when not split)
 */
public record HashLocation(
    int tablePartition, int hashesPartition, long offset, int part, int partCount) {

  public HashLocation {
    if (tablePartition < 0 || hashesPartition < 0 || offset < 0) {
      throw new IllegalArgumentException(
          "a hash location needs partitions and an offset of 0 or more, was table partition "
              + tablePartition
              + ", hashes partition "
              + hashesPartition
              + ", offset "
              + offset);
    }
    if (partCount < 1 || part < 0 || part >= partCount) {
      throw new IllegalArgumentException(
          "a hash location's part must be one of its parts, was part " + part + " of " + partCount);
    }
  }
}
