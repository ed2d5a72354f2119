package io.cdccompare.capture;

import static io.cdccompare.capture.CaptureFixture.header;
import static io.cdccompare.capture.CaptureFixture.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.core.stream.ChangeHeaders;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.source.Failpoint;
import io.cdccompare.source.TopicLayout;
import io.cdccompare.testsupport.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The capture process dies (at a failpoint, then by {@code kill -9}) while rows are committed;
 * after restarts no committed change is missing, and the re-sent duplicates carry the source
 * positions that identify them.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
class CaptureCrashIT {
  private static final int ROWS = 600;

  @Test
  void killedCaptureLosesNoCommittedChangeAndItsDuplicatesAreRecognisable(EmbeddedEnvironment env)
      throws Exception {
    // Given: logs of the capture processes are kept in target/ for a human to read
    CaptureFixture f = new CaptureFixture(env);
    Path dir = Files.createDirectories(Path.of("target", "capture-crash-" + f.prefix));
    f.sql("CREATE TABLE load (id int PRIMARY KEY, v text)");
    Map<String, String> settings = f.captureConfig("public.load");
    Path config = dir.resolve("capture.properties");
    StringBuilder text = new StringBuilder();
    settings.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    Files.writeString(config, text);
    String topic = TopicLayout.topicName(f.prefix, new TableName("public", "load"));
    String slot = CaptureConfig.of(settings).slotName();

    // When: the first capture halts after Kafka acknowledged its 3rd batch of changes, before the
    // offsets
    Process first =
        start(config, dir.resolve("first.log"), Failpoint.CAPTURE_ACKED_NOT_COMMITTED + "@3");
    awaitSlotActive(f, slot);
    CompletableFuture.runAsync(() -> write(f, 1, ROWS / 2, first, topic))
        .get(120, TimeUnit.SECONDS);
    boolean halted = first.waitFor(90, TimeUnit.SECONDS);
    assertThat(halted)
        .as("capture reached the failpoint; keys on the topic: %d", distinctKeys(f, topic))
        .isTrue();
    assertThat(first.exitValue()).isEqualTo(Failpoint.HALT_STATUS);
    assertThat(Files.readString(dir.resolve("first.log")))
        .contains("FAILPOINT " + Failpoint.CAPTURE_ACKED_NOT_COMMITTED);

    // and the second is killed with SIGKILL while the load goes on
    awaitSlotInactive(f, slot);
    Process second = start(config, dir.resolve("second.log"), null);
    awaitSlotActive(f, slot);
    CompletableFuture<Void> writer =
        CompletableFuture.runAsync(() -> write(f, ROWS / 2 + 1, ROWS, second, topic));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> distinctKeys(f, topic) > ROWS / 2 || writer.isDone());
    second.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    assertThat(second.exitValue()).isEqualTo(137);
    writer.get(120, TimeUnit.SECONDS);

    // Then: a third run catches up with every committed row
    awaitSlotInactive(f, slot);
    Process third = start(config, dir.resolve("third.log"), null);
    try {
      List<ConsumerRecord<byte[], byte[]>> records =
          f.read(topic, r -> r.stream().map(CaptureFixture::key).distinct().count() >= ROWS);
      Set<String> keys = records.stream().map(CaptureFixture::key).collect(Collectors.toSet());
      Set<String> expected = new HashSet<>();
      for (int i = 1; i <= ROWS; i++) {
        expected.add(Integer.toString(i));
      }
      assertThat(keys).containsExactlyInAnyOrderElementsOf(expected);

      Map<String, List<String>> positionsByKey = new HashMap<>();
      for (ConsumerRecord<byte[], byte[]> r : records) {
        positionsByKey
            .computeIfAbsent(key(r), k -> new ArrayList<>())
            .add(header(r, ChangeHeaders.COMMIT_LSN) + "/" + header(r, ChangeHeaders.LSN));
      }
      List<List<String>> duplicated =
          positionsByKey.values().stream().filter(p -> p.size() > 1).toList();
      assertThat(duplicated).as("the failpoint batch was really delivered twice").isNotEmpty();
      assertThat(duplicated)
          .as("a duplicate carries the same source position as the original")
          .allSatisfy(p -> assertThat(new HashSet<>(p)).hasSize(1));
    } finally {
      third.destroy();
      third.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static Process start(Path config, Path log, String failpoint) throws Exception {
    return ChildJvm.of(CaptureProcess.class)
        .logback("logback-capture-child.xml")
        .failpoint(failpoint)
        .start(log, config.toString());
  }

  /**
   * Commits one row per transaction; after every 50 rows it waits until the capture delivered them
   * (or is gone), so the rows reach Kafka in several batches.
   */
  private static void write(CaptureFixture f, int from, int to, Process capture, String topic) {
    try (Connection c = f.connect();
        PreparedStatement insert = c.prepareStatement("INSERT INTO load VALUES (?, ?)")) {
      for (int i = from; i <= to; i++) {
        insert.setInt(1, i);
        insert.setString(2, "row-" + i);
        insert.executeUpdate();
        if (i % 50 == 0) {
          int written = i;
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> !capture.isAlive() || distinctKeys(f, topic) >= written);
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static long distinctKeys(CaptureFixture f, String topic) {
    return f.readAll(topic).stream().map(CaptureFixture::key).distinct().count();
  }

  private static void awaitSlotActive(CaptureFixture f, String slot) {
    await().atMost(Duration.ofSeconds(90)).until(() -> slotActive(f, slot));
  }

  private static void awaitSlotInactive(CaptureFixture f, String slot) {
    await().atMost(Duration.ofSeconds(60)).until(() -> !slotActive(f, slot));
  }

  private static boolean slotActive(CaptureFixture f, String slot) throws Exception {
    try (Connection c = f.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT active FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
      return rs.next() && rs.getBoolean(1);
    }
  }
}
