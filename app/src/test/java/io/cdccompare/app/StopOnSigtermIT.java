package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code capture}, {@code verify} and {@code alerts} run as an operator runs them, each in a JVM of
 * its own from the shaded jar, and are stopped with SIGTERM, as a script's {@code kill}, systemd or
 * Kubernetes stops them (a JVM started in the background of a non-interactive shell ignores SIGINT,
 * so SIGTERM is what reaches it). Each ends with the JVM's code for SIGTERM (143) within the
 * docs/commands.md's bound, leaves no process behind, and kept its work: the capture its source
 * position (a restart sends only what is new), the verifier the Kafka offsets of what it applied,
 * the forwarder its offset short of an alert the webhook did not take (a restart sends it). The
 * restarted capture and forwarder are stopped with SIGINT (Ctrl-C, 130).
 *
 * <p>One scenario rather than one test per command: starting each command's JVM is most of the
 * time, and the three start and stop side by side, as in a deployment. {@code env up} and {@code
 * demo} get their SIGTERM in {@link EnvUpIT} and {@link DemoIT}.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES
})
class StopOnSigtermIT {
  private static final Logger LOG = LoggerFactory.getLogger(StopOnSigtermIT.class);

  /**
   * The bound within which docs/commands.md says {@code capture}, {@code verify} and {@code alerts}
   * stop.
   */
  private static final Duration STOP_BOUND = Duration.ofSeconds(10);

  private static final int SIGINT_EXIT = 130;
  private static final int SIGTERM_EXIT = 143;

  private final List<Process> started = new CopyOnWriteArrayList<>();
  private Webhook webhook;

  @BeforeEach
  void startWebhook() throws IOException {
    webhook = Webhook.start();
  }

  @AfterEach
  void killLeftovers() {
    started.forEach(Process::destroyForcibly);
    webhook.stop();
  }

  @Test
  void captureVerifyAndAlertsStopOnSigtermAndKeepTheirWork(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    assertThat(sigintIgnored())
        .as(
            "SIGINT is ignored by this test JVM, so by the commands it starts: it inherited that"
                + " from a build started in the background of a non-interactive shell (nohup ..."
                + " &); start the build in the foreground, or from a shell with job control")
        .isFalse();
    // Given a source table of 300 rows to replicate to target pg, and two alerts on the alerts
    // topic
    String app = "sigterm-verify-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    ComparePipeline p =
        ComparePipeline.create(
            env,
            dir,
            "sigterm",
            Map.of(),
            List.of("pg"),
            Map.of(
                "target.pg.application.id",
                app,
                // Kafka offsets are committed every 10 minutes: only the stop can commit them here
                "streams.commit.interval.ms",
                "600000",
                // the report aggregation beside it commits in transactions, which must outlive that
                "streams.producer.transaction.timeout.ms",
                "900000"));
    CaptureFixture source = p.source();
    source.sql("INSERT INTO items SELECT g, 'n' || g, g FROM generate_series(1, 300) g");
    String table = source.prefix + ".public.items";
    String alerts = source.prefix + ".compare.alerts";
    String alertsGroup = source.prefix + "-alerts";
    try (Admin admin = admin(env)) {
      admin.createTopics(List.of(new NewTopic(alerts, 1, (short) 1))).all().get();
    }
    AlertForwarderIT.send(
        env, alerts, "t/b/public.items", alert(AlertCode.DIFFERENCES, "3 rows differ"));
    AlertForwarderIT.send(
        env, alerts, "t/b/public.orders", alert(AlertCode.UNVERIFIABLE, "a lost hash"));
    Map<String, String> captureSettings = new HashMap<>(source.captureConfig("public.items"));
    captureSettings.put("snapshot", "initial");
    String captureFile =
        ComparePipeline.write(dir.resolve("capture.properties"), captureSettings).toString();
    String targetsFile = p.targetsFile().toString();

    // And, each in a JVM of its own: the capture (snapshot, then streaming), the verifier of pg and
    // the alerts forwarder, whose webhook takes the first alert and then refuses every request
    Path logs = Files.createDirectories(Path.of("target", "stop-on-sigterm", source.prefix));
    webhook.take(1);
    Process capture = start(logs.resolve("capture-1.log"), "capture", "-c", captureFile);
    Process verify = start(logs.resolve("verify.log"), "verify", "-c", targetsFile, "-t", "pg");
    Process forwarder =
        start(logs.resolve("alerts-1.log"), "alerts", "-c", targetsFile, "--webhook", webhook.url);
    awaitRecords(source, table, 300, logs.resolve("capture-1.log"));
    source.sql("INSERT INTO items SELECT g, 'n' || g, g FROM generate_series(301, 500) g");
    awaitRecords(source, table, 500, logs.resolve("capture-1.log"));
    Map<Integer, Long> end = endOffsets(env, table);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> nextToApply(p, app, table).equals(end) || !verify.isAlive());
    assertThat(nextToApply(p, app, table)).as("log:%n%s", tail(logs, "verify.log")).isEqualTo(end);
    assertThat(committed(env, app, table))
        .as("the verifier's offsets committed before the stop")
        .isNotEqualTo(end);
    await().atMost(Duration.ofSeconds(60)).until(() -> webhook.refused.get() >= 2);
    assertThat(webhook.received).hasSize(1);
    assertThat(webhook.received.get(0)).contains("\"code\":\"DIFFERENCES\"");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> committed(env, alertsGroup, alerts).equals(Map.of(0, 1L)));

    // When all three get SIGTERM, as when an operator stops the deployment
    Stopping captureStop = Stopping.signal(capture, Signal.TERM);
    Stopping verifyStop = Stopping.signal(verify, Signal.TERM);
    Stopping forwarderStop = Stopping.signal(forwarder, Signal.TERM);

    // Then each ends with the JVM's code for SIGTERM within the bound and leaves no process
    captureStop.assertClean("capture", SIGTERM_EXIT, logs.resolve("capture-1.log"));
    verifyStop.assertClean("verify", SIGTERM_EXIT, logs.resolve("verify.log"));
    forwarderStop.assertClean("alerts", SIGTERM_EXIT, logs.resolve("alerts-1.log"));
    // And the capture closed its replication connection
    String slot = "cdc_compare_" + source.prefix;
    await().atMost(Duration.ofSeconds(10)).until(() -> !slotActive(source, slot));
    // And the verifier's group committed exactly what it applied: a restart applies nothing twice
    assertThat(committed(env, app, table)).isEqualTo(nextToApply(p, app, table)).isEqualTo(end);
    // and the verifier left its group as it stopped, so the next one gets its partitions at once,
    // not after the group's session timeout (45 s)
    await("the stopped verifier's members leave group " + app)
        .atMost(Duration.ofSeconds(10))
        .until(() -> members(env, app) == 0);
    // And the forwarder ended by its own stop, not past the alert the webhook never took
    assertThat(Files.readString(logs.resolve("alerts-1.log")))
        .contains("stopped after sending 1 alerts");
    assertThat(committed(env, alertsGroup, alerts)).isEqualTo(Map.of(0, 1L));

    // When the capture and the forwarder start again, the webhook taking alerts again, and a row
    // is written
    webhook.take(Integer.MAX_VALUE);
    capture = start(logs.resolve("capture-2.log"), "capture", "-c", captureFile);
    forwarder =
        start(logs.resolve("alerts-2.log"), "alerts", "-c", targetsFile, "--webhook", webhook.url);
    source.sql("INSERT INTO items VALUES (501, 'after the restart', 501)");

    // Then the capture sends that row and nothing before it again: no second snapshot, no change
    // re-sent
    source.read(table, r -> r.stream().anyMatch(x -> "501".equals(CaptureFixture.key(x))));
    assertThat(source.readAll(table).stream().map(CaptureFixture::key).toList())
        .as("log:%n%s", tail(logs, "capture-2.log"))
        .hasSize(501)
        .doesNotHaveDuplicates()
        .contains("501");
    // And the forwarder sends the alert it had not sent, and only that one
    await().atMost(Duration.ofSeconds(60)).until(() -> webhook.received.size() >= 2);
    assertThat(webhook.received).hasSize(2);
    assertThat(webhook.received.get(1)).contains("\"code\":\"UNVERIFIABLE\"");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> committed(env, alertsGroup, alerts).equals(Map.of(0, 2L)));

    // And Ctrl-C (SIGINT) stops both the same way, with the JVM's code for SIGINT
    Stopping captureInt = Stopping.signal(capture, Signal.INT);
    Stopping forwarderInt = Stopping.signal(forwarder, Signal.INT);
    captureInt.assertClean("capture", SIGINT_EXIT, logs.resolve("capture-2.log"));
    forwarderInt.assertClean("alerts", SIGINT_EXIT, logs.resolve("alerts-2.log"));
  }

  /**
   * {@code cdc-compare ARGS} from the shaded jar in a JVM of its own, its output in {@code log}.
   */
  private Process start(Path log, String... args) throws IOException {
    Path jar = Path.of("target", "cdc-compare.jar").toAbsolutePath();
    assertThat(jar).exists();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    // a quicker start on a small machine: three of these start side by side
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(new File("/dev/null"))
            .start();
    started.add(process);
    return process;
  }

  private enum Signal {
    TERM,
    INT
  }

  /** Whether this JVM ignores SIGINT (bit 2 of {@code SigIgn} in {@code /proc/self/status}). */
  private static boolean sigintIgnored() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & 2L) != 0;
      }
    }
    return false;
  }

  /** A process that was sent a signal: the processes it had started, and when it was sent. */
  private record Stopping(Process process, Signal signal, List<ProcessHandle> children, long sent) {
    /**
     * Sends the signal. SIGTERM through {@link Process#destroy()}, which on Linux sends SIGTERM
     * ({@code destroyForcibly()} sends SIGKILL); SIGINT through {@code kill -INT}, as Ctrl-C.
     */
    static Stopping signal(Process process, Signal signal) throws Exception {
      List<ProcessHandle> children = process.descendants().toList();
      long sent = System.nanoTime();
      if (signal == Signal.TERM) {
        process.destroy();
      } else {
        new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
      }
      return new Stopping(process, signal, children, sent);
    }

    /** The process ends with this code within the bound, and no process it started lives on. */
    void assertClean(String command, int exitCode, Path log) throws InterruptedException {
      boolean ended = process.waitFor(60, TimeUnit.SECONDS);
      Duration took = Duration.ofNanos(System.nanoTime() - sent);
      assertThat(ended)
          .as(
              "%s ended after SIG%s; log:%n%s%nits threads:%n%s",
              command, signal, tail(log), ended ? "" : threads(process, log))
          .isTrue();
      LOG.info("command={} signal=SIG{} stop_ms={}", command, signal, took.toMillis());
      assertThat(process.exitValue()).as("exit code; log:%n%s", tail(log)).isEqualTo(exitCode);
      assertThat(took).as("%s stopped within %s", command, STOP_BOUND).isLessThan(STOP_BOUND);
      assertThat(children).noneMatch(ProcessHandle::isAlive);
    }
  }

  /**
   * The threads of a process that did not stop ({@code jcmd Thread.print}), also written next to
   * its log: a stop that hangs is a bug to explain, and its threads say where it waits.
   */
  private static String threads(Process process, Path log) {
    try {
      Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
      Path out = log.resolveSibling(log.getFileName() + ".threads.txt");
      Process dump =
          new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      dump.waitFor(30, TimeUnit.SECONDS);
      return Files.readString(out);
    } catch (IOException e) {
      return "no thread dump: " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "no thread dump: interrupted";
    }
  }

  /** A local webhook that takes the first {@link #take} requests and answers 503 to the others. */
  private static final class Webhook {
    final List<String> received = new CopyOnWriteArrayList<>();
    final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger taking = new AtomicInteger();
    private final HttpServer server;
    final String url;

    private Webhook(HttpServer server) {
      this.server = server;
      this.url = "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    static Webhook start() throws IOException {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      Webhook webhook = new Webhook(server);
      server.createContext(
          "/hook",
          exchange -> {
            String body =
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int status = 503;
            if (webhook.received.size() < webhook.taking.get()) {
              webhook.received.add(body);
              status = 200;
            } else {
              webhook.refused.incrementAndGet();
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
          });
      server.start();
      return webhook;
    }

    /** From now on, takes requests until it holds {@code total}. */
    void take(int total) {
      taking.set(total);
    }

    void stop() {
      server.stop(0);
    }
  }

  /** The last lines of a child's log, for an assertion's description. */
  private static String tail(Path logs, String name) {
    return tail(logs.resolve(name));
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void awaitRecords(CaptureFixture f, String topic, int records, Path log) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(() -> f.readAll(topic).size() >= records);
    assertThat(f.readAll(topic)).as("records; log:%n%s", tail(log)).hasSize(records);
  }

  private static boolean slotActive(CaptureFixture f, String slot) throws Exception {
    try (Connection c = f.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
      s.setString(1, slot);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    }
  }

  /** Per partition, the offset after the target's checkpoint: the next record to apply. */
  private static Map<Integer, Long> nextToApply(ComparePipeline p, String app, String topic)
      throws Exception {
    Map<Integer, Long> next = new TreeMap<>();
    try (Connection c = p.pgServer().connect(p.pgDb());
        PreparedStatement s =
            c.prepareStatement(
                "SELECT partition, \"offset\" FROM cdc_compare_checkpoints"
                    + " WHERE application = ? AND topic = ?")) {
      s.setString(1, app);
      s.setString(2, topic);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          next.put(rs.getInt(1), rs.getLong(2) + 1);
        }
      }
    }
    return next;
  }

  private static Map<Integer, Long> endOffsets(EmbeddedEnvironment env, String topic)
      throws Exception {
    try (Admin admin = admin(env)) {
      int partitions =
          admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (int i = 0; i < partitions; i++) {
        latest.put(new TopicPartition(topic, i), OffsetSpec.latest());
      }
      return admin.listOffsets(latest).all().get().entrySet().stream()
          .collect(
              Collectors.toMap(
                  e -> e.getKey().partition(),
                  e -> e.getValue().offset(),
                  (a, b) -> a,
                  TreeMap::new));
    }
  }

  /** The members a consumer group has now. */
  private static int members(EmbeddedEnvironment env, String group) throws Exception {
    try (Admin admin = admin(env)) {
      return admin
          .describeConsumerGroups(List.of(group))
          .describedGroups()
          .get(group)
          .get()
          .members()
          .size();
    }
  }

  /** The group's committed offsets of the topic's partitions (those it committed at all). */
  private static Map<Integer, Long> committed(EmbeddedEnvironment env, String group, String topic)
      throws Exception {
    try (Admin admin = admin(env)) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
      Map<Integer, Long> committed = new TreeMap<>();
      offsets.forEach(
          (tp, o) -> {
            if (tp.topic().equals(topic) && o != null) {
              committed.put(tp.partition(), o.offset());
            }
          });
      return committed;
    }
  }

  private static Admin admin(EmbeddedEnvironment env) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()));
  }

  private static Alert alert(AlertCode code, String message) {
    return Alert.newBuilder()
        .setCode(code)
        .setOrigin("b")
        .setTask("nightly")
        .setRunId("r1")
        .setTable(code == AlertCode.UNVERIFIABLE ? "public.orders" : "public.items")
        .setTarget("b")
        .setMessage(message)
        .setRaisedAt(Instant.parse("2026-12-01T10:00:00Z"))
        .build();
  }
}
