package io.cdccompare.producer.compare;

import io.cdccompare.core.note.Note;
import io.cdccompare.core.stream.ChangeHeaders;
import io.cdccompare.core.stream.ChangeRange;
import io.cdccompare.core.stream.TopicOffsets;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.TableTopicOffsets.TopicState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * The keys a table's changes touched between two offsets of its topic: what an incremental run
 * compares. The capture writes every change of a row under the row's canonical key encoding as the
 * record key ({@code capture}'s {@code ChangeRouter}; a delete is its change event and a tombstone
 * under the same key), so the record key is the key the run compares, with no value to decode.
 * Markers (header {@link Note#MARKER_HEADER}) and records that carry no row change are skipped.
 * Only the distinct keys are held.
 *
 * <p>Nothing is read unless the whole range is there ({@link #requireRange}): same topic id and
 * partition count, every earliest offset at or below the completed offset, and no compaction. A
 * compacted topic (the capture creates table topics with the broker's default policy, {@code
 * delete}, but an operator may change it) is refused: compaction removes a key's older changes and,
 * {@code delete.retention.ms} after a delete, its tombstone, without moving the earliest offset, so
 * a deleted key could vanish from the range with nothing to show it. Records deleted while the
 * range is read, and a snapshot record of the capture in the range (a new snapshot, as after a
 * resync: changes before it may never have been written), are refused the same way. A snapshot
 * record with the header {@link ChangeHeaders#RESEND} is not such a snapshot but a row re-sent on
 * request (a repair's incremental snapshot of chosen keys): its key counts as changed, like an
 * update, since the targets applied it.
 */
final class ChangedKeyReader {
  /** How long a partition may give nothing while the reader is below its end. */
  private static final Duration STALL = Duration.ofSeconds(60);

  private final TableTopicOffsets topics;

  ChangedKeyReader(TableTopicOffsets topics) {
    this.topics = topics;
  }

  /**
   * Checks that the topic holds every record from {@code completed} to its end offsets in {@code
   * now}, where the topic stands at the run's start ({@link TableTopicOffsets#states}).
   *
   * @throws IncrementalRangeLostException naming the table, topic, partitions and missing offsets
   */
  static void requireRange(TableName table, TopicOffsets completed, TopicState now) {
    String policy = now.cleanupPolicy();
    TopicOffsets end = now.end();
    if (policy.contains("compact")) {
      throw new IncrementalRangeLostException(
          table,
          end.topic(),
          "the topic is compacted (cleanup.policy="
              + policy
              + "): compaction removes changes and deletes without moving the earliest offset, so"
              + " the records since the last completed run cannot be proven all there");
    }
    var lost = ChangeRange.lost(completed, now.earliest(), end);
    if (lost.isPresent()) {
      throw new IncrementalRangeLostException(table, end.topic(), lost.get());
    }
  }

  /**
   * Reads the records of every partition from {@code from} (inclusive) to {@code to} (exclusive)
   * and returns the distinct keys of their row changes, in key text order.
   *
   * @throws IncrementalRangeLostException when records of the range are deleted while it is read,
   *     or it holds a snapshot record that is not a re-send ({@link ChangeHeaders#RESEND})
   */
  SortedSet<String> read(TableName table, TopicOffsets from, TopicOffsets to)
      throws InterruptedException {
    KafkaConsumer<byte[], byte[]> consumer = topics.consumer();
    Map<TopicPartition, Long> ends = new HashMap<>();
    IntStream.range(0, to.partitions())
        .filter(p -> from.offset(p) < to.offset(p))
        .forEach(p -> ends.put(new TopicPartition(to.topic(), p), to.offset(p)));
    SortedSet<String> keys = new TreeSet<>();
    if (ends.isEmpty()) {
      return keys;
    }
    consumer.assign(List.copyOf(ends.keySet()));
    ends.keySet().forEach(tp -> consumer.seek(tp, from.offset(tp.partition())));
    try {
      long lastProgress = System.nanoTime();
      while (!ends.isEmpty()) {
        ConsumerRecords<byte[], byte[]> records = poll(consumer, table, to.topic());
        for (ConsumerRecord<byte[], byte[]> r : records) {
          Long end = ends.get(new TopicPartition(r.topic(), r.partition()));
          if (end != null && r.offset() < end) {
            collect(table, r, keys);
          }
        }
        boolean moved = !records.isEmpty();
        for (TopicPartition tp : List.copyOf(ends.keySet())) {
          if (consumer.position(tp) >= ends.get(tp)) {
            ends.remove(tp);
            consumer.pause(List.of(tp));
            moved = true;
          }
        }
        if (moved) {
          lastProgress = System.nanoTime();
        } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
          TopicPartition tp = ends.keySet().iterator().next();
          throw new IllegalStateException(
              "table "
                  + table
                  + ": partition "
                  + tp.partition()
                  + " of topic "
                  + tp.topic()
                  + " gave no record for "
                  + STALL.toSeconds()
                  + " s at offset "
                  + consumer.position(tp)
                  + ", below its end "
                  + ends.get(tp));
        }
        if (Thread.interrupted()) {
          throw new InterruptedException("reading the changes of " + table);
        }
      }
    } finally {
      consumer.assign(List.of());
    }
    return keys;
  }

  private static ConsumerRecords<byte[], byte[]> poll(
      KafkaConsumer<byte[], byte[]> consumer, TableName table, String topic) {
    try {
      return consumer.poll(Duration.ofMillis(500));
    } catch (OffsetOutOfRangeException e) {
      StringBuilder why = new StringBuilder();
      e.offsetOutOfRangePartitions()
          .forEach(
              (tp, offset) ->
                  why.append(why.isEmpty() ? "" : "; ")
                      .append("records from offset ")
                      .append(offset)
                      .append(" of partition ")
                      .append(tp.partition())
                      .append(" are gone (deleted while the run read them)"));
      throw new IncrementalRangeLostException(table, topic, why.toString());
    }
  }

  private static void collect(
      TableName table, ConsumerRecord<byte[], byte[]> r, SortedSet<String> keys) {
    if (r.headers().lastHeader(Note.MARKER_HEADER) != null || r.key() == null) {
      return; // a marker, or no row change
    }
    Header op = r.headers().lastHeader(ChangeHeaders.OP);
    String change = op == null ? "" : new String(op.value(), StandardCharsets.UTF_8);
    switch (change) {
      case "c", "u", "d" -> keys.add(new String(r.key(), StandardCharsets.UTF_8));
      case "r" -> {
        if (r.headers().lastHeader(ChangeHeaders.RESEND) == null) {
          throw snapshotInRange(table, r);
        }
        keys.add(new String(r.key(), StandardCharsets.UTF_8)); // re-sent on request
      }
      default -> {
        // not a row change of the capture's
      }
    }
  }

  private static IncrementalRangeLostException snapshotInRange(
      TableName table, ConsumerRecord<byte[], byte[]> r) {
    return new IncrementalRangeLostException(
        table,
        r.topic(),
        "partition "
            + r.partition()
            + " holds a snapshot record at offset "
            + r.offset()
            + " (the capture took a new snapshot, as after a resync): changes before it may"
            + " never have been written");
  }
}
