package io.cdccompare.capture;

import io.cdccompare.core.note.Note;
import io.cdccompare.core.stream.CaptureNotices;
import io.cdccompare.core.stream.ChangeHeaders;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.core.table.TableName;
import io.cdccompare.events.EventKeyEncoder;
import io.cdccompare.schemas.MarkerCodec;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.source.Failpoint;
import io.cdccompare.source.NoteTable;
import io.cdccompare.source.SignalTable;
import io.cdccompare.source.TopicLayout;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each batch of changes from the Debezium engine to Kafka, in the order received: a data
 * change to its table's topic, keyed by its canonical key encoding, in the partition {@link
 * KeyPartitioner} gives; a note as a marker into every partition of the noted table's topic. The
 * batch's offsets are marked processed only after the producer acknowledged every record of it, so
 * the engine never stores a position past an unacknowledged change (at-least-once: a crash
 * re-sends, and the {@code cdc.lsn*} headers identify the duplicates).
 *
 * <p>Rows of the {@link SignalTable} (re-send requests and the incremental snapshot's watermarks)
 * are not forwarded; their offsets commit like any other. Debezium's notifications arrive as
 * records for the notices topic ({@link CaptureNotices}) and are written there as plain JSON keyed
 * by the notification id. A row an incremental snapshot read ({@code source.snapshot} is {@code
 * incremental}: a re-send on request) carries the header {@link ChangeHeaders#RESEND}; a row of the
 * initial snapshot does not.
 *
 * <p>Called by the engine's single processing thread.
 */
final class ChangeRouter implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeRouter.class);

  private final TopicLayout layout;
  private final Map<TableName, EventKeyEncoder> keys;
  private final Producer<byte[], byte[]> producer;
  private final JsonConverter values;
  private final JsonConverter notices;
  private final String noticesTopic;
  private final Serializer<Marker> markers;
  private final Function<Alert, ProducerRecord<byte[], byte[]>> alerts;
  private final CaptureMeters meters;
  private final AtomicReference<Exception> sendFailure = new AtomicReference<>();

  ChangeRouter(
      TopicLayout layout,
      Map<TableName, EventKeyEncoder> keys,
      Producer<byte[], byte[]> producer,
      JsonConverter values,
      Serializer<Marker> markers,
      String noticesTopic,
      Function<Alert, ProducerRecord<byte[], byte[]>> alerts,
      CaptureMeters meters) {
    this.layout = layout;
    this.alerts = alerts;
    this.meters = meters;
    this.keys = Map.copyOf(keys);
    this.producer = producer;
    this.values = values;
    this.markers = markers;
    this.noticesTopic = noticesTopic;
    this.notices = new JsonConverter();
    this.notices.configure(Map.of("schemas.enable", "false"), false);
  }

  @Override
  public void handleBatch(
      List<RecordChangeEvent<SourceRecord>> records,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    boolean carriedChanges = false;
    for (RecordChangeEvent<SourceRecord> event : records) {
      carriedChanges |= route(event.record());
    }
    producer.flush();
    Exception failure = sendFailure.get();
    if (failure != null) {
      throw new ConnectException(
          "Kafka did not acknowledge a change; offsets not committed", failure);
    }
    if (carriedChanges) {
      Failpoint.hit(Failpoint.CAPTURE_ACKED_NOT_COMMITTED);
    }
    for (RecordChangeEvent<SourceRecord> event : records) {
      committer.markProcessed(event);
    }
    committer.markBatchFinished();
  }

  @Override
  public boolean supportsTombstoneEvents() {
    return false;
  }

  /** Sends one record's change or markers; false for a record that carries none. */
  private boolean route(SourceRecord record) {
    if (noticesTopic.equals(record.topic())) {
      routeNotice(record);
      return true;
    }
    if (!(record.value() instanceof Struct value) || value.schema().field("source") == null) {
      return false; // heartbeats and other control records carry no change; their offset commits
    }
    Struct source = value.getStruct("source");
    TableName table = new TableName(source.getString("schema"), source.getString("table"));
    SourcePosition position = position(record.sourceOffset());
    if (table.equals(SignalTable.NAME)) {
      return false; // a signal or a watermark: Debezium acted on it, no target needs it
    }
    if (table.equals(NoteTable.NAME)) {
      routeNote(value.getStruct("after"), position);
    } else {
      routeChange(table, record, value.getString("op"), position, resent(source));
      meters.table(table).sent(commitMillis(source), System.currentTimeMillis());
    }
    return true;
  }

  /** The source commit time of the event's transaction ({@code source.ts_ms}), 0 if unknown. */
  private static long commitMillis(Struct source) {
    return source.schema().field("ts_ms") != null && source.get("ts_ms") instanceof Number n
        ? n.longValue()
        : 0L;
  }

  /** True for a row an incremental snapshot read: a re-send on request. */
  private static boolean resent(Struct source) {
    return source.schema().field("snapshot") != null
        && "incremental".equals(source.getString("snapshot"));
  }

  private void routeNotice(SourceRecord record) {
    Object id = record.key() instanceof Struct key ? key.get(CaptureNotices.ID) : null;
    byte[] key = id == null ? null : id.toString().getBytes(StandardCharsets.UTF_8);
    byte[] value = notices.fromConnectData(noticesTopic, record.valueSchema(), record.value());
    send(new ProducerRecord<>(noticesTopic, 0, key, value));
  }

  /**
   * A note row that is no well-formed note (written by hand, or by a broken writer): no marker is
   * written and the capture goes on, because the note is cdc-compare's own bookkeeping, not a
   * change of a replicated table, and stopping would stop every table's replication (and stop again
   * at the same row after each restart). The chunk it names gets no verdict, which the report
   * shows. Named in one error line and an UNVERIFIABLE alert with the row's source position.
   */
  private void refuse(Struct row, SourcePosition position, RuntimeException malformed) {
    String task = field(row, Note.TASK);
    String table = field(row, Note.TABLE_SCHEMA) + "." + field(row, Note.TABLE_NAME);
    String message =
        "note of task "
            + task
            + " on table "
            + table
            + " (run "
            + field(row, Note.RUN_ID)
            + ", chunk "
            + field(row, Note.CHUNK)
            + ", phase "
            + field(row, Note.PHASE)
            + ") at source lsn "
            + position.lsn()
            + " is malformed: "
            + malformed.getMessage()
            + "; no marker written, the chunk it names cannot be verified";
    LOG.error("{}", message);
    send(
        alerts.apply(
            Alert.newBuilder()
                .setCode(AlertCode.UNVERIFIABLE)
                .setOrigin("capture")
                .setTask(task)
                .setRunId(field(row, Note.RUN_ID))
                .setTable(table)
                .setMessage(message)
                .setRaisedAt(Instant.now())
                .build()));
  }

  /** A note row's column as text, null when absent or null. */
  private static String field(Struct row, String column) {
    Object value = NoteMarkers.column(row, column);
    return value == null ? null : value.toString();
  }

  private void routeChange(
      TableName table, SourceRecord record, String op, SourcePosition position, boolean resent) {
    String topic = layout.topicOf(table);
    String key = keys.get(table).encode((Struct) record.key());
    int partition = KeyPartitioner.partition(key, layout.partitions());
    byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
    byte[] valueBytes = values.fromConnectData(topic, record.valueSchema(), record.value());
    RecordHeaders headers = headers(position, op);
    if (resent) {
      headers.add(ChangeHeaders.RESEND, new byte[] {'1'});
    }
    send(new ProducerRecord<>(topic, partition, keyBytes, valueBytes, headers));
    if ("d".equals(op)) {
      send(new ProducerRecord<>(topic, partition, keyBytes, null, headers(position, op)));
    }
  }

  private void routeNote(Struct row, SourcePosition position) {
    if (row == null) {
      return; // a deleted note row is no note
    }
    Note note;
    List<Marker> copies;
    List<byte[]> values = new ArrayList<>();
    try {
      note = NoteMarkers.read(row);
      if (!layout.topics().containsKey(note.table())) {
        LOG.error(
            "note task={} names table={} which this capture does not capture; no marker written",
            note.task(),
            note.table());
        return;
      }
      String topic = layout.topicOf(note.table());
      copies = MarkerCodec.markers(note, topic, layout.partitions(), position);
      for (Marker marker : copies) {
        values.add(markers.serialize(topic, marker));
      }
    } catch (RuntimeException malformed) {
      refuse(row, position, malformed);
      return;
    }
    TableName noted = note.table();
    String topic = layout.topicOf(noted);
    for (int i = 0; i < copies.size(); i++) {
      Marker marker = copies.get(i);
      RecordHeaders headers = headers(position, "m");
      headers.add(Note.MARKER_HEADER, marker.getPhase().name().getBytes(StandardCharsets.UTF_8));
      send(
          new ProducerRecord<byte[], byte[]>(
              topic, marker.getPartition(), null, values.get(i), headers));
    }
    meters.table(noted).markers.increment();
    LOG.debug(
        "task={} table={} chunk={} phase={} markers={}",
        copies.get(0).getTask(),
        noted,
        copies.get(0).getChunk(),
        copies.get(0).getPhase(),
        copies.size());
  }

  private void send(ProducerRecord<byte[], byte[]> record) {
    producer.send(
        record,
        (metadata, error) -> {
          if (error != null) {
            sendFailure.compareAndSet(null, error);
          }
        });
  }

  static SourcePosition position(Map<String, ?> offset) {
    long lsn = number(offset.get("lsn"));
    Object commit = offset.get("lsn_commit");
    long txId = number(offset.get("txId"));
    return new SourcePosition(commit == null ? lsn : number(commit), lsn, txId);
  }

  private static long number(Object value) {
    return value instanceof Number n ? n.longValue() : 0L;
  }

  private static RecordHeaders headers(SourcePosition position, String op) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(
        ChangeHeaders.COMMIT_LSN,
        Long.toString(position.commitLsn()).getBytes(StandardCharsets.UTF_8));
    headers.add(ChangeHeaders.LSN, Long.toString(position.lsn()).getBytes(StandardCharsets.UTF_8));
    headers.add(
        ChangeHeaders.TXID, Long.toString(position.txId()).getBytes(StandardCharsets.UTF_8));
    headers.add(ChangeHeaders.OP, op.getBytes(StandardCharsets.UTF_8));
    return headers;
  }
}
