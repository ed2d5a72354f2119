package io.cdccompare.verifier.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a verifier of a stock Debezium pipeline starts reading a table partition when it first sees
 * a note of the table (docs/design.md, "Stock Debezium pipelines"): after the last record whose
 * transaction was streamed before the note's, found by reading back from the partition's end, so a
 * topic's history (all of its retention) is not read at every start.
 *
 * <p>Why nothing it skips could keep a key in flight. A record at or below the start {@code q} of a
 * run (the records one connector start sent, in position order) has a position below the floor, the
 * earliest OPEN still to be judged or to come: it is before every chunk. A record of an earlier run
 * below {@code q} with a position at or above the floor was sent again by every later run that
 * resumed before it, and the run of {@code q} did (it sent {@code q}, below the floor, so it
 * resumed below that record); that copy lies after {@code q}, since a run sends in position order.
 * Records of unknown position (the first transaction after a connector start) are never taken as
 * below the floor; the initial snapshot's records always are.
 */
final class PartitionStart {
  /** The first window read back from a partition's end; each further one is twice as long. */
  static final int FIRST_WINDOW = 256;

  /** Reads the positions of a partition's records. */
  interface Records {
    /**
     * The records with offsets in {@code [from, until)}, in offset order.
     *
     * @return each record's offset and position ({@link StockEvents#lastCommit})
     */
    List<Positioned> read(long from, long until);
  }

  /**
   * A record's offset and position: the commit LSN streamed before its transaction, {@link
   * PartitionLog#SNAPSHOT} for the initial snapshot, empty when unknown; null for a record that is
   * no change (a tombstone).
   */
  record Positioned(long offset, OptionalLong lastCommit) {}

  private PartitionStart() {}

  /**
   * The records of {@code partition} as {@code events} reads them, through {@code consumer}, which
   * this assigns to that partition alone.
   *
   * @param timeout how long one window may take to read
   * @throws IllegalStateException naming the partition and offset when a window is not read in time
   *     or a record cannot be read
   */
  static Records of(
      KafkaConsumer<byte[], byte[]> consumer,
      TopicPartition partition,
      StockEvents events,
      Duration timeout) {
    consumer.assign(List.of(partition));
    return (from, until) -> {
      consumer.seek(partition, from);
      List<Positioned> read = new ArrayList<>();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (consumer.position(partition) < until) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "topic "
                  + partition.topic()
                  + " partition "
                  + partition.partition()
                  + ": offsets "
                  + from
                  + " to "
                  + until
                  + " could not be read within "
                  + timeout.toMillis()
                  + " ms");
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          if (r.offset() >= until) {
            break;
          }
          try {
            read.add(
                new Positioned(r.offset(), events.lastCommit(r.topic(), r.headers(), r.value())));
          } catch (RuntimeException e) {
            throw new IllegalStateException(
                "topic "
                    + r.topic()
                    + " partition "
                    + r.partition()
                    + " offset "
                    + r.offset()
                    + " cannot be read: "
                    + e.getMessage(),
                e);
          }
        }
      }
      return read;
    };
  }

  /**
   * The offset to read {@code [begin, end)} from so that every record below it is before {@code
   * floor} in the sense above: one after the last record whose position is below {@code floor};
   * {@code begin} when there is none ({@code floor} = {@link Long#MIN_VALUE}: read everything).
   */
  static long find(long begin, long end, long floor, Records records) {
    if (floor == Long.MIN_VALUE) {
      return begin;
    }
    long until = end;
    long window = FIRST_WINDOW;
    while (until > begin) {
      long from = Math.max(begin, until - window);
      List<Positioned> read = records.read(from, until);
      for (int i = read.size() - 1; i >= 0; i--) {
        Positioned r = read.get(i);
        if (r.lastCommit() != null
            && r.lastCommit().isPresent()
            && r.lastCommit().getAsLong() < floor) {
          return r.offset() + 1;
        }
      }
      until = from;
      window = Math.min(window * 2, 1 << 20);
    }
    return begin;
  }
}
