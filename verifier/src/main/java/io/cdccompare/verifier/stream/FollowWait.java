package io.cdccompare.verifier.stream;

import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wait of a verify-only target's CLOSE marker at offset {@code o} of a partition
 * (docs/design.md, "Verify-only targets"): the followed group's committed offset of that partition
 * is read every {@link #POLL} until it is above {@code o} (the applier consumed the marker, so
 * every change before it is in the target) and not below an offset the group had already reached.
 * It gives up, STALLED, when that offset stood still for the stall timeout since the marker was
 * appended (records were waiting for the group from then on), or when the wait reached its limit (a
 * share of {@code max.poll.interval.ms}: the stream thread is blocked meanwhile). A group without a
 * committed offset, or one that went back, is never taken as having passed: the stall message says
 * which it was. Runs on the processor's thread; a read that fails counts as a read without an
 * answer. Closing it closes the followed group's client.
 *
 * @param group the group the target follows
 * @param offsets how long each partition's offset has stood still, shared by every wait of the
 *     application
 * @param stallTimeout how long an offset may stand still
 * @param limit the longest one wait lasts, however the group moves
 * @param ticker the monotonic clock and pause of the waits
 */
record FollowWait(
    FollowedGroup group,
    FollowedOffsets offsets,
    Duration stallTimeout,
    Duration limit,
    Ticker ticker)
    implements AutoCloseable {
  /** Time between two reads of the followed group's offsets. */
  static final Duration POLL = Duration.ofMillis(100);

  private static final Logger LOG = LoggerFactory.getLogger(FollowWait.class);

  /** How a wait ended. */
  sealed interface Outcome {
    /** The group committed {@code committed} &gt; the marker's offset. */
    record Passed(long committed) implements Outcome {}

    /** The group did not pass the marker; {@code reason} says what was seen, for a human. */
    record Stalled(String reason) implements Outcome {}
  }

  /**
   * Waits until the followed group's committed offset of {@code topic}/{@code partition} is above
   * {@code markerOffset}.
   *
   * @param markerAge how long ago the marker was appended (its record's timestamp): records have
   *     waited for the group at least that long, so an offset that stood still since before then
   *     (seen by an earlier wait) counts from then on, and one that stood still while the topic was
   *     idle does not count
   * @throws IllegalStateException when the thread is interrupted (the application is stopping)
   */
  Outcome awaitPast(String topic, int partition, long markerOffset, Duration markerAge) {
    long start = ticker.nanos();
    long waitingSince = start - Math.max(0, markerAge.toNanos());
    boolean logged = false;
    while (true) {
      long now = ticker.nanos();
      String why;
      long still;
      try {
        Map<Integer, Long> committed = group.committedOffsets(topic);
        FollowedOffsets.Seen seen = offsets.observe(topic, committed, partition, now);
        if (seen.offset() != null && seen.offset() > markerOffset && !seen.wentBack()) {
          if (logged) {
            LOG.info(
                "group={} topic={} partition={} passed the CLOSE marker at offset {}: {} after {}"
                    + " ms",
                group.groupId(),
                topic,
                partition,
                markerOffset,
                seen.offset(),
                (now - start) / 1_000_000);
          }
          return new Outcome.Passed(seen.offset());
        }
        why = reason(topic, partition, markerOffset, seen, now);
        still = now - Math.max(seen.sinceNanos(), waitingSince);
      } catch (RuntimeException e) {
        why =
            "the committed offsets of consumer group "
                + group.groupId()
                + " could not be read: "
                + e.getMessage();
        still = now - start;
      }
      if (still >= stallTimeout.toNanos()) {
        return new Outcome.Stalled(why);
      }
      if (now - start >= limit.toNanos()) {
        return new Outcome.Stalled(
            why
                + "; gave up after "
                + limit.toMillis()
                + " ms, the longest a verifier holds its stream thread (45 % of"
                + " max.poll.interval.ms)");
      }
      if (!logged) {
        LOG.info(
            "group={} topic={} partition={} waiting for the followed group to pass the CLOSE"
                + " marker at offset {}: {}",
            group.groupId(),
            topic,
            partition,
            markerOffset,
            why);
        logged = true;
      }
      try {
        ticker.pause(POLL);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(
            "interrupted while waiting for consumer group "
                + group.groupId()
                + " to pass offset "
                + markerOffset
                + " of topic "
                + topic
                + " partition "
                + partition,
            e);
      }
    }
  }

  /** Closes the group's client. */
  @Override
  public void close() {
    group.close();
  }

  private String reason(
      String topic, int partition, long markerOffset, FollowedOffsets.Seen seen, long now) {
    String where = " topic " + topic + " partition " + partition;
    if (seen.offset() == null) {
      return "consumer group " + group.groupId() + " has no committed offset for" + where;
    }
    if (seen.wentBack()) {
      return "consumer group "
          + group.groupId()
          + " went back from offset "
          + seen.highest()
          + " to "
          + seen.offset()
          + " on"
          + where;
    }
    return "consumer group "
        + group.groupId()
        + " has not passed the CLOSE marker at offset "
        + markerOffset
        + " of"
        + where
        + ": its committed offset stands at "
        + seen.offset()
        + " since "
        + (now - seen.sinceNanos()) / 1_000_000
        + " ms (an offset above "
        + markerOffset
        + " was waited for)";
  }
}
