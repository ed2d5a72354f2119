package io.cdccompare.operations.status;

import io.cdccompare.config.ConnectionSettings.SourceDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Reads the capture's logical replication slot from the source's {@code pg_replication_slots}, and
 * how far the source's WAL has moved past the position the capture confirmed. On a standby the
 * current position is the last replayed one.
 */
final class SlotReader {
  static final String QUERY =
      "SELECT s.slot_name IS NOT NULL, s.active, s.wal_status, s.confirmed_flush_lsn::text,"
          + " w.lsn::text, pg_wal_lsn_diff(w.lsn, s.confirmed_flush_lsn)::bigint"
          + " FROM (SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
          + " ELSE pg_current_wal_lsn() END AS lsn) w"
          + " LEFT JOIN pg_replication_slots s ON s.slot_name = ?";

  private final SourceDatabase source;
  private final String slot;
  private final Duration timeout;

  SlotReader(SourceDatabase source, String slot, Duration timeout) {
    this.source = source;
    this.slot = slot;
    this.timeout = timeout;
  }

  /** The slot as {@link CaptureStatus.State#OK} or {@link CaptureStatus.State#MISSING}. */
  CaptureStatus read() throws SQLException {
    try (Connection connection =
            source.connect(
                "cdc-compare-status", JdbcTimeouts.properties(source.jdbcUrl(), timeout));
        PreparedStatement statement = connection.prepareStatement(QUERY)) {
      statement.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
      statement.setString(1, slot);
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        if (!row.getBoolean(1)) {
          return CaptureStatus.missing(slot, source.jdbcUrl(), row.getString(5));
        }
        long diff = row.getLong(6);
        Long behind = row.wasNull() ? null : diff;
        return new CaptureStatus(
            slot,
            source.jdbcUrl(),
            CaptureStatus.State.OK,
            row.getBoolean(2),
            row.getString(3),
            row.getString(4),
            row.getString(5),
            behind,
            null);
      }
    }
  }
}
