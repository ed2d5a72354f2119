package io.cdccompare.app;

import io.cdccompare.capture.CaptureFixture;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A live load on the source's {@code items} for the fault tests: every 5 ms, {@code n} of a random
 * row among the first {@code rows} is updated, one transaction at a time, on one session, from the
 * load's start until it is stopped; one row ({@code spared}, the one left changed on a target) is
 * never touched. A statement that fails (it met a DDL's lock, the source restarted) is dropped and
 * the next one runs on a new session.
 */
final class LiveLoad implements AutoCloseable {
  private final CaptureFixture source;
  private final int rows;
  private final String spared;
  private final AtomicLong done = new AtomicLong();
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "live-load");
            t.setDaemon(true);
            return t;
          });
  // used by the load's thread only
  private Connection session;
  private PreparedStatement update;

  LiveLoad(CaptureFixture source, int rows, String spared) {
    this.source = source;
    this.rows = rows;
    this.spared = spared;
    thread.scheduleWithFixedDelay(this::updateOne, 0, 5, TimeUnit.MILLISECONDS);
  }

  private void updateOne() {
    int id = ThreadLocalRandom.current().nextInt(1, rows + 1);
    if (String.valueOf(id).equals(spared)) {
      return;
    }
    try {
      if (update == null) {
        session = source.connect();
        update = session.prepareStatement("UPDATE items SET n = n + 1 WHERE id = ?");
      }
      update.setInt(1, id);
      if (update.executeUpdate() == 1) {
        done.incrementAndGet();
      }
    } catch (SQLException e) {
      closeSession();
    }
  }

  private void closeSession() {
    try {
      if (session != null) {
        session.close();
      }
    } catch (SQLException e) {
      // a broken session: nothing more to close
    }
    session = null;
    update = null;
  }

  /** Transactions committed so far. */
  long done() {
    return done.get();
  }

  /** Stops the load and waits for its last statement. */
  void stop() throws InterruptedException {
    thread.shutdown();
    if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the live load did not stop within 30 s");
    }
    closeSession();
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
