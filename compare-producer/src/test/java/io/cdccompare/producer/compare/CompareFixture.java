package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.chunk.ChunkWindow;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.schemas.serde.MarkerEnvelope;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A source database with a running capture (markers need it) and readers of what a compare task
 * wrote: its CLOSE markers and the hash records they point to.
 */
final class CompareFixture {
  final CaptureFixture capture;

  CompareFixture(CaptureFixture capture) {
    this.capture = capture;
  }

  /** A task configuration over the capture's settings. */
  Map<String, String> task(String name, String tables) {
    return capture.task(name, tables);
  }

  /**
   * Runs a task to its end while the capture streams the table, then waits until the table topic
   * holds {@code markers} of the task's markers.
   */
  CompareRun.Summary runCaptured(String table, Map<String, String> task, String topic, int markers)
      throws Exception {
    String name = task.get(CompareConfig.TASK_NAME);
    try (CaptureFixture.Running running = capture.start(capture.captureConfig(table))) {
      CompareRun.Summary summary = new CompareRun(CompareConfig.of(task), false).run();
      await().atMost(Duration.ofSeconds(60)).until(() -> markers(topic, name).size() >= markers);
      return summary;
    }
  }

  long count(String sql) throws SQLException {
    try (Connection c = capture.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The markers of a topic, deserialized, in partition then offset order. */
  List<MarkerAt> markers(String topic, String task) {
    List<MarkerAt> out = new ArrayList<>();
    try (SpecificAvroDeserializer<Marker> values = deserializer(Marker.class)) {
      for (ConsumerRecord<byte[], byte[]> r : capture.readAll(topic)) {
        if (CaptureFixture.isMarker(r)) {
          Marker m = values.deserialize(topic, MarkerEnvelope.unwrap(r.value()));
          if (m.getTask().equals(task)) {
            out.add(new MarkerAt(r.partition(), r.offset(), m));
          }
        }
      }
    }
    out.sort(
        (a, b) ->
            a.partition() != b.partition()
                ? Integer.compare(a.partition(), b.partition())
                : Long.compare(a.offset(), b.offset()));
    return out;
  }

  record MarkerAt(int partition, long offset, Marker marker) {}

  /** The CLOSE markers of partition 0, one per chunk, by chunk number. */
  static Map<Long, Marker> closes(List<MarkerAt> markers) {
    Map<Long, Marker> out = new TreeMap<>();
    for (MarkerAt m : markers) {
      if (m.partition() == 0 && m.marker().getPhase() == MarkerPhase.CLOSE) {
        out.put(m.marker().getChunk(), m.marker());
      }
    }
    return out;
  }

  /**
   * Checks one partition's notes of a table run against the note protocol ({@link ChunkWindow};
   * docs/design.md, "Chunks, notes and the in-flight window"): the CLOSEs of chunks {@code 0 ..
   * chunks - 1}, each once and in order; each after an OPEN of its chunk; an OPEN of chunk {@code
   * c} only once every chunk below {@code c - 1} is closed (at most two open at once); no OPEN of a
   * closed chunk.
   *
   * @return how many times each chunk was opened, by chunk
   */
  static Map<Long, Integer> checkNotes(List<MarkerAt> markers, int partition, int chunks) {
    Map<Long, Integer> opens = new TreeMap<>();
    long closed = 0; // chunks below this one are closed
    for (MarkerAt m : markers) {
      if (m.partition() != partition) {
        continue;
      }
      long chunk = m.marker().getChunk();
      String at = "partition " + partition + " offset " + m.offset() + ": ";
      if (m.marker().getPhase() == MarkerPhase.OPEN) {
        assertThat(chunk).as(at + "OPEN of a closed chunk").isGreaterThanOrEqualTo(closed);
        assertThat(chunk)
            .as(at + "OPEN %d with chunk %d not closed", chunk, closed)
            .isLessThan(closed + ChunkWindow.OPEN_CHUNKS);
        opens.merge(chunk, 1, Integer::sum);
      } else {
        assertThat(chunk).as(at + "CLOSE out of order").isEqualTo(closed);
        assertThat(opens).as(at + "CLOSE %d without its OPEN", chunk).containsKey(chunk);
        closed++;
      }
    }
    assertThat(closed).as("chunks closed in partition %d", partition).isEqualTo(chunks);
    return opens;
  }

  /** The hash records a CLOSE marker points to, read at their offsets. */
  List<HashRecord> hashRecords(Marker close) {
    List<HashRecord> out = new ArrayList<>();
    Map<String, Object> props =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            capture.env.kafka().bootstrapServers(),
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            // the record asked for is there: a fetch sent after a poll must not sit out the
            // default 500 ms on an idle partition before the next seek (a test reads hundreds)
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
            10);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);
        SpecificAvroDeserializer<HashRecord> values = deserializer(HashRecord.class)) {
      for (HashRecordLocation l : close.getHashRecords()) {
        TopicPartition tp = new TopicPartition(close.getHashesTopic(), l.getHashesPartition());
        consumer.assign(List.of(tp));
        consumer.seek(tp, l.getOffset());
        ConsumerRecord<byte[], byte[]> found = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (found == null && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            if (found == null && r.offset() == l.getOffset()) {
              found = r;
            }
          }
        }
        if (found == null) {
          throw new AssertionError("no hash record at " + tp + "@" + l.getOffset());
        }
        out.add(values.deserialize(tp.topic(), found.value()));
      }
    }
    return out;
  }

  /** The (key → hex hash) pairs of a chunk, over all its hash records. */
  Map<String, String> pairs(Marker close) {
    Map<String, String> out = new TreeMap<>();
    for (HashRecord r : hashRecords(close)) {
      byte[] hashes = new byte[r.getHashes().remaining()];
      r.getHashes().duplicate().get(hashes);
      for (int i = 0; i < r.getKeys().size(); i++) {
        String previous =
            out.put(
                r.getKeys().get(i),
                HexFormat.of()
                    .formatHex(hashes, i * r.getHashLength(), (i + 1) * r.getHashLength()));
        if (previous != null) {
          throw new AssertionError("key " + r.getKeys().get(i) + " is in two hash records");
        }
      }
    }
    return out;
  }

  private <T extends org.apache.avro.specific.SpecificRecord>
      SpecificAvroDeserializer<T> deserializer(Class<T> type) {
    SpecificAvroDeserializer<T> d = new SpecificAvroDeserializer<>();
    d.configure(
        Map.of(
            "schema.registry.url",
            capture.env.registry().confluentApiUrl(),
            SpecificAvroDeserializer.VALUE_TYPE,
            type.getName()),
        false);
    return d;
  }
}
