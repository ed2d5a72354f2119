package io.cdccompare.report.read;

import static io.cdccompare.report.read.ReportFixtures.LINES;
import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.ORDERS;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.RUN;
import static io.cdccompare.report.read.ReportFixtures.TASK;
import static io.cdccompare.report.read.ReportFixtures.counts;
import static io.cdccompare.report.read.ReportFixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class RunWaitTest {
  private static final Duration POLL = Duration.ofMillis(10);
  private static final List<RunWait.NotedTable> RUN_TABLES =
      List.of(new RunWait.NotedTable(ORDERS, RUN, 3), new RunWait.NotedTable(LINES, RUN, 2));

  private static ReportEntry verified(String target, String table, long chunks) {
    return entry(target, table, ReportStatus.IN_SYNC, chunks, chunks, counts(10, 0, 0, 0, 0));
  }

  @Test
  void aTableIsBehindUntilItsEntryOfTheRunReachesTheNotedChunks() {
    // Given a wait for two targets on two tables of the run
    RunWait wait = new RunWait(List::of, TASK, List.of(PG, MARIA), RUN_TABLES, POLL);

    // When pg verified both tables, maria 2 of 3 orders chunks and lines under an older run
    List<RunWait.Lag> behind =
        wait.behind(
            List.of(
                verified(PG, ORDERS, 3),
                verified(PG, LINES, 2),
                entry(MARIA, ORDERS, ReportStatus.IN_PROGRESS, 3, 2, counts(0, 0, 0, 0, 0)),
                entry(TASK, MARIA, LINES)
                    .setRunId("20260101T000000Z-000000")
                    .setApplyChunks(2)
                    .build(),
                entry("other-task", MARIA, ORDERS).setApplyChunks(3).build()));

    // Then maria is behind on both, each described
    assertThat(behind)
        .extracting(RunWait.Lag::toString)
        .containsExactly(
            "maria-replica/public.orders 2 of 3 chunks",
            "maria-replica/public.order_lines reports run 20260101T000000Z-000000, not " + RUN);
  }

  @Test
  void aTableOfTheRunWithoutChunksNeedsNoEntry() {
    // Given a run whose second table was empty
    RunWait wait =
        new RunWait(
            List::of,
            TASK,
            List.of(PG),
            List.of(new RunWait.NotedTable(ORDERS, RUN, 1), new RunWait.NotedTable(LINES, RUN, 0)),
            POLL);

    // When only orders has an entry / Then nothing is behind
    assertThat(wait.behind(List.of(verified(PG, ORDERS, 1)))).isEmpty();
    assertThat(wait.behind(List.of()))
        .extracting(RunWait.Lag::toString)
        .containsExactly("pg-replica/public.orders no entry of run " + RUN);
  }

  @Test
  void theWaitEndsOnceTheReportCaughtUpAndSaysSoOncePerChange() throws Exception {
    // Given a report that shows the run verified from the third read on
    AtomicInteger reads = new AtomicInteger();
    List<ReportEntry> done = List.of(verified(PG, ORDERS, 3), verified(PG, LINES, 2));
    List<ReportEntry> half = List.of(verified(PG, ORDERS, 3));
    RunWait wait =
        new RunWait(
            () -> reads.incrementAndGet() < 3 ? half : done, TASK, List.of(PG), RUN_TABLES, POLL);
    List<String> progress = new CopyOnWriteArrayList<>();

    // When it waits
    RunWait.Result result = wait.await(Duration.ofSeconds(30), progress::add);

    // Then it ended verified with the last entries, after one progress line for the two equal reads
    assertThat(result.ending()).isEqualTo(RunWait.Ending.VERIFIED);
    assertThat(result.entries()).isEqualTo(done);
    assertThat(reads).hasValue(3);
    assertThat(progress)
        .containsExactly(
            "waiting for the report: 3 of 5 chunk verdicts on pg-replica; behind:"
                + " pg-replica/public.order_lines no entry of run "
                + RUN);
  }

  @Test
  void aTimeoutEndsTheWaitWithWhatIsBehind() throws Exception {
    // Given a report that never catches up
    RunWait wait =
        new RunWait(() -> List.of(verified(PG, ORDERS, 3)), TASK, List.of(PG), RUN_TABLES, POLL);

    // When it waits a short time
    RunWait.Result result = wait.await(Duration.ofMillis(100), line -> {});

    // Then it timed out naming the table behind
    assertThat(result.ending()).isEqualTo(RunWait.Ending.TIMED_OUT);
    assertThat(RunWait.describe(result.behind()))
        .isEqualTo("pg-replica/public.order_lines no entry of run " + RUN);
  }

  @Test
  void aMissingReportTopicIsWaitedFor() throws Exception {
    // Given a report topic that appears at the second read
    AtomicInteger reads = new AtomicInteger();
    RunWait wait =
        new RunWait(
            () -> {
              if (reads.incrementAndGet() == 1) {
                throw missingTopic();
              }
              return List.of(verified(PG, ORDERS, 3), verified(PG, LINES, 2));
            },
            TASK,
            List.of(PG),
            RUN_TABLES,
            POLL);
    List<String> progress = new CopyOnWriteArrayList<>();

    // When it waits
    RunWait.Result result = wait.await(Duration.ofSeconds(30), progress::add);

    // Then it said so and went on
    assertThat(result.ending()).isEqualTo(RunWait.Ending.VERIFIED);
    assertThat(progress)
        .containsExactly("waiting for the report: topic shop.compare.report does not exist yet");
  }

  @Test
  void aTargetThatNeedsAResyncEndsTheWait() throws Exception {
    // Given a target that reports RESYNC_NEEDED on a table of the run
    RunWait wait =
        new RunWait(
            () ->
                List.of(entry(PG, ORDERS, ReportStatus.RESYNC_NEEDED, 3, 1, counts(0, 0, 0, 0, 0))),
            TASK,
            List.of(PG),
            RUN_TABLES,
            POLL);

    // When it waits / Then it ends at once, not at the timeout
    RunWait.Result result = wait.await(Duration.ofHours(1), line -> {});
    assertThat(result.ending()).isEqualTo(RunWait.Ending.RESYNC_NEEDED);
  }

  @Test
  void aTableThatComparedNothingEndsTheWaitAsVerified() throws Exception {
    // Given pg verified every chunk of both tables, every row of orders in flight
    List<ReportEntry> report =
        List.of(
            entry(TASK, PG, ORDERS)
                .setStatus(ReportStatus.NOTHING_COMPARED)
                .setCaptureChunks(3)
                .setApplyChunks(3)
                .setCounts(counts(0, 0, 0, 0, 30))
                .setSourceRows(30)
                .build(),
            verified(PG, LINES, 2));
    RunWait wait = new RunWait(() -> report, TASK, List.of(PG), RUN_TABLES, POLL);

    // When it waits / Then it ends at once, not at the timeout
    RunWait.Result result = wait.await(Duration.ofHours(1), line -> {});
    assertThat(result.ending()).isEqualTo(RunWait.Ending.VERIFIED);
    assertThat(result.behind()).isEmpty();
  }

  @Test
  void stopEndsARunningWait() {
    // Given a wait on a report that never catches up
    AtomicInteger reads = new AtomicInteger();
    RunWait wait =
        new RunWait(
            () -> {
              reads.incrementAndGet();
              return List.of();
            },
            TASK,
            List.of(PG),
            RUN_TABLES,
            POLL);
    AtomicReference<RunWait.Result> result = new AtomicReference<>();
    CompletableFuture<Void> waiting =
        CompletableFuture.runAsync(
            () -> {
              try {
                result.set(wait.await(Duration.ofHours(1), line -> {}));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() >= 2);

    // When it is stopped
    wait.stop();

    // Then it ends STOPPED
    await().atMost(Duration.ofSeconds(10)).until(waiting::isDone);
    assertThat(result.get().ending()).isEqualTo(RunWait.Ending.STOPPED);
  }

  private static RuntimeException missingTopic() {
    return new ReportReader.MissingTopicException("shop.compare.report");
  }
}
