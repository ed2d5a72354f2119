package io.cdccompare.verifier.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The changes of one partition of a stock Debezium table topic that a chunk still waiting for its
 * verdict may need (docs/design.md, "Stock Debezium pipelines"): per record in offset order, its
 * key (as the source's key encoding) and its position, the commit LSN of the transaction streamed
 * before its own. A record whose transaction was the first after a connector start carries no such
 * LSN; it takes the one of the next record of the partition that carries one, an upper bound of its
 * own commit, and until then it counts as after every note. A snapshot record (before streaming)
 * counts as before every note.
 *
 * <p>Records are dropped from the front only, once a record is before every note still to come
 * ({@link #dropBefore}): a partition after a worker crash holds an older run again after a newer
 * one, and {@link #inFlightAfter} counts every record from the first one after the OPEN on, so a
 * redelivered older value after a newer one keeps its key in flight. A record whose last commit is
 * below one already added is such a redelivery (a connector streams transactions in commit order,
 * and sends older ones again only after a restart), and so is every record after it until a newer
 * transaction comes: a sink applies it again, so it counts from there on as after every note, even
 * when no record after the OPEN came before it. Not thread-safe.
 */
final class PartitionLog {
  /** Before every note: a record of the initial snapshot. */
  static final long SNAPSHOT = Long.MIN_VALUE;

  private static final long UNKNOWN = Long.MAX_VALUE;

  private static final class Entry {
    final long offset;
    final String key;
    long lastCommit; // UNKNOWN until resolved
    boolean redelivered; // sent again after a connector restart

    Entry(long offset, String key, long lastCommit) {
      this.offset = offset;
      this.key = key;
      this.lastCommit = lastCommit;
    }
  }

  private final ArrayDeque<Entry> entries = new ArrayDeque<>();
  private final List<Entry> unresolved = new ArrayList<>();
  private long next;
  private long highest = Long.MIN_VALUE; // the newest last commit added, dropped records too
  private boolean replaying; // since a record older than the newest one, none newer came

  PartitionLog(long from) {
    this.next = from;
  }

  /** The offset of the next record to add: every record below it was added. */
  long next() {
    return next;
  }

  /**
   * Adds the record at {@code offset} (at or after {@link #next()}).
   *
   * @param key the record's key as the source's key encoding
   * @param lastCommit the commit LSN streamed before its transaction; empty when its transaction
   *     was the first after a connector start; {@link #SNAPSHOT} for a snapshot record
   */
  void add(long offset, String key, OptionalLong lastCommit) {
    if (offset < next) {
      throw new IllegalArgumentException("offset " + offset + " was added already");
    }
    next = offset + 1;
    if (lastCommit.isPresent()) {
      if (lastCommit.getAsLong() == SNAPSHOT) {
        entries.add(new Entry(offset, key, SNAPSHOT)); // bounds no streamed transaction
        return;
      }
      long commit = lastCommit.getAsLong();
      if (commit < highest) {
        replaying = true;
      } else if (commit > highest) {
        replaying = false;
        highest = commit;
      }
      Entry added = new Entry(offset, key, commit);
      unresolved.add(added);
      for (Entry e : unresolved) {
        e.lastCommit = commit;
        e.redelivered = replaying;
      }
      unresolved.clear();
      entries.add(added);
    } else {
      Entry e = new Entry(offset, key, UNKNOWN);
      unresolved.add(e);
      entries.add(e);
    }
  }

  /** Moves past offsets that hold no record (transaction markers, compacted records). */
  void skipTo(long offset) {
    next = Math.max(next, offset);
  }

  /**
   * Drops the records at the front that lie before {@code floor} (a commit LSN, the last one
   * streamed before the earliest note still to be judged or to come): their transactions committed
   * at or before it.
   */
  void dropBefore(long floor) {
    while (!entries.isEmpty() && entries.peekFirst().lastCommit < floor) {
      entries.pollFirst();
    }
  }

  /**
   * The keys of every record below {@code until} from the first one whose transaction may have
   * committed after the note whose last commit LSN is {@code open} (empty: unknown, every streamed
   * record counts), or that was redelivered, on. The snapshot's records before the first such one
   * never count: the initial snapshot is streamed before any note.
   */
  Set<String> inFlightAfter(OptionalLong open, long until) {
    Set<String> keys = new LinkedHashSet<>();
    boolean after = false;
    for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (e.offset >= until) {
        break;
      }
      after =
          after
              || e.lastCommit != SNAPSHOT
                  && (open.isEmpty() || e.redelivered || e.lastCommit >= open.getAsLong());
      if (after) {
        keys.add(e.key);
      }
    }
    return keys;
  }

  /**
   * The records of {@code key} that are kept, as {@code offset@lastCommit} in offset order (a
   * verdict's evidence in the log: where its key's changes lie against the notes).
   */
  List<String> positionsOf(String key) {
    List<String> positions = new ArrayList<>();
    for (Entry e : entries) {
      if (e.key.equals(key)) {
        positions.add(
            e.offset
                + "@"
                + (e.lastCommit == SNAPSHOT
                    ? "snapshot"
                    : e.lastCommit == UNKNOWN ? "unknown" : Long.toString(e.lastCommit)));
      }
    }
    return positions;
  }

  /** How many records are kept. */
  int size() {
    return entries.size();
  }
}
