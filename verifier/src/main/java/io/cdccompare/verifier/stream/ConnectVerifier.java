package io.cdccompare.verifier.stream;

import io.cdccompare.core.compare.ComparedShape;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.note.Note;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.core.table.TableName;
import io.cdccompare.core.verdict.ChunkState;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.events.EventKeyEncoder;
import io.cdccompare.schemas.MarkerCodec;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.MarkerVerdict;
import io.cdccompare.verifier.apply.RecordPosition;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies a verify-only target written by a sink connector from a stock Debezium PostgreSQL
 * connector's topics (docs/design.md, "Stock Debezium pipelines"). No marker is in the table
 * topics: the notes arrive on the connector's notes topic, and each chunk is judged whole (one
 * logical partition, {@code capture=kafka-connect} on the compare) once
 *
 * <ol>
 *   <li>the connector's stored offset ({@link ConnectorOffsets}) names a commit after the CLOSE's
 *       last commit LSN: the CLOSE's transaction and every change before it are in their
 *       partitions, below the end offsets {@code h} read then;
 *   <li>the followed sink group committed {@code h} in every partition of the table's topic ({@link
 *       FollowWait}; otherwise the chunk is STALLED);
 * </ol>
 *
 * then the chunk is judged as on any verify-only target ({@link ChunkJudge}) with in flight every
 * key of a record from the first one after the OPEN on ({@link PartitionLog}) up to the partitions'
 * end once the target was read. The verdict is stored on the target with the checkpoint of the
 * CLOSE's record of the notes topic, so a restart (which reads the notes topic again from its
 * start) re-emits it instead of judging again. One thread; {@link #stop} ends {@link #run}.
 */
public final class ConnectVerifier implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectVerifier.class);
  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration OFFSETS_INTERVAL = Duration.ofMillis(200);

  private final VerifierSettings settings;
  private final ConnectPipeline pipeline;
  private final Clock clock = Clock.systemUTC();
  private final StockEvents events;
  private final Target target;
  private final ChunkJudge judge;
  private final FollowWait follow;
  private final StopAlerts alerts;
  private final ConnectorOffsets offsets;
  private final VerifierMeters meters;
  private final KafkaConsumer<byte[], byte[]> notes;
  private final KafkaConsumer<byte[], byte[]> tables;
  private final Map<String, Object> consumerSettings;
  private final KafkaProducer<String, ChunkResult> results;
  private final Map<String, TableName> sourceOfTopic = new HashMap<>();
  private final Map<TableName, TableState> tableStates = new LinkedHashMap<>();
  private final Map<String, OptionalLong> openNotes = new HashMap<>();
  private final Set<String> closedNotes = new HashSet<>();
  private final ArrayDeque<Close> closes = new ArrayDeque<>();
  private long lastNoteCommit = Long.MIN_VALUE;
  private OptionalLong storedCommit = OptionalLong.empty();
  private long offsetsReadAt;
  private long notesLookedAt;
  private volatile boolean stopping;

  /** A table whose notes were seen: its key encoder and the records of its partitions. */
  private record TableState(String topic, EventKeyEncoder keys, Map<Integer, PartitionLog> logs) {}

  /** A CLOSE waiting for its verdict, in the order of the notes topic. */
  private static final class Close {
    final Note note;
    final OptionalLong lastCommit;
    final OptionalLong open;
    final RecordPosition at;
    final Instant appendedAt;
    OptionalLong completedAt = OptionalLong.empty(); // the stored commit that completes it
    Map<Integer, Long> ends; // the partitions' ends once it was completed
    boolean storedLookedUp; // whether its verdict was looked for on the target

    Close(Note note, OptionalLong lastCommit, OptionalLong open, RecordPosition at, Instant t) {
      this.note = note;
      this.lastCommit = lastCommit;
      this.open = open;
      this.at = at;
      this.appendedAt = t;
      if (lastCommit.isPresent()) {
        completedAt = OptionalLong.of(lastCommit.getAsLong() + 1);
      }
    }
  }

  /**
   * @param meters where each verdict and alert is counted ({@code chunks.verified}, {@code rows},
   *     {@code verify.duration}, {@code verdict.lag}, {@code alerts}), as on any target
   */
  public ConnectVerifier(VerifierSettings settings, ConnectPipeline pipeline, VerifierMeters meters)
      throws SQLException {
    if (!settings.verifyOnly()) {
      throw new IllegalArgumentException(
          "a Kafka Connect pipeline's target is verify-only: set mode=verify-only and"
              + " follow.group=connect-<sink connector name>");
    }
    this.settings = settings;
    this.pipeline = pipeline;
    this.meters = meters;
    this.events = new StockEvents(pipeline);
    settings
        .tables()
        .sourceTables()
        .forEach(t -> sourceOfTopic.put(settings.tables().topicOf(t), t));
    Map<String, Object> registry = VerifyTopologyFactory.registryConfig(settings);
    this.alerts = StopAlerts.kafka(settings, registry, clock);
    List<AutoCloseable> opened = new ArrayList<>();
    try {
      this.target = opened(opened, JdbcTarget.opener(settings).open("connect"));
      this.judge =
          new ChunkJudge(
              settings.target(),
              target,
              new ChunkHashLoader(
                  KafkaTopicReader.supplier(settings).get(),
                  VerifyTopologyFactory.deserializer(registry, HashRecord.class),
                  settings.verify().hashesTimeout()),
              clock,
              false);
      this.follow =
          opened(
              opened,
              new FollowWait(
                  AdminFollowedGroup.supplier(settings).get(),
                  new FollowedOffsets(),
                  settings.follow().stallTimeout(),
                  settings.followWaitLimit(),
                  Ticker.system()));
      Map<String, Object> consumer = settings.kafka().clientSettings("consumer.");
      consumer.remove(ConsumerConfig.GROUP_ID_CONFIG);
      consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
      consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
      this.offsets =
          opened(
              opened,
              new ConnectorOffsets(consumer, pipeline.offsetsTopic(), pipeline.connector()));
      this.notes = opened(opened, new KafkaConsumer<>(consumer));
      this.tables = opened(opened, new KafkaConsumer<>(consumer));
      this.consumerSettings = consumer;
      Map<String, Object> producer = settings.kafka().clientSettings("producer.");
      producer.put(ProducerConfig.ACKS_CONFIG, "all");
      SpecificAvroSerializer<ChunkResult> serializer = new SpecificAvroSerializer<>();
      serializer.configure(registry, false);
      this.results =
          opened(opened, new KafkaProducer<>(producer, new StringSerializer(), serializer));
      assignNotes();
    } catch (RuntimeException | SQLException e) {
      for (AutoCloseable c : opened) {
        try {
          c.close();
        } catch (Exception suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  /** Remembers {@code c} to close it when the constructor fails after it was opened. */
  private static <T extends AutoCloseable> T opened(List<AutoCloseable> opened, T c) {
    opened.add(c);
    return c;
  }

  /**
   * Reads the notes topic from its start once it exists (the compare's first note creates it).
   *
   * @throws IllegalArgumentException when it has more than one partition: the notes' order across
   *     partitions is not kept
   */
  private void assignNotes() {
    if (!notes.assignment().isEmpty()) {
      return;
    }
    List<TopicPartition> partitions =
        notes
            .listTopics(Duration.ofSeconds(30))
            .getOrDefault(pipeline.notesTopic(), List.of())
            .stream()
            .map(p -> new TopicPartition(p.topic(), p.partition()))
            .toList();
    if (partitions.size() > 1) {
      throw new IllegalArgumentException(
          "connect.notes.topic: topic "
              + pipeline.notesTopic()
              + " has "
              + partitions.size()
              + " partitions; the notes must be in one partition to keep their order");
    }
    if (!partitions.isEmpty()) {
      notes.assign(partitions);
      notes.seekToBeginning(partitions);
    }
  }

  /** Verifies until {@link #stop}; a failure of the target or Kafka ends it with the error. */
  public void run() throws SQLException {
    LOG.info(
        "target={} verifying the pipeline of connector {} (notes {}, offsets {}) following {}",
        settings.target(),
        pipeline.connector(),
        pipeline.notesTopic(),
        pipeline.offsetsTopic(),
        settings.follow().group());
    while (!stopping) {
      readNotes();
      readTables(POLL);
      dropJudged();
      while (!stopping && !closes.isEmpty() && tryJudge(closes.peekFirst())) {
        closes.pollFirst();
      }
    }
  }

  /** Ends {@link #run} after the step it is in. */
  public void stop() {
    stopping = true;
  }

  private void readNotes() {
    if (notes.assignment().isEmpty()) {
      long now = System.nanoTime();
      if (now - notesLookedAt < Duration.ofSeconds(1).toNanos()) {
        return;
      }
      notesLookedAt = now;
      assignNotes();
      if (notes.assignment().isEmpty()) {
        return;
      }
    }
    for (ConsumerRecord<byte[], byte[]> record : notes.poll(Duration.ZERO)) {
      StockEvents.NoteEvent event;
      try {
        event = events.note(record.topic(), record.headers(), record.value());
      } catch (RuntimeException e) {
        throw unreadable(record, "is no readable note", e);
      }
      if (event != null) {
        note(event, record);
      }
    }
  }

  private void note(StockEvents.NoteEvent event, ConsumerRecord<byte[], byte[]> record) {
    Note note = event.note();
    if (event.lastCommit().isPresent()) {
      lastNoteCommit = Math.max(lastNoteCommit, event.lastCommit().getAsLong());
      for (Close waiting : closes) {
        if (waiting.completedAt.isEmpty()) {
          // a later transaction: its last commit is at or after the CLOSE's own commit
          waiting.completedAt = event.lastCommit();
        }
      }
    }
    if (!sourceOfTopic.containsKey(settings.tables().topicOf(note.table()))) {
      return; // another target's table
    }
    String id = idOf(note);
    if (note.phase() == Note.Phase.OPEN) {
      openNotes.putIfAbsent(id, event.lastCommit());
      forgetOtherRuns(note);
      table(note, event.lastCommit().orElse(Long.MIN_VALUE));
      return;
    }
    if (!closedNotes.add(id)) {
      return; // the same CLOSE again: the compare's tick, or a redelivery
    }
    OptionalLong open = openNotes.getOrDefault(id, OptionalLong.empty());
    if (!openNotes.containsKey(id)) {
      LOG.warn(
          "target={} task={} run={} chunk={} CLOSE without its OPEN: every record of the table"
              + " counts as in flight",
          settings.target(),
          note.task(),
          note.runId(),
          note.chunk());
    }
    table(note, Long.MIN_VALUE);
    closes.add(
        new Close(
            note,
            event.lastCommit(),
            open,
            new RecordPosition(record.topic(), record.partition(), record.offset(), null),
            Instant.ofEpochMilli(record.timestamp())));
  }

  /** The error that stops the verifier at a record it cannot read, naming where it is. */
  private static IllegalStateException unreadable(
      ConsumerRecord<byte[], byte[]> record, String what, RuntimeException cause) {
    return new IllegalStateException(
        "topic "
            + record.topic()
            + " partition "
            + record.partition()
            + " offset "
            + record.offset()
            + " "
            + what
            + ": "
            + cause.getMessage(),
        cause);
  }

  /** An OPEN of another run of the same task and table ends the chunks its earlier runs left. */
  private void forgetOtherRuns(Note note) {
    String prefix = note.task() + "/";
    String sameTable = "/" + note.table() + "/";
    openNotes
        .keySet()
        .removeIf(
            k ->
                k.startsWith(prefix)
                    && k.contains(sameTable)
                    && !k.startsWith(prefix + note.runId() + "/")
                    && closes.stream().noneMatch(c -> k.equals(idOf(c.note))));
  }

  private static String idOf(Note note) {
    return note.task() + "/" + note.runId() + "/" + note.table() + "/" + note.chunk();
  }

  /**
   * The state of a noted table. When first seen, each partition is read from after its last record
   * before {@code floor} ({@link PartitionStart}), the position of the table's first OPEN (every
   * later note is after it); {@link Long#MIN_VALUE} (the first note a CLOSE without its OPEN, or an
   * OPEN of unknown position): from the partition's start.
   */
  private TableState table(Note note, long floor) {
    TableState state = tableStates.get(note.table());
    if (state != null) {
      return state;
    }
    ComparedShape shape = ComparedShape.fromJson(note.comparedShape());
    List<HashedColumn> keyColumns = shape.keyColumns();
    EventKeyEncoder keys =
        new EventKeyEncoder(
            new KeyCodec(keyColumns.stream().map(HashedColumn::type).toList()),
            keyColumns.stream().map(HashedColumn::sourceName).toList());
    String topic = settings.tables().topicOf(note.table());
    Map<Integer, PartitionLog> logs = new LinkedHashMap<>();
    List<TopicPartition> assigned = new ArrayList<>(tables.assignment());
    Map<TopicPartition, Long> starts = starts(topic, floor);
    starts.forEach((tp, start) -> logs.put(tp.partition(), new PartitionLog(start)));
    assigned.addAll(starts.keySet());
    tables.assign(assigned);
    starts.forEach(tables::seek);
    state = new TableState(topic, keys, logs);
    tableStates.put(note.table(), state);
    return state;
  }

  /** Where each partition of {@code topic} is read from ({@link PartitionStart#find}). */
  private Map<TopicPartition, Long> starts(String topic, long floor) {
    List<TopicPartition> partitions =
        tables.partitionsFor(topic, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(topic, p.partition()))
            .toList();
    Map<TopicPartition, Long> begins = tables.beginningOffsets(partitions);
    Map<TopicPartition, Long> ends = tables.endOffsets(partitions);
    Map<TopicPartition, Long> starts = new LinkedHashMap<>();
    try (KafkaConsumer<byte[], byte[]> probe = new KafkaConsumer<>(consumerSettings)) {
      for (TopicPartition tp : partitions) {
        long start =
            PartitionStart.find(
                begins.get(tp),
                ends.get(tp),
                floor,
                PartitionStart.of(probe, tp, events, settings.verify().hashesTimeout()));
        starts.put(tp, start);
      }
    }
    LOG.info(
        "target={} topic={} read from {} (the records before the table's first OPEN skipped;"
            + " ends {})",
        settings.target(),
        topic,
        starts,
        ends);
    return starts;
  }

  private void readTables(Duration wait) {
    if (tables.assignment().isEmpty()) {
      return;
    }
    for (ConsumerRecord<byte[], byte[]> record : tables.poll(wait)) {
      TableState state = tableStates.get(sourceOfTopic.get(record.topic()));
      PartitionLog log = state.logs().get(record.partition());
      StockEvents.Change change;
      try {
        change =
            events.change(
                record.topic(), record.headers(), record.key(), record.value(), state.keys());
      } catch (RuntimeException e) {
        throw unreadable(record, "cannot be read", e);
      }
      if (change == null) {
        log.skipTo(record.offset() + 1);
      } else {
        log.add(record.offset(), change.key(), change.lastCommit());
      }
    }
    for (TopicPartition tp : tables.assignment()) {
      tableStates
          .get(sourceOfTopic.get(tp.topic()))
          .logs()
          .get(tp.partition())
          .skipTo(tables.position(tp));
    }
  }

  /**
   * Drops the records before every chunk still to judge or to come: those before the earliest
   * pending OPEN and before the last note read (a later note commits after it).
   */
  private void dropJudged() {
    long floor = lastNoteCommit;
    for (OptionalLong open : openNotes.values()) {
      floor = Math.min(floor, open.orElse(Long.MIN_VALUE));
    }
    for (TableState state : tableStates.values()) {
      for (PartitionLog log : state.logs().values()) {
        log.dropBefore(floor);
      }
    }
  }

  /** Judges the CLOSE if it can be; false while it waits for the connector's stored offset. */
  private boolean tryJudge(Close close) throws SQLException {
    Note note = close.note;
    TableState state = tableStates.get(note.table());
    VerdictId id =
        new VerdictId(
            settings.applicationId(),
            note.task(),
            note.runId(),
            note.table().toString(),
            note.chunk(),
            0);
    Marker marker =
        MarkerCodec.marker(
            note, state.topic(), 0, 1, new SourcePosition(close.lastCommit.orElse(0), 0, 0));
    if (!close.storedLookedUp) { // a restart: judged before, the verdict is published again
      close.storedLookedUp = true;
      Optional<PartitionVerdict> stored = target.storedVerdict(id);
      if (stored.isPresent()) {
        publish(marker, state, stored.get());
        return true;
      }
    }
    if (close.ends == null) {
      if (close.completedAt.isEmpty() || !storedPassed(close.completedAt.getAsLong())) {
        return false;
      }
      long passed = storedCommit.getAsLong(); // as read before the ends
      Map<Integer, Long> ends = endOffsets(state);
      // every later CLOSE of the table that the stored offset had passed too takes the same ends:
      // its changes are below them as well, and one commit of the sink lets all be judged
      for (Close pending : closes) {
        if (pending.ends == null
            && pending.note.table().equals(note.table())
            && pending.completedAt.isPresent()
            && pending.completedAt.getAsLong() <= passed) {
          pending.ends = ends;
        }
      }
      close.ends = ends;
    }
    for (Map.Entry<Integer, Long> end : close.ends.entrySet()) {
      if (state.logs().get(end.getKey()).next() < end.getValue()) {
        return false; // not yet read up to where the CLOSE's changes end
      }
    }
    long judging = System.nanoTime();
    PartitionVerdict verdict = decide(close, state, id, marker);
    ApplyResult result =
        target.apply(
            new ApplyBatch(List.of(), List.of(), List.of(new MarkerVerdict(close.at, verdict))));
    if (result.verdictsSkipped() > 0) {
      verdict = target.storedVerdict(id).orElseThrow();
    }
    ChunkResults.log(LOG, settings.target(), verdict);
    meters.verdict(
        verdict,
        note.table().toString(),
        Duration.ofNanos(System.nanoTime() - judging),
        Duration.between(close.appendedAt, clock.instant()));
    if (verdict.state() == ChunkState.STALLED) {
      meters.alert(AlertCode.STALLED.name());
      alerts.raise(
          AlertCode.STALLED,
          close.at,
          note.table(),
          new IllegalStateException(
              "chunk "
                  + id.chunk()
                  + " of run "
                  + id.runId()
                  + " not verified: "
                  + verdict.error()));
    }
    publish(marker, state, verdict);
    openNotes.remove(idOf(note));
    return true;
  }

  private PartitionVerdict decide(Close close, TableState state, VerdictId id, Marker marker)
      throws SQLException {
    Duration age = Duration.between(close.appendedAt, clock.instant());
    for (Map.Entry<Integer, Long> end : close.ends.entrySet()) {
      if (end.getValue() == 0) {
        continue;
      }
      FollowWait.Outcome outcome =
          follow.awaitPast(
              state.topic(),
              end.getKey(),
              end.getValue() - 1,
              age.isNegative() ? Duration.ZERO : age);
      if (outcome instanceof FollowWait.Outcome.Stalled stalled) {
        return PartitionVerdict.notVerified(
            id, close.at.offset(), ChunkState.STALLED, stalled.reason(), clock.instant());
      }
    }
    Map<Integer, Long> before = endOffsets(state);
    if (!readUpTo(state, before)) {
      return unreadable(id, close, state);
    }
    Set<String> inFlight = inFlight(close, state, before);
    PartitionVerdict verdict =
        judge.judge(id, marker, close.at, target.tableOf(close.note.table()), inFlight);
    if (verdict.state() != ChunkState.VERIFIED) {
      return verdict;
    }
    Map<Integer, Long> after = endOffsets(state);
    if (!readUpTo(state, after)) {
      return unreadable(id, close, state);
    }
    Set<String> during = inFlight(close, state, after);
    during.removeAll(inFlight);
    PartitionVerdict verified =
        PartitionVerdict.verified(
            id,
            verdict.markerOffset(),
            verdict.verdict().withInFlight(during),
            verdict.verifiedAt());
    logEvidence(close, state, verified.verdict().failedKeys(), after);
    return verified;
  }

  /**
   * Logs where the changes of each failed key lie against the notes: a failed key the stream
   * changed is the first thing to look at when a difference is doubted.
   */
  private void logEvidence(
      Close close, TableState state, List<String> failed, Map<Integer, Long> until) {
    for (String key : failed) {
      Map<Integer, List<String>> positions = new LinkedHashMap<>();
      state.logs().forEach((p, log) -> positions.put(p, log.positionsOf(key)));
      LOG.info(
          "target={} run={} chunk={} failed key {}: records (offset@last commit) {}; OPEN after"
              + " {}, CLOSE after {}, partitions read to {} at the CLOSE, {} after the target read",
          settings.target(),
          close.note.runId(),
          close.note.chunk(),
          key,
          positions,
          close.open,
          close.lastCommit,
          close.ends,
          until);
    }
  }

  private static Set<String> inFlight(Close close, TableState state, Map<Integer, Long> until) {
    Set<String> keys = new LinkedHashSet<>();
    state.logs().forEach((p, log) -> keys.addAll(log.inFlightAfter(close.open, until.get(p))));
    return keys;
  }

  /** Reads the table's partitions up to {@code until}; false when that took too long. */
  private boolean readUpTo(TableState state, Map<Integer, Long> until) {
    long deadline = System.nanoTime() + settings.verify().hashesTimeout().toNanos();
    while (until.entrySet().stream()
        .anyMatch(e -> state.logs().get(e.getKey()).next() < e.getValue())) {
      if (System.nanoTime() > deadline || stopping) {
        return false;
      }
      readTables(POLL);
    }
    return true;
  }

  private PartitionVerdict unreadable(VerdictId id, Close close, TableState state) {
    return PartitionVerdict.notVerified(
        id,
        close.at.offset(),
        ChunkState.UNVERIFIABLE,
        "the records of topic "
            + state.topic()
            + " that sink group "
            + settings.follow().group()
            + " may have applied could not be read within "
            + settings.verify().hashesTimeout().toMillis()
            + " ms",
        clock.instant());
  }

  /** Whether the connector's stored offset reached {@code commit}, read at most every 200 ms. */
  private boolean storedPassed(long commit) {
    if (storedCommit.isPresent() && storedCommit.getAsLong() >= commit) {
      return true;
    }
    long now = System.nanoTime();
    if (now - offsetsReadAt >= OFFSETS_INTERVAL.toNanos()) {
      offsetsReadAt = now;
      storedCommit = offsets.lastCommit();
    }
    return storedCommit.isPresent() && storedCommit.getAsLong() >= commit;
  }

  private Map<Integer, Long> endOffsets(TableState state) {
    Map<TopicPartition, Long> ends =
        tables.endOffsets(
            state.logs().keySet().stream().map(p -> new TopicPartition(state.topic(), p)).toList());
    Map<Integer, Long> byPartition = new LinkedHashMap<>();
    ends.forEach((tp, end) -> byPartition.put(tp.partition(), end));
    return byPartition;
  }

  private void publish(Marker marker, TableState state, PartitionVerdict verdict) {
    results.send(
        new ProducerRecord<>(
            settings.tables().resultsTopic(),
            ChunkResults.key(verdict, settings.target()),
            ChunkResults.of(marker, state.topic(), settings.target(), verdict)));
    results.flush();
  }

  @Override
  public void close() {
    for (AutoCloseable c : new AutoCloseable[] {notes, tables, results, offsets, follow, target}) {
      try {
        c.close();
      } catch (Exception e) {
        LOG.warn("target={} closing {}: {}", settings.target(), c.getClass().getSimpleName(), e);
      }
    }
  }
}
