package io.cdccompare.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A write load on the source while the demo compares: small transactions that change a customer's
 * balance, add an order and delete an older added one, at about {@code transactionsPerSecond}. Only
 * customers of the upper half of the ids are touched, so the differences the demo injects into a
 * target are never overwritten by replication. Runs on its own thread until {@link #close()}.
 */
public final class LiveLoad implements AutoCloseable {
  private final Supplier<Connection> connections;
  private final int customers;
  private final long pauseNanos;
  private final AtomicLong transactions = new AtomicLong();
  private final AtomicReference<SQLException> failure = new AtomicReference<>();
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param connections opens a source connection (called once, on the load's thread)
   * @param customers customers in the source (ids {@code 2..2n})
   */
  public LiveLoad(Supplier<Connection> connections, int customers, int transactionsPerSecond) {
    this.connections = connections;
    this.customers = customers;
    this.pauseNanos = 1_000_000_000L / transactionsPerSecond;
    this.thread = new Thread(this::run, "cdc-compare-demo-load");
    this.thread.setDaemon(true);
  }

  /** Starts writing. */
  public LiveLoad start() {
    thread.start();
    return this;
  }

  /** Transactions committed so far. */
  public long transactions() {
    return transactions.get();
  }

  /** What stopped the load, if it stopped by itself. */
  public SQLException failure() {
    return failure.get();
  }

  private void run() {
    try (Connection c = connections.get();
        PreparedStatement balance =
            c.prepareStatement(
                "UPDATE shop.customers SET balance = balance + 1.25, vip = NOT vip WHERE id = ?");
        PreparedStatement order =
            c.prepareStatement(
                "INSERT INTO shop.orders (customer_id, order_no, ordered_at, amount, status, note)"
                    + " VALUES (?, ?, localtimestamp, ?, 'new', 'live order')");
        PreparedStatement cancel =
            c.prepareStatement("DELETE FROM shop.orders WHERE customer_id = ? AND order_no = ?")) {
      c.setAutoCommit(false);
      ThreadLocalRandom random = ThreadLocalRandom.current();
      long next = System.nanoTime();
      while (running) {
        long n = transactions.get();
        long customer = 2L * (customers / 2 + 1 + random.nextInt(Math.max(1, customers / 2)));
        balance.setLong(1, customer);
        balance.executeUpdate();
        order.setLong(1, liveCustomer(n));
        order.setInt(2, 1_000 + (int) n);
        order.setBigDecimal(3, java.math.BigDecimal.valueOf(random.nextInt(100_000), 2));
        order.executeUpdate();
        if (n >= 10 && n % 3 == 0) {
          cancel.setLong(1, liveCustomer(n - 10));
          cancel.setInt(2, 1_000 + (int) (n - 10));
          cancel.executeUpdate();
        }
        c.commit();
        transactions.incrementAndGet();
        next += pauseNanos;
        long wait = next - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
      }
    } catch (SQLException e) {
      if (running) {
        failure.set(e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The customer of the {@code n}-th live order: one of the upper half, the same for the same n.
   */
  private long liveCustomer(long n) {
    return 2L * (customers - (n % Math.max(1, customers / 2)));
  }

  /** Stops writing and waits for the running transaction. */
  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(5_000);
  }
}
