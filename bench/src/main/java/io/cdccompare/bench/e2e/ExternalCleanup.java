package io.cdccompare.bench.e2e;

import io.cdccompare.capture.CaptureConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.common.errors.GroupNotEmptyException;

/**
 * Removes what a run on external servers created, and nothing else: the benchmark's tables on the
 * source and the targets; on the source the capture's replication slot (it would keep WAL forever)
 * and publication, and the run's rows of the {@code repi} note tables (the schema itself when the
 * run created it); on each target the verifier's checkpoint and verdict rows (the tables when the
 * run created them); in Kafka the topics and consumer groups under the run's random prefix. Each
 * step is tried on its own and a failure is printed, so one refused step does not leave the others
 * undone. Schema-registry subjects of the run's topics are left (they hold no data).
 */
final class ExternalCleanup {
  private static final String[] BOOKKEEPING = {"cdc_compare_checkpoints", "cdc_compare_verdicts"};
  private static final long SLOT_RELEASE_MS = 15_000;
  private static final long GROUP_RELEASE_MS = 90_000;

  private final Servers servers;
  private final Pipeline pipeline;
  private boolean repiExisted = true;
  private final List<String> sourceTables = new ArrayList<>();
  private final Map<String, List<String>> targetTables = new HashMap<>();
  private final Map<String, Set<String>> bookkeepingExisted = new HashMap<>();
  private boolean done;

  ExternalCleanup(Servers servers, Pipeline pipeline) {
    this.servers = servers;
    this.pipeline = pipeline;
  }

  void noteSourceBefore(Connection c) throws SQLException {
    repiExisted = exists(c, "SELECT 1 FROM information_schema.schemata WHERE schema_name = 'repi'");
  }

  void createdOnSource(String table) {
    sourceTables.add(table);
  }

  void noteTargetBefore(Servers.Target target, Connection c) throws SQLException {
    Set<String> existing = new HashSet<>();
    String schema = target.kind().currentSchema(c);
    for (String table : BOOKKEEPING) {
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?")) {
        s.setString(1, schema);
        s.setString(2, table);
        try (ResultSet rs = s.executeQuery()) {
          if (rs.next()) {
            existing.add(table);
          }
        }
      }
    }
    bookkeepingExisted.put(target.name(), existing);
  }

  void createdOnTarget(Servers.Target target, String table) {
    targetTables.computeIfAbsent(target.name(), n -> new ArrayList<>()).add(table);
  }

  /** Runs every step once; call after the capture and the verifiers stopped. */
  synchronized void run() {
    if (done) {
      return;
    }
    done = true;
    System.err.println("removing what the run created on the external servers");
    cleanSource();
    for (Servers.Target target : servers.targets()) {
      cleanTarget(target);
    }
    cleanKafka();
  }

  private void cleanSource() {
    String prefix = servers.topicPrefix();
    String slot = CaptureConfig.defaultSlotName(prefix);
    try (Connection c = servers.source().connect()) {
      for (String table : sourceTables) {
        step(c, "DROP TABLE IF EXISTS " + table);
      }
      long deadline = System.currentTimeMillis() + SLOT_RELEASE_MS;
      while (exists(
              c, "SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active")
          && System.currentTimeMillis() < deadline) {
        TimeUnit.MILLISECONDS.sleep(200);
      }
      step(
          c,
          "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
              + " WHERE slot_name = '"
              + slot
              + "'");
      step(c, "DROP PUBLICATION IF EXISTS " + slot);
      if (!repiExisted) {
        step(c, "DROP SCHEMA IF EXISTS repi CASCADE");
      } else {
        String tasks = "task LIKE '" + prefix + "-%'";
        step(c, "DELETE FROM repi.validatetables WHERE " + tasks);
        step(c, "DELETE FROM repi.comparetables WHERE " + tasks);
        step(c, "DELETE FROM repi.capturetopics WHERE topic LIKE '" + prefix + ".%'");
      }
    } catch (SQLException e) {
      System.err.println("source cleanup failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void cleanTarget(Servers.Target target) {
    try (Connection c = target.connect()) {
      for (String table : targetTables.getOrDefault(target.name(), List.of())) {
        step(c, "DROP TABLE IF EXISTS " + table);
      }
      Set<String> existed = bookkeepingExisted.getOrDefault(target.name(), Set.of());
      String schema = target.kind().quote(pipeline.targetSchema(target));
      for (String table : BOOKKEEPING) {
        String qualified = schema + "." + target.kind().quote(table);
        if (existed.contains(table)) {
          step(
              c,
              "DELETE FROM "
                  + qualified
                  + " WHERE application = '"
                  + pipeline.applicationId(target)
                  + "'");
        } else {
          step(c, "DROP TABLE IF EXISTS " + qualified);
        }
      }
    } catch (SQLException e) {
      System.err.println("target " + target.name() + " cleanup failed: " + e.getMessage());
    }
  }

  /**
   * Topics and groups named {@code <prefix>.…} or {@code <prefix>-…} (Streams' own included). The
   * verifiers' Streams members do not leave their groups when they close: a group can be deleted
   * only once their session timed out (45 s by default), so that is retried for a while.
   */
  private void cleanKafka() {
    String prefix = servers.topicPrefix();
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers.bootstrapServers()))) {
      List<String> topics =
          admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
              .filter(t -> t.startsWith(prefix + ".") || t.startsWith(prefix + "-"))
              .toList();
      if (!topics.isEmpty()) {
        admin.deleteTopics(topics).all().get(60, TimeUnit.SECONDS);
      }
      System.err.println("deleted " + topics.size() + " topics; deleting the consumer groups");
      long deadline = System.currentTimeMillis() + GROUP_RELEASE_MS;
      List<String> left = groups(admin, prefix);
      while (!left.isEmpty()) {
        try {
          admin.deleteConsumerGroups(left).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof GroupNotEmptyException)
              || System.currentTimeMillis() > deadline) {
            throw e;
          }
          TimeUnit.SECONDS.sleep(2);
        }
        left = groups(admin, prefix);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      System.err.println("Kafka cleanup failed: " + e);
    }
  }

  private static List<String> groups(Admin admin, String prefix) throws Exception {
    List<String> groups = new ArrayList<>();
    for (GroupListing g :
        admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(30, TimeUnit.SECONDS)) {
      if (g.groupId().startsWith(prefix + "-")) {
        groups.add(g.groupId());
      }
    }
    return groups;
  }

  private static void step(Connection c, String sql) {
    try {
      TargetKind.execute(c, sql);
    } catch (SQLException e) {
      System.err.println("cleanup: " + sql + " failed: " + e.getMessage());
    }
  }

  private static boolean exists(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql);
        ResultSet rs = s.executeQuery()) {
      return rs.next();
    }
  }
}
