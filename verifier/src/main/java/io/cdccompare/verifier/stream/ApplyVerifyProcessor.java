package io.cdccompare.verifier.stream;

import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.core.table.TableName;
import io.cdccompare.core.verdict.ChunkState;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.MarkerVerdict;
import io.cdccompare.verifier.apply.RecordPosition;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a task's partitions of the table topics to the target and verifies each chunk at its
 * CLOSE marker (docs/design.md, "The flow", steps 6–8). Per record, in partition order:
 *
 * <ul>
 *   <li>a data change joins the pending batch of the {@link TargetStore} (applied when full, after
 *       {@code applyMaxDelay}, at a CLOSE marker, and always before Streams commits the offsets),
 *       and its key is in flight for every chunk open in the partition ({@link OpenChunks});
 *   <li>a tombstone and an OPEN marker join the batch as passed records (the checkpoint moves past
 *       them); an OPEN starts collecting its chunk's in-flight keys;
 *   <li>a CLOSE marker applies the pending batch, then re-emits the verdict stored for it (a
 *       replay) or decides it ({@link ChunkJudge}) and stores it in the target transaction that
 *       moves the checkpoint past the marker, then forwards the {@code ChunkResult}.
 * </ul>
 *
 * <p>On a verify-only target (docs/design.md, "Verify-only targets") another program applies the
 * changes: a data change is passed like a tombstone (only the checkpoint moves), never applied, and
 * its key is still in flight for the open chunks. A CLOSE marker's verdict is decided by a {@link
 * FollowingJudge}, which first waits for the followed consumer group to pass the marker; a STALLED
 * verdict is stored and forwarded like any other, a STALLED alert names the group and offsets, and
 * the records after it go on.
 *
 * <p>The target's transient failures are retried in place ({@link RetryingTarget}). A verify the
 * target still does not answer after {@code retry.timeout.ms} (a lock held, a slow statement) makes
 * its chunk UNVERIFIABLE with an alert naming the target, table, chunk and timeouts, and the
 * records after it go on; a target that is gone by then (its connection does not answer) stops the
 * task like an apply that failed, and the marker is verified again after the restart.
 *
 * <p>A record that cannot be decoded stops the task with a {@link PoisonRecordException} naming it.
 * The first record of a partition after the task starts must follow the target's checkpoint: a gap
 * (records deleted, or offsets committed past records never applied) stops the task with {@code
 * RESYNC_NEEDED} instead of silently jumping. Over 300 lines because the continuity check and the
 * error messages that name the record at fault live beside the record handling they guard.
 */
final class ApplyVerifyProcessor implements Processor<byte[], byte[], String, ChunkResult> {
  private static final Logger LOG = LoggerFactory.getLogger(ApplyVerifyProcessor.class);

  private final VerifierSettings settings;
  private final Map<String, TableName> sourceOfTopic;
  private final Deserializer<Marker> markers;
  private final Deserializer<HashRecord> hashRecords;
  private final TopicReader reader;
  private final Clock clock;
  private final StopAlerts alerts;
  private final Supplier<FollowWait> follows;
  private final VerifierMeters meters;
  private final Map<String, VerifierMeters.PartitionMeters> partitions = new HashMap<>();
  private final Set<String> resumed = new HashSet<>();
  private ProcessorContext<String, ChunkResult> context;
  private TargetStore store;
  private OpenChunks openChunks;
  private ChangeDecoder decoder;
  private ChunkJudge judge;
  private FollowingJudge following;

  /**
   * @param follows the wait of a CLOSE marker for the followed group, one per processor; null
   *     unless the target is verify-only
   */
  ApplyVerifyProcessor(
      VerifierSettings settings,
      Map<String, TableName> sourceOfTopic,
      Deserializer<Marker> markers,
      Deserializer<HashRecord> hashRecords,
      TopicReader reader,
      Clock clock,
      StopAlerts alerts,
      Supplier<FollowWait> follows,
      VerifierMeters meters) {
    if (settings.verifyOnly() != (follows != null)) {
      throw new IllegalArgumentException("a verify-only target, and only it, follows a group");
    }
    this.settings = settings;
    this.sourceOfTopic = Map.copyOf(sourceOfTopic);
    this.markers = markers;
    this.hashRecords = hashRecords;
    this.reader = reader;
    this.clock = clock;
    this.alerts = alerts;
    this.follows = follows;
    this.meters = meters;
  }

  @Override
  public void init(ProcessorContext<String, ChunkResult> context) {
    this.context = context;
    this.store = context.getStateStore(TargetStore.NAME);
    KeyValueStore<String, String> chunks = context.getStateStore(OpenChunks.STORE);
    this.openChunks = new OpenChunks(chunks);
    this.decoder = new ChangeDecoder(markers);
    this.judge =
        new ChunkJudge(
            settings.target(),
            store.target(),
            new ChunkHashLoader(reader, hashRecords, settings.verify().hashesTimeout()),
            clock,
            !settings.verifyOnly());
    if (follows != null) {
      this.following = new FollowingJudge(settings, follows.get(), reader, judge, clock);
    }
    context.schedule(
        settings.apply().maxDelay(), PunctuationType.WALL_CLOCK_TIME, now -> store.applyPending());
    context.schedule(LAG_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> measureLag());
  }

  /** How often the apply lag in records is measured against the partitions' end offsets. */
  static final Duration LAG_INTERVAL = Duration.ofSeconds(2);

  /**
   * Sets {@code apply.lag.records} of every partition this task processed: the records between its
   * last processed offset and the partition's end (one offset request per partition). Best effort:
   * a failed request leaves the last value.
   */
  private void measureLag() {
    for (VerifierMeters.PartitionMeters p : partitions.values()) {
      try {
        long end = reader.endOffset(p.topic, p.partition);
        p.lagRecords.set(Math.max(0, end - p.position.get() - 1));
      } catch (RuntimeException e) {
        LOG.debug(
            "target={} end offset of {}-{} unknown: {}",
            settings.target(),
            p.topic,
            p.partition,
            e.toString());
      }
    }
  }

  /** The meters of a partition, cached per processor. */
  private VerifierMeters.PartitionMeters meters(String topic, int partition) {
    return partitions.computeIfAbsent(
        topic + "-" + partition, k -> meters.partition(topic, partition));
  }

  @Override
  public void process(Record<byte[], byte[]> record) {
    RecordMetadata meta =
        context
            .recordMetadata()
            .orElseThrow(() -> new IllegalStateException("a table record without its position"));
    RecordPosition at = RecordPosition.of(meta.topic(), meta.partition(), meta.offset());
    TableName source = sourceOfTopic.get(meta.topic());
    if (source == null) {
      throw poison(
          at, null, new IllegalArgumentException("the topic is not one of the applied tables"));
    }
    RecordPosition position;
    StreamRecord decoded;
    try {
      position =
          new RecordPosition(
              at.topic(),
              at.partition(),
              at.offset(),
              ChangeDecoder.sourcePosition(record.headers()));
      decoded =
          decoder.decode(
              store.target().tableOf(source).table(),
              position,
              record.headers(),
              record.key(),
              record.value());
    } catch (RuntimeException e) {
      throw poison(at, source, e);
    }
    requireContinuity(position);
    VerifierMeters.PartitionMeters partitionMeters = meters(at.topic(), at.partition());
    partitionMeters.position.set(at.offset());
    if (record.timestamp() > 0) {
      partitionMeters.lagMillis.set(Math.max(0, clock.millis() - record.timestamp()));
    }
    if (decoded instanceof StreamRecord.Change change) {
      openChunks.changed(at.topic(), at.partition(), at.offset(), change.change().key());
      if (settings.verifyOnly()) {
        store.pass(position);
      } else {
        store.add(change.change());
      }
      if (store.pending() >= settings.apply().batchSize()) {
        store.applyPending();
      }
    } else if (decoded instanceof StreamRecord.Tombstone tombstone) {
      openChunks.changed(at.topic(), at.partition(), at.offset(), tombstone.key());
      store.pass(position);
    } else if (decoded instanceof StreamRecord.Note note) {
      if (note.marker().getPhase() == MarkerPhase.OPEN) {
        openChunks.open(at.topic(), at.partition(), at.offset(), note.marker());
        store.pass(position);
      } else {
        close(source, note.marker(), position, record.timestamp());
      }
    }
  }

  /** The error that stops the task at a poison record, once the table is reported unverifiable. */
  private PoisonRecordException poison(RecordPosition at, TableName table, RuntimeException cause) {
    PoisonRecordException error = new PoisonRecordException(at, cause);
    alerts.raise(AlertCode.UNVERIFIABLE, at, table, error);
    return error;
  }

  /** A CLOSE marker: everything before it applied, its verdict stored and forwarded. */
  private void close(TableName source, Marker marker, RecordPosition position, long timestamp) {
    store.applyPending();
    Target target = store.target();
    VerdictId id =
        new VerdictId(
            settings.applicationId(),
            marker.getTask(),
            marker.getRunId(),
            marker.getTable(),
            marker.getChunk(),
            position.partition());
    PartitionVerdict verdict;
    Duration judged = null;
    try {
      Optional<PartitionVerdict> stored = target.storedVerdict(id);
      if (stored.isPresent()) {
        verdict = stored.get();
        LOG.info(
            "target={} task={} run={} table={} chunk={} partition={} replayed CLOSE at {}:"
                + " re-emitting the stored verdict",
            settings.target(),
            id.task(),
            id.runId(),
            id.table(),
            id.chunk(),
            id.tablePartition(),
            position);
      } else {
        long start = System.nanoTime();
        verdict = decide(source, marker, position, timestamp, id, target);
        judged = Duration.ofNanos(System.nanoTime() - start);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "target "
              + settings.target()
              + ": CLOSE marker at "
              + position
              + " of chunk "
              + id.chunk()
              + " could not be verified: "
              + e.getMessage(),
          e);
    }
    openChunks.close(position.topic(), position.partition(), marker);
    context.forward(
        new Record<>(
            ChunkResults.key(verdict, settings.target()),
            ChunkResults.of(marker, position.topic(), settings.target(), verdict),
            timestamp));
    if (judged != null) {
      Instant noted = marker.getNotedAt();
      meters.verdict(
          verdict,
          source.toString(),
          judged,
          noted == null ? Duration.ofSeconds(-1) : Duration.between(noted, clock.instant()));
    }
  }

  private PartitionVerdict decide(
      TableName source,
      Marker marker,
      RecordPosition position,
      long timestamp,
      VerdictId id,
      Target target)
      throws SQLException {
    if (!openChunks.isOpen(position.topic(), position.partition(), marker)) {
      LOG.warn(
          "target={} task={} run={} chunk={} CLOSE at {} without its OPEN: keys changed while the"
              + " chunk was read are not known as in flight",
          settings.target(),
          id.task(),
          id.runId(),
          id.chunk(),
          position);
    }
    Set<String> inFlight = openChunks.inFlight(position.topic(), position.partition(), marker);
    PartitionVerdict verdict;
    boolean unanswered = false;
    try {
      verdict =
          following == null
              ? judge.judge(id, marker, position, target.tableOf(source), inFlight)
              : following.judge(
                  id,
                  marker,
                  position,
                  Instant.ofEpochMilli(timestamp),
                  target.tableOf(source),
                  inFlight);
    } catch (TargetUnansweredException e) {
      if (!target.usable()) {
        throw e; // the target is gone, not slow: no verdict can be stored, the task stops
      }
      verdict =
          PartitionVerdict.notVerified(
              id,
              position.offset(),
              ChunkState.UNVERIFIABLE,
              "chunk " + id.chunk() + " of table " + id.table() + ": " + e.getMessage(),
              clock.instant());
      unanswered = true;
    }
    ApplyResult result =
        target.apply(
            new ApplyBatch(List.of(), List.of(), List.of(new MarkerVerdict(position, verdict))));
    if (result.verdictsSkipped() > 0) {
      verdict =
          target
              .storedVerdict(id)
              .orElseThrow(
                  () -> new IllegalStateException("verdict " + id + " skipped but not stored"));
    }
    ChunkResults.log(LOG, settings.target(), verdict);
    if (unanswered && verdict.state() == ChunkState.UNVERIFIABLE) {
      alerts.raise(
          AlertCode.UNVERIFIABLE,
          position,
          source,
          new IllegalStateException("run " + id.runId() + ", " + verdict.error()));
    }
    if (verdict.state() == ChunkState.STALLED) {
      alerts.raise(
          AlertCode.STALLED,
          position,
          source,
          new IllegalStateException(
              "chunk "
                  + id.chunk()
                  + " of run "
                  + id.runId()
                  + " not verified: "
                  + verdict.error()));
    }
    return verdict;
  }

  /**
   * The first record of a partition since the task started must follow the target's checkpoint.
   * Offsets between them that the partition no longer holds were deleted before they were applied;
   * offsets it still holds were skipped by the consumer group: either way nothing can continue
   * silently. Offsets that hold no record (transaction markers) are no gap.
   */
  private void requireContinuity(RecordPosition position) {
    if (!resumed.add(position.topic() + "-" + position.partition())) {
      return;
    }
    Optional<Long> checkpoint;
    try {
      checkpoint = store.target().checkpointOffset(position.topic(), position.partition());
    } catch (SQLException e) {
      throw new IllegalStateException(
          "target " + settings.target() + ": checkpoint of " + position + " unreadable", e);
    }
    if (checkpoint.isEmpty() || position.offset() <= checkpoint.get() + 1) {
      return;
    }
    long next = checkpoint.get() + 1;
    long beginning = reader.beginningOffset(position.topic(), position.partition());
    if (beginning > next) {
      throw resync(
          position,
          new CdcCompareException(
              ErrorCode.RESYNC_NEEDED,
              gap(position, checkpoint.get())
                  + ": the partition now starts at offset "
                  + beginning
                  + ", the records before it were deleted before target "
                  + settings.target()
                  + " applied them; a full resync of the target is needed"));
    }
    Optional<ConsumerRecord<byte[], byte[]>> first =
        reader.firstFrom(
            position.topic(), position.partition(), next, settings.verify().hashesTimeout());
    if (first.isPresent() && first.get().offset() < position.offset()) {
      throw resync(
          position,
          new CdcCompareException(
              ErrorCode.RESYNC_NEEDED,
              gap(position, checkpoint.get())
                  + ": records from offset "
                  + first.get().offset()
                  + " on were never applied but consumer group "
                  + settings.applicationId()
                  + " committed past them; reset its offset of this partition to "
                  + next
                  + " or resync the target"));
    }
  }

  /** The error that stops the task at a gap, once a RESYNC_NEEDED alert names it. */
  private CdcCompareException resync(RecordPosition position, CdcCompareException error) {
    alerts.raise(AlertCode.RESYNC_NEEDED, position, sourceOfTopic.get(position.topic()), error);
    return error;
  }

  private String gap(RecordPosition position, long checkpoint) {
    return "topic "
        + position.topic()
        + ", partition "
        + position.partition()
        + ": target "
        + settings.target()
        + " applied up to offset "
        + checkpoint
        + " but the stream resumes at offset "
        + position.offset();
  }

  @Override
  public void close() {
    reader.close();
    if (following != null) {
      following.close();
    }
  }
}
