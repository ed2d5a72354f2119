package io.cdccompare.demo;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The three rows the demo makes differ on a target, behind the replication's back, and their keys
 * in the canonical encoding the report shows: a customer whose email changes (failed), an order
 * deleted (missed), and a customer the source does not have (extra: an id above every source id,
 * which only a compare whose last chunk is open above finds). The changed and deleted rows lie in
 * the lower half of the customer ids and the added one above them all, where the {@link LiveLoad}
 * never writes, so replication does not overwrite them.
 */
record Injection(String failed, String missed, String extra) {
  private static final long FAILED_CUSTOMER = 42;
  private static final long MISSED_CUSTOMER = 14;
  private static final int MISSED_ORDER = 2;
  private static final long EXTRA_CUSTOMER = 1_000_000_001;

  /** Makes the three differences in the {@code shop} tables of {@code target}. */
  static Injection into(Connection target) throws SQLException {
    try (Statement s = target.createStatement()) {
      s.executeUpdate(
          "UPDATE shop.customers SET email = 'tampered@example.com' WHERE id = " + FAILED_CUSTOMER);
      s.executeUpdate(
          "DELETE FROM shop.orders WHERE customer_id = "
              + MISSED_CUSTOMER
              + " AND order_no = "
              + MISSED_ORDER);
      s.executeUpdate(
          "INSERT INTO shop.customers (id, name, email, country, balance, vip, created_at)"
              + " VALUES ("
              + EXTRA_CUSTOMER
              + ", 'Not in the source', 'ghost@example.com', 'DE', 0, 0, NULL)");
    }
    KeyCodec customers = new KeyCodec(List.of(LogicalType.BIGINT));
    return new Injection(
        customers.encode(List.of(FAILED_CUSTOMER)),
        new KeyCodec(List.of(LogicalType.BIGINT, LogicalType.INTEGER))
            .encode(List.of(MISSED_CUSTOMER, MISSED_ORDER)),
        customers.encode(List.of(EXTRA_CUSTOMER)));
  }
}
