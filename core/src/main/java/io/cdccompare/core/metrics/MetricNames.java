package io.cdccompare.core.metrics;

import io.cdccompare.core.metrics.Metric.Type;
import java.util.List;

/**
 * Every metric the programs publish, in one place (STYLE.md): the capture's, the verifier's and a
 * running compare's. The README's metrics table, the k8s PrometheusRule and the Grafana dashboard
 * name only metrics listed here, and the scrape tests check that each one appears.
 */
public final class MetricNames {
  private static final List<String> TABLE = List.of("table");
  private static final List<String> PARTITION = List.of("target", "topic", "partition");
  private static final List<String> CHUNK = List.of("task", "table", "target");

  /** Change events the capture sent, per source table. */
  public static final Metric CAPTURE_EVENTS =
      new Metric(
          "cdccompare.capture.events",
          Type.COUNTER,
          "",
          TABLE,
          "change events the capture sent to the table's topic");

  /** Notes (OPEN/CLOSE markers) the capture sent, per source table. */
  public static final Metric CAPTURE_MARKERS =
      new Metric(
          "cdccompare.capture.markers",
          Type.COUNTER,
          "",
          TABLE,
          "compare notes (OPEN, CLOSE) the capture sent as markers into the table's topic");

  /** Source commit to topic, for the last event of the table. */
  public static final Metric CAPTURE_LAG =
      new Metric(
          "cdccompare.capture.lag",
          Type.GAUGE,
          "seconds",
          TABLE,
          "time from the source commit of the table's last event to its send to Kafka");

  /** 1 while the capture runs, 0 once it stopped by itself (resync needed, a fatal error). */
  public static final Metric CAPTURE_HEALTHY =
      new Metric(
          "cdccompare.capture.healthy",
          Type.GAUGE,
          "",
          List.of(),
          "1 while the capture streams, 0 once it stopped by itself");

  /** Rows a verifier applied to its target. */
  public static final Metric APPLY_ROWS =
      new Metric(
          "cdccompare.apply.rows",
          Type.COUNTER,
          "",
          PARTITION,
          "changes written to the target (rate: rows/s; a replay the checkpoint skips counts again)");

  /** Records a verifier's apply is behind the end of a table topic's partition. */
  public static final Metric APPLY_LAG_RECORDS =
      new Metric(
          "cdccompare.apply.lag.records",
          Type.GAUGE,
          "",
          PARTITION,
          "records between the last one the apply processed and the partition's end (every 2 s)");

  /** Age of the last record the apply processed, from its send by the capture. */
  public static final Metric APPLY_LAG_SECONDS =
      new Metric(
          "cdccompare.apply.lag",
          Type.GAUGE,
          "seconds",
          PARTITION,
          "age of the last record the apply processed: now minus its timestamp (the capture's send)");

  /** Chunks a verifier judged, per verdict state. */
  public static final Metric CHUNKS_VERIFIED =
      new Metric(
          "cdccompare.chunks.verified",
          Type.COUNTER,
          "",
          List.of("task", "table", "target", "state"),
          "chunk verdicts decided (one per chunk and table partition), per state (VERIFIED, UNVERIFIABLE, SCHEMA_DRIFT, STALLED)");

  /** Rows per outcome in the verdicts a verifier published. */
  public static final Metric ROWS =
      new Metric(
          "cdccompare.rows",
          Type.COUNTER,
          "",
          List.of("task", "table", "target", "outcome"),
          "rows in published verdicts, per outcome (matched, failed, missed, extra, in_flight)");

  /** Time from a chunk's CLOSE reaching the verifier to its verdict. */
  public static final Metric VERIFY_DURATION =
      new Metric(
          "cdccompare.verify.duration",
          Type.HISTOGRAM,
          "seconds",
          List.of("target", "table"),
          "time to hash the chunk's rows on the target and judge them");

  /** Time from the CLOSE note's source commit to the verdict's publish. */
  public static final Metric VERDICT_LAG =
      new Metric(
          "cdccompare.verdict.lag",
          Type.HISTOGRAM,
          "seconds",
          List.of("target", "table"),
          "time from the CLOSE note's commit on the source (its notedAt) to the verdict's publish");

  /** Hash records a running compare wrote that a target has not verified yet (flow control). */
  public static final Metric HASHES_WAITING =
      new Metric(
          "cdccompare.hashes.waiting",
          Type.GAUGE,
          "",
          List.of("target", "task"),
          "hash records a running compare wrote whose verdict the target has not published yet");

  /** Bytes of the hash records waiting for a target. */
  public static final Metric HASHES_WAITING_BYTES =
      new Metric(
          "cdccompare.hashes.waiting.size",
          Type.GAUGE,
          "bytes",
          List.of("target", "task"),
          "bytes of those hash records");

  /** Alerts a verifier raised itself, per code. */
  public static final Metric ALERTS =
      new Metric(
          "cdccompare.alerts",
          Type.COUNTER,
          "",
          List.of("target", "code"),
          "alerts the verifier raised itself, per code (UNVERIFIABLE, RESYNC_NEEDED, STALLED)");

  /** 1 while every partition of the verifier is processed, 0 once one stopped. */
  public static final Metric VERIFIER_HEALTHY =
      new Metric(
          "cdccompare.verifier.healthy",
          Type.GAUGE,
          "",
          List.of("target"),
          "1 while the verifier runs, 0 once an application stopped (a poison record, a resync needed)");

  /** Source rows a compare run read and hashed. */
  public static final Metric COMPARE_ROWS =
      new Metric(
          "cdccompare.compare.rows",
          Type.COUNTER,
          "",
          List.of("task", "table"),
          "source rows read and hashed by a running compare (rate: rows/s)");

  /** Share of a table's estimated rows a running compare has read. */
  public static final Metric COMPARE_PROGRESS =
      new Metric(
          "cdccompare.compare.progress",
          Type.GAUGE,
          "ratio",
          List.of("task", "table"),
          "share of the table's estimated rows the running compare has read (0 to 1; 1 when it is done)");

  /** Every metric above, in the order of docs/operations.md's table. */
  public static final List<Metric> ALL =
      List.of(
          CAPTURE_EVENTS,
          CAPTURE_MARKERS,
          CAPTURE_LAG,
          CAPTURE_HEALTHY,
          APPLY_ROWS,
          APPLY_LAG_RECORDS,
          APPLY_LAG_SECONDS,
          CHUNKS_VERIFIED,
          ROWS,
          VERIFY_DURATION,
          VERDICT_LAG,
          HASHES_WAITING,
          HASHES_WAITING_BYTES,
          ALERTS,
          VERIFIER_HEALTHY,
          COMPARE_ROWS,
          COMPARE_PROGRESS);

  private MetricNames() {}
}
