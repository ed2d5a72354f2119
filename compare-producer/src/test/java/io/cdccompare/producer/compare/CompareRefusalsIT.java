package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.source.TopicLayout;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A compare task refuses bad input with an error naming it, before writing anything to the source
 * or to Kafka: a full run, and an incremental run as well.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompareRefusalsIT {
  private CaptureFixture source;
  private CompareFixture f;

  @BeforeAll
  void captureTheGoodTable(EmbeddedEnvironment env) throws Exception {
    source = new CaptureFixture(env);
    f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE good (id int PRIMARY KEY, v text)",
        "INSERT INTO good SELECT g, 'v' || g FROM generate_series(1, 50) g",
        "CREATE TABLE keyless (a int, b text)",
        "CREATE TABLE uncaptured (id int PRIMARY KEY)",
        "CREATE TABLE topicless (id int PRIMARY KEY)");
    try (CaptureFixture.Running capture =
        source.start(source.captureConfig("public.good, public.topicless"))) {
      // the capture prepares the source (repi tables, the table topic) and stops
    }
  }

  private void assertRefused(Map<String, String> task, String... named) throws Exception {
    // When the task runs in full / Then it is refused naming what is wrong
    var refusal =
        assertThatThrownBy(() -> new CompareRun(CompareConfig.of(task), false).run())
            .isInstanceOf(ConfigException.class);
    for (String name : named) {
      refusal.hasMessageContaining(name);
    }
    assertNothingWritten();
    // And when it runs incrementally, which asks Kafka and the task's lock and positions while it
    // resolves its tables / Then it is refused the same
    Map<String, String> incremental = new HashMap<>(task);
    incremental.put(CompareConfig.TASK_KIND, "incremental");
    var incrementalRefusal =
        assertThatThrownBy(() -> new IncrementalRun(CompareConfig.of(incremental)).run())
            .isInstanceOf(ConfigException.class);
    for (String name : named) {
      incrementalRefusal.hasMessageContaining(name);
    }
    assertNothingWritten();
  }

  private void assertNothingWritten() throws Exception {
    // And nothing was written to the source or to Kafka
    assertThat(f.count("SELECT count(*) FROM repi.validatetables")).isZero();
    assertThat(f.count("SELECT count(*) FROM repi.comparetables")).isZero();
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                source.env.kafka().bootstrapServers()))) {
      Set<String> topics = admin.listTopics().names().get();
      assertThat(topics).doesNotContain(source.prefix + ".compare.hashes");
    }
  }

  @Test
  void unknownTable() throws Exception {
    // Given a task naming a table the source does not have
    assertRefused(
        f.task("bad", "public.nosuch"),
        "table public.nosuch does not exist in source database " + source.database);
  }

  @Test
  void unknownComparedColumn() throws Exception {
    // Given a compared column the table does not have
    Map<String, String> task = f.task("bad", "public.good");
    task.put("table.public.good.columns", "id, nope");
    assertRefused(
        task, "table.public.good.columns", "column 'nope' does not exist in source table");
  }

  @Test
  void unknownExcludedColumn() throws Exception {
    // Given an excluded column the table does not have
    Map<String, String> task = f.task("bad", "public.good");
    task.put("table.public.good.exclude", "nope");
    assertRefused(task, "tables[public.good].columns[nope]", "no such column");
  }

  @Test
  void tableWithoutKeyAndNoneConfigured() throws Exception {
    // Given a table without a primary key and no key.columns
    assertRefused(
        f.task("bad", "public.keyless"),
        "table public.keyless has no primary key",
        "table.public.keyless.key.columns");
  }

  @Test
  void keyOtherThanThePrimaryKey() throws Exception {
    // Given key columns that differ from the primary key the capture keys changes by
    Map<String, String> task = f.task("bad", "public.good");
    task.put("table.public.good.key.columns", "v");
    assertRefused(task, "table.public.good.key.columns", "primary key [id]");
  }

  @Test
  void tableTheCaptureDoesNotCapture() throws Exception {
    // Given a table outside the capture's tables
    assertRefused(f.task("bad", "public.uncaptured"), "public.uncaptured is not captured");
  }

  @Test
  void tableWhoseTopicIsGone() throws Exception {
    // Given a captured table whose topic was deleted since
    String topic = TopicLayout.topicName(source.prefix, new TableName("public", "topicless"));
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                source.env.kafka().bootstrapServers()))) {
      admin.deleteTopics(List.of(topic)).all().get();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !admin.listTopics().names().get().contains(topic));
    }
    assertRefused(
        f.task("bad", "public.topicless"),
        "table public.topicless: its topic " + topic + " does not exist; start the capture first");
  }

  @Test
  void sqlInjectionInATableName() throws Exception {
    // Given a table name carrying a statement
    String evil = "public.\"good; DROP TABLE good; --\"";

    // When / Then it is a table that does not exist, and the victim is intact
    assertRefused(f.task("bad", evil), "does not exist in source database");
    assertThat(f.count("SELECT count(*) FROM good")).isEqualTo(50);
  }

  @Test
  void sqlInjectionInAColumnName() throws Exception {
    // Given a compared column carrying a statement
    Map<String, String> task = f.task("bad", "public.good");
    task.put("table.public.good.columns", "id, v\"; DROP TABLE good; --");

    // When / Then it is a column that does not exist, and the victim is intact
    assertRefused(task, "does not exist in source table public.good");
    assertThat(f.count("SELECT count(*) FROM good")).isEqualTo(50);
  }
}
