package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The wait of a verify-only CLOSE marker, on a group and a clock in memory. */
class FollowWaitTest {
  private static final String TOPIC = "p.public.items";
  private static final Duration STALL = Duration.ofSeconds(5);
  private static final Duration LIMIT = Duration.ofSeconds(12);

  @Test
  void aGroupAlreadyPastTheMarkerPassesAtOnce() {
    FakeTicker ticker = new FakeTicker();
    FakeFollowedGroup group = new FakeFollowedGroup("g").answer(Map.of(0, 8L));
    FollowWait wait = new FollowWait(group, new FollowedOffsets(), STALL, LIMIT, ticker);

    FollowWait.Outcome outcome = wait.awaitPast(TOPIC, 0, 7, Duration.ZERO);

    assertThat(outcome).isEqualTo(new FollowWait.Outcome.Passed(8));
    assertThat(ticker.pauses).isZero();
  }

  @Test
  void aCommittedOffsetEqualToTheMarkersIsNotPast() {
    // the committed offset is the next to read: 7 means the marker at 7 is not consumed yet
    FakeTicker ticker = new FakeTicker();
    FakeFollowedGroup group = new FakeFollowedGroup("g").answer(Map.of(0, 7L));
    FollowWait wait = new FollowWait(group, new FollowedOffsets(), STALL, LIMIT, ticker);

    FollowWait.Outcome outcome = wait.awaitPast(TOPIC, 0, 7, Duration.ZERO);

    assertThat(outcome).isInstanceOf(FollowWait.Outcome.Stalled.class);
    assertThat(ticker.pauses).isEqualTo(50);
  }

  @Test
  void aGroupThatKeepsMovingWithoutPassingGivesUpAtTheLimit() {
    // Given a group that moves one offset per read, never within the stall timeout's reach
    FakeTicker ticker = new FakeTicker();
    FollowedGroup moving =
        new FollowedGroup() {
          long at;

          @Override
          public String groupId() {
            return "slow";
          }

          @Override
          public Map<Integer, Long> committedOffsets(String topic) {
            return Map.of(0, at++);
          }

          @Override
          public void close() {}
        };
    FollowWait wait = new FollowWait(moving, new FollowedOffsets(), STALL, LIMIT, ticker);

    // When
    FollowWait.Outcome outcome = wait.awaitPast(TOPIC, 0, 1_000_000, Duration.ZERO);

    // Then it did not stall on the timeout (the offset moved) but gave up at the limit
    assertThat(ticker.pauses).isEqualTo(120);
    assertThat(((FollowWait.Outcome.Stalled) outcome).reason())
        .contains("its committed offset stands at 120", "gave up after 12000 ms");
  }

  @Test
  void thePartitionsOfAStoppedApplierStallWithinOneTimeoutNotOneEach() {
    // Given a stopped applier, at offset 3 of partition 0 and 4 of partition 1
    FakeTicker ticker = new FakeTicker();
    FakeFollowedGroup group = new FakeFollowedGroup("g").answer(Map.of(0, 3L, 1, 4L));
    FollowedOffsets seen = new FollowedOffsets();
    FollowWait task0 = new FollowWait(group, seen, STALL, LIMIT, ticker);
    FollowWait task1 = new FollowWait(group, seen, STALL, LIMIT, ticker);

    // When the CLOSE marker of partition 0 stalls, then the one of partition 1, appended with it,
    // waits
    FollowWait.Outcome first = task0.awaitPast(TOPIC, 0, 5, Duration.ZERO);
    int pausesOfFirst = ticker.pauses;
    FollowWait.Outcome second = task1.awaitPast(TOPIC, 1, 5, STALL);

    // Then the second knew partition 1 stood still all along: no second timeout
    assertThat(first).isInstanceOf(FollowWait.Outcome.Stalled.class);
    assertThat(pausesOfFirst).isEqualTo(50);
    assertThat(second).isInstanceOf(FollowWait.Outcome.Stalled.class);
    assertThat(ticker.pauses).isEqualTo(50);
  }

  @Test
  void anOffsetThatStoodStillWhileTheTopicWasIdleDoesNotStallAtOnce() {
    // Given a group seen at offset 10 by an earlier wait, then a minute without records
    FakeTicker ticker = new FakeTicker();
    FakeFollowedGroup group = new FakeFollowedGroup("g").answer(Map.of(0, 10L));
    FollowWait wait = new FollowWait(group, new FollowedOffsets(), STALL, LIMIT, ticker);
    assertThat(wait.awaitPast(TOPIC, 0, 9, Duration.ZERO))
        .isEqualTo(new FollowWait.Outcome.Passed(10));
    ticker.nanos += Duration.ofMinutes(1).toNanos();

    // When a marker appended just now at offset 12 waits, the group still at 10
    FollowWait.Outcome outcome = wait.awaitPast(TOPIC, 0, 12, Duration.ZERO);

    // Then the group had the whole stall timeout from the marker on
    assertThat(outcome).isInstanceOf(FollowWait.Outcome.Stalled.class);
    assertThat(ticker.pauses).isEqualTo(50);
  }

  @Test
  void aReadThatFailsIsNoAnswer() {
    FakeTicker ticker = new FakeTicker();
    FollowedGroup unreachable =
        new FollowedGroup() {
          @Override
          public String groupId() {
            return "g";
          }

          @Override
          public Map<Integer, Long> committedOffsets(String topic) {
            throw new IllegalStateException("no answer within 10000 ms");
          }

          @Override
          public void close() {}
        };
    FollowWait wait = new FollowWait(unreachable, new FollowedOffsets(), STALL, LIMIT, ticker);

    FollowWait.Outcome outcome = wait.awaitPast(TOPIC, 0, 7, Duration.ZERO);

    assertThat(((FollowWait.Outcome.Stalled) outcome).reason())
        .isEqualTo(
            "the committed offsets of consumer group g could not be read: no answer within 10000"
                + " ms");
  }

  @Test
  void anInterruptStopsTheWait() {
    Ticker interrupted =
        new Ticker() {
          @Override
          public long nanos() {
            return 0;
          }

          @Override
          public void pause(Duration pause) throws InterruptedException {
            throw new InterruptedException();
          }
        };
    FakeFollowedGroup group = new FakeFollowedGroup("g").answer(Map.of(0, 1L));
    FollowWait wait = new FollowWait(group, new FollowedOffsets(), STALL, LIMIT, interrupted);

    try {
      assertThatThrownBy(() -> wait.awaitPast(TOPIC, 0, 7, Duration.ZERO))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("interrupted while waiting for consumer group g");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
