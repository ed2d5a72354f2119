package io.cdccompare.producer.compare;

import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.recheck.RecheckPlan;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.KeyListReader.KeyListRead;
import io.cdccompare.producer.repair.KeyResend;
import io.cdccompare.schemas.avro.TaskKind;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One repair of one target's differences in one run (docs/design.md, "Repair"), under the task's
 * lock: the failed and missed keys are re-sent from the source through the capture ({@link Resend}:
 * a Debezium incremental snapshot limited to those keys, whose watermarks keep an older row from
 * overwriting a newer change), then exactly the repaired keys are compared again on that target as
 * key-list chunks ({@link KeyListRun}, run id {@code RecheckRuns.repairRunId}). With {@code
 * deleteExtra} the extra keys join that check and the chunks are REPAIR chunks: the target deletes
 * each of their keys the source did not hold between the chunk's OPEN and CLOSE notes and no change
 * touched; without it they are RECHECK chunks and nothing is deleted.
 *
 * <p>{@link #preview()} reads the source and says per key what {@link #run} would do, writing
 * nothing. One caller; {@link #stop()} from any thread.
 */
public final class RepairRun {
  private static final Logger LOG = LoggerFactory.getLogger(RepairRun.class);

  /** Keys per key-list chunk of the check. */
  static final int KEYS_PER_CHUNK = 1_000;

  /** Re-sends the rows of some keys of one table from the source through the capture. */
  @FunctionalInterface
  public interface Resend {
    /**
     * Returns once the capture has written the rows the source holds under {@code keys}.
     *
     * @param keyColumns the table's key columns, in key order
     * @return how many rows the capture re-sent, -1 when it does not say
     */
    long resend(TableName table, List<String> keyColumns, List<String> keys) throws Exception;
  }

  /**
   * The re-send of a running capture ({@link KeyResend}): one incremental-snapshot signal per
   * table, waited for up to {@code timeout} on a source session of its own; each snapshot window
   * waits up to {@code read.visibility.timeout.ms} for the table's writers (its fence).
   */
  public static Resend throughCapture(CompareConfig config, Duration timeout) {
    if (config.externalCapture()) {
      throw new ConfigException(
          CompareConfig.CAPTURE
              + "=kafka-connect: a repair re-sends rows through cdc-compare's own capture, which"
              + " this task does not use; repair the target by the connector's own means (an"
              + " incremental snapshot signal) and run compare recheck");
    }
    KeyResend capture =
        KeyResend.of(
            config.bootstrapServers(), config.topicPrefix(), config.readVisibilityTimeout());
    return (table, keyColumns, keys) -> {
      try (Connection source = config.source().connect("cdc-compare-resend-" + config.taskName())) {
        KeyResend.Resent resent = capture.resend(source, table, keyColumns, keys, timeout);
        return resent.rowsScanned().orElse(resent.found());
      }
    };
  }

  /**
   * One table's differences on the repaired target, canonical key encodings each.
   *
   * @param failed keys whose row differs on the target
   * @param missed keys the target lacks
   * @param extra keys only the target holds
   */
  public record Differences(
      TableName table,
      SortedSet<String> failed,
      SortedSet<String> missed,
      SortedSet<String> extra) {
    public Differences {
      failed = new TreeSet<>(failed);
      missed = new TreeSet<>(missed);
      extra = new TreeSet<>(extra);
    }

    /** The keys re-sent from the source: failed and missed. */
    public SortedSet<String> resent() {
      SortedSet<String> keys = new TreeSet<>(failed);
      keys.addAll(missed);
      return keys;
    }

    boolean isEmpty() {
      return failed.isEmpty() && missed.isEmpty() && extra.isEmpty();
    }

    /** The class of difference of one of its keys: failed, missed or extra. */
    public String classOf(String key) {
      return failed.contains(key) ? "failed" : missed.contains(key) ? "missed" : "extra";
    }
  }

  /** What a repair does with one key, as {@link #preview()} says it. */
  public enum Action {
    /** Its source row is re-sent through the stream, then the key is compared again. */
    RESEND("re-send"),
    /** The source no longer holds it: the target deletes it unless it reappears first. */
    DELETE("delete"),
    /** Compared again only: nothing is sent or deleted for it. */
    COMPARE("compare"),
    /** Left as it is: an extra key without {@code --delete-extra}. */
    LEAVE("leave");

    private final String text;

    Action(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  /** One key's planned action, with the reason. */
  public record Step(String key, String kind, Action action, String why) {}

  /** What a repair did: the rows re-sent per table, and its check's run. */
  public record Summary(Map<TableName, Long> resent, KeyListRun.Summary check) {}

  private final CompareConfig config;
  private final String target;
  private final String runId;
  private final boolean deleteExtra;
  private final Map<TableName, Differences> differences;
  private final Resend resend;
  private volatile boolean stopping;
  private volatile KeyListRun check;

  /**
   * @param target the target whose differences are repaired: the only one that compares the keys
   * @param runId the repair's own run id ({@code RecheckRuns.repairRunId(repaired, n)})
   * @param differences per table of the task, the target's differences in the repaired run
   */
  public RepairRun(
      CompareConfig config,
      String target,
      String runId,
      boolean deleteExtra,
      List<Differences> differences,
      Resend resend) {
    this.config = config;
    this.target = target;
    this.runId = runId;
    this.deleteExtra = deleteExtra;
    this.resend = resend;
    this.differences = new LinkedHashMap<>();
    Set<TableName> tables = new java.util.HashSet<>();
    config.tables().forEach(t -> tables.add(t.table()));
    for (Differences d : differences) {
      if (!tables.contains(d.table())) {
        throw new ConfigException(
            "table "
                + d.table()
                + " is not one of the tables of task "
                + config.taskName()
                + " ("
                + CompareConfig.TABLES
                + "): a repair repairs only tables of its task");
      }
      if (!d.isEmpty()) {
        this.differences.put(d.table(), d);
      }
    }
  }

  /** The kind of the repair's check: REPAIR (its targets delete) only with {@code deleteExtra}. */
  public TaskKind checkKind() {
    return deleteExtra ? TaskKind.REPAIR : TaskKind.RECHECK;
  }

  /** The keys the check compares, per table, each at the repaired target only. */
  public Map<TableName, List<KeyList>> checkChunks() {
    Map<TableName, List<KeyList>> chunks = new LinkedHashMap<>();
    differences.forEach(
        (table, d) -> {
          RecheckPlan plan =
              RecheckPlan.of(
                  List.of(
                      new RecheckPlan.Verdict(
                          target,
                          table.toString(),
                          d.failed(),
                          d.missed(),
                          deleteExtra ? d.extra() : List.of(),
                          List.of())),
                  RecheckPlan.What.DIFFERENCES);
          if (!plan.isEmpty()) {
            chunks.put(table, plan.chunks(table.toString(), KEYS_PER_CHUNK));
          }
        });
    return chunks;
  }

  /**
   * Says per table and key what {@link #run} would do, from the source as it is now; writes
   * nothing.
   */
  public SortedMap<String, List<Step>> preview() throws Exception {
    SortedMap<String, List<Step>> steps = new TreeMap<>();
    String task = config.taskName();
    try (Connection catalog = config.source().connect("cdc-compare-task-" + task);
        Connection scan =
            config.source().connect("cdc-compare-scan-" + task, CompareRun.SCAN_DRIVER)) {
      for (ScanPlan plan : CompareRun.resolve(config, catalog, tasks())) {
        Differences d = differences.get(plan.task().table());
        List<String> all = new ArrayList<>(d.resent());
        all.addAll(d.extra());
        KeyListReader.requireKeys(plan, List.of(KeyList.everywhere(all)));
        KeyListRead read =
            new KeyListReader(
                    scan,
                    plan,
                    new ExactSnapshot(scan, config.readVisibilityTimeout(), () -> false))
                .read(KeyList.everywhere(all), "table " + plan.task().table() + " repair preview");
        Set<String> absent = new TreeSet<>(read.absentKeys());
        List<Step> table = new ArrayList<>();
        for (String key : all) {
          table.add(step(key, d.classOf(key), absent.contains(key)));
        }
        steps.put(plan.task().table().toString(), table);
      }
    }
    return steps;
  }

  private Step step(String key, String kind, boolean absent) {
    boolean extra = kind.equals("extra");
    if (extra && !deleteExtra) {
      return new Step(key, kind, Action.LEAVE, "only the target holds it; --delete-extra deletes");
    }
    if (!absent) {
      return extra
          ? new Step(key, kind, Action.COMPARE, "the source holds it now: nothing is deleted")
          : new Step(key, kind, Action.RESEND, "the source's row goes through the stream");
    }
    return deleteExtra
        ? new Step(key, kind, Action.DELETE, "the source lacks it: deleted unless it reappears")
        : new Step(key, kind, Action.COMPARE, "the source lacks it now: its delete is streamed");
  }

  /**
   * Re-sends the failed and missed keys of every table, then notes the check's chunks. Before
   * anything is sent, Kafka, the table topics and the repaired target's verifier are checked.
   *
   * @param verifierGroup the consumer group of the target's verifier (its {@code application.id})
   * @throws IllegalStateException when the verifier is not running, or another process runs the
   *     task (naming its session)
   */
  public Summary run(String verifierGroup) throws Exception {
    String task = config.taskName();
    Map<TableName, Long> resent = new LinkedHashMap<>();
    try (Connection catalog = config.source().connect("cdc-compare-task-" + task);
        TaskLock lock = TaskLock.named(config, "cdc-compare-repair-" + task + "-" + runId)) {
      List<ScanPlan> plans = CompareRun.resolve(config, catalog, tasks());
      Map<TableName, List<KeyList>> chunks = checkChunks();
      for (ScanPlan plan : plans) {
        KeyListReader.requireKeys(plan, chunks.getOrDefault(plan.task().table(), List.of()));
      }
      int maxRecordBytes;
      try (TopicCheck topics = new TopicCheck(config)) {
        topics.requireReachable();
        topics.requireTableTopics(plans);
        topics.requireVerifierRunning(target, verifierGroup);
        lock.take();
        maxRecordBytes = topics.ensureHashesTopic();
      }
      for (ScanPlan plan : plans) {
        if (stopping) {
          return new Summary(resent, new KeyListRun.Summary(runId, checkKind(), false, List.of()));
        }
        TableName table = plan.task().table();
        List<String> keys = new ArrayList<>(differences.get(table).resent());
        if (keys.isEmpty()) {
          continue;
        }
        long rows = resend.resend(table, plan.keyColumns(), keys);
        resent.put(table, rows);
        LOG.info(
            "task={} run={} target={} table={} re-sent keys={} rows={}",
            task,
            runId,
            target,
            table,
            keys.size(),
            rows);
      }
      List<ScanPlan> checked =
          plans.stream().filter(p -> chunks.containsKey(p.task().table())).toList();
      KeyListRun run =
          new KeyListRun(config, runId, checkKind(), chunks).prepared(checked, maxRecordBytes);
      check = run;
      if (stopping) {
        run.stop();
      }
      return new Summary(resent, run.run());
    }
  }

  /** Stops after the table being re-sent, or after the check's chunk being read. */
  public void stop() {
    stopping = true;
    KeyListRun current = check;
    if (current != null) {
      current.stop();
    }
  }

  /** The task's settings of the repaired tables, in the task's order. */
  private List<TableTask> tasks() {
    return config.tables().stream().filter(t -> differences.containsKey(t.table())).toList();
  }
}
