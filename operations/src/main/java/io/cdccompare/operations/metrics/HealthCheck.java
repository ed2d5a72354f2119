package io.cdccompare.operations.metrics;

import java.util.Optional;

/**
 * Whether a running program is healthy, as {@code /health} reports it: empty while it is, else one
 * line saying why not (a verifier's partition stopped on a poison record, a capture that stopped
 * itself with {@code RESYNC_NEEDED}). Called on the metrics server's thread: must be thread-safe
 * and cheap.
 */
@FunctionalInterface
public interface HealthCheck {
  Optional<String> problem();

  /** Always healthy: a program that has nothing of its own to fail (a compare run). */
  static HealthCheck alwaysHealthy() {
    return Optional::empty;
  }
}
