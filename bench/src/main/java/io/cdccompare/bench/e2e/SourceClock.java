package io.cdccompare.bench.e2e;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * How far the source's clock is ahead of this machine's: a note's {@code notedAt} is the source's
 * {@code now()}, the results' arrival this machine's clock. Estimated from the fastest of five
 * {@code SELECT clock_timestamp()} round trips, the server's reading taken as the round trip's
 * midpoint (error: half that round trip). On the embedded environment it is the same clock.
 */
final class SourceClock {
  private SourceClock() {}

  static Duration ahead(Servers.Source source) throws SQLException {
    try (Connection c = source.connect();
        Statement s = c.createStatement()) {
      Duration best = Duration.ZERO;
      long bestRoundTrip = Long.MAX_VALUE;
      for (int i = 0; i < 5; i++) {
        Instant before = Instant.now();
        Instant server;
        try (ResultSet rs = s.executeQuery("SELECT clock_timestamp()")) {
          rs.next();
          server = rs.getObject(1, OffsetDateTime.class).toInstant();
        }
        long roundTrip = Duration.between(before, Instant.now()).toNanos();
        if (roundTrip < bestRoundTrip) {
          bestRoundTrip = roundTrip;
          best = Duration.between(before.plusNanos(roundTrip / 2), server);
        }
      }
      return best;
    }
  }
}
