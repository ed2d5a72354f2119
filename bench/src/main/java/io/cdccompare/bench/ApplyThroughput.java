package io.cdccompare.bench;

import io.cdccompare.bench.VerifyCost.TargetKind;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.RowChange;
import io.cdccompare.verifier.apply.TargetApplier;
import io.cdccompare.verifier.apply.TargetTable;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Apply throughput into each target kind (docs/design.md, "Delivery guarantees"): {@link
 * TargetApplier#apply} called directly with batches of upserts of narrow rows ({@code id bigint
 * PRIMARY KEY, v int, s text}), as the verifier's apply stage sends them: each batch is one target
 * transaction that locks and moves the checkpoints of the 3 partitions its records come from. A
 * plain main on the embedded target PostgreSQL and MariaDB, not JMH; the Kafka Streams topology
 * around it is not measured.
 *
 * <p>Per target, after unmeasured warm-up batches (into keys the measured phases never touch):
 * <b>insert</b> — upserts of new keys in key order; <b>update</b> — upserts of existing keys in
 * random order (the ON CONFLICT / ON DUPLICATE KEY path). The rate is changes over the wall time of
 * the {@code apply} calls (building the batches is not timed); the table count is checked after.
 *
 * <p>Arguments: {@code [changes] [--batch=N] [--warmup=N]} — changes per phase (default 200 000),
 * upserts per batch (default 500), warm-up batches (default 40). Run: see bench/README.md.
 */
public final class ApplyThroughput {
  private static final KeyCodec CODEC = new KeyCodec(List.of(LogicalType.BIGINT));
  private static final TableRef TABLE = TableRef.of("narrow_apply");
  private static final int PARTITIONS = 3;
  private static final String TOPIC = "bench.public.narrow_apply";
  private static final long WARM_UP_IDS = 1_000_000_000L;

  private ApplyThroughput() {}

  private record Row(String target, String phase, long changes, int batch, double seconds) {
    double rate() {
      return changes / seconds;
    }
  }

  public static void main(String[] args) throws Exception {
    int changes = 200_000;
    int batch = 500;
    int warmUp = 40;
    for (String arg : args) {
      if (arg.startsWith("--batch=")) {
        batch = Integer.parseInt(arg.substring("--batch=".length()));
      } else if (arg.startsWith("--warmup=")) {
        warmUp = Integer.parseInt(arg.substring("--warmup=".length()));
      } else {
        changes = Integer.parseInt(arg.replace("_", ""));
      }
    }
    List<Row> rows = new ArrayList<>();
    try (EmbeddedEnvironment env =
        EmbeddedEnvironment.start(EnumSet.of(Component.TARGET_POSTGRES, Component.MARIADB))) {
      for (TargetKind kind : TargetKind.values()) {
        JdbcServer server = kind.server(env);
        String db = server.createDatabase("apply_tput");
        try (Connection c = server.connect(db)) {
          String bookkeeping = kind.createBookkeeping(server, c, "apply_bookkeeping");
          VerifyCost.execute(
              c,
              "CREATE TABLE narrow_apply (id BIGINT NOT NULL PRIMARY KEY, v INT NOT NULL,"
                  + " s TEXT NOT NULL)");
          TargetApplier applier =
              TargetApplier.open(
                  c,
                  kind.dialect(),
                  "bench-apply",
                  bookkeeping,
                  List.of(new TargetTable(TABLE, List.of("id"), CODEC)),
                  Clock.systemUTC());
          Offsets offsets = new Offsets();
          List<Long> warmIds = new ArrayList<>();
          for (long i = 0; i < (long) warmUp * batch; i++) {
            warmIds.add(WARM_UP_IDS + i);
          }
          run(applier, warmIds, batch, offsets, 0);

          List<Long> ids = new ArrayList<>(changes);
          for (long id = 1; id <= changes; id++) {
            ids.add(id);
          }
          double insert = run(applier, ids, batch, offsets, 0);
          rows.add(new Row(kind.label(), "insert", changes, batch, insert));
          System.err.printf(
              Locale.ROOT, "%s insert: %.0f changes/s%n", kind.label(), changes / insert);

          Collections.shuffle(ids, new Random(20_240_531L));
          double update = run(applier, ids, batch, offsets, 1);
          rows.add(new Row(kind.label(), "update", changes, batch, update));
          System.err.printf(
              Locale.ROOT, "%s update: %.0f changes/s%n", kind.label(), changes / update);

          long expected = (long) warmUp * batch + changes;
          long count = count(c);
          if (count != expected) {
            throw new IllegalStateException(
                kind.label() + ": " + count + " rows applied, expected " + expected);
          }
        }
      }
    }
    report(rows, warmUp);
  }

  /** The next offset of each partition of the benchmark's topic. */
  private static final class Offsets {
    final long[] next = new long[PARTITIONS];
  }

  /** Applies upserts of these ids in batches; returns the seconds spent in {@code apply}. */
  private static double run(
      TargetApplier applier, List<Long> ids, int batch, Offsets offsets, int generation)
      throws SQLException {
    long nanos = 0;
    for (int from = 0; from < ids.size(); from += batch) {
      List<RowChange> changes = new ArrayList<>(batch);
      for (long id : ids.subList(from, Math.min(ids.size(), from + batch))) {
        String key = CODEC.encode(List.of(id));
        int partition = KeyPartitioner.partition(key, PARTITIONS);
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("id", id);
        values.put("v", TargetKind.v(id) + generation);
        values.put("s", TargetKind.s(id));
        changes.add(
            RowChange.upsert(
                TABLE,
                key,
                values,
                RecordPosition.of(TOPIC, partition, offsets.next[partition]++)));
      }
      ApplyBatch applyBatch = ApplyBatch.of(changes);
      long start = System.nanoTime();
      ApplyResult result = applier.apply(applyBatch);
      nanos += System.nanoTime() - start;
      if (result.applied() != changes.size()) {
        throw new IllegalStateException("applied " + result.applied() + " of " + changes.size());
      }
    }
    return nanos / 1e9;
  }

  private static long count(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM narrow_apply")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void report(List<Row> rows, int warmUp) {
    System.out.printf(
        Locale.ROOT,
        "%nApplyThroughput: TargetApplier.apply, narrow rows (id bigint, v int, s text),"
            + " 3 partitions' checkpoints per batch, after %d warm-up batches%n%n",
        warmUp);
    System.out.println("| target | phase | changes | batch | seconds | changes/s |");
    System.out.println("|---|---|---|---|---|---|");
    for (Row r : rows) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %s | %,d | %d | %.2f | %,.0f |%n",
          r.target(),
          r.phase(),
          r.changes(),
          r.batch(),
          r.seconds(),
          r.rate());
    }
  }
}
