package io.cdccompare.operations.status;

/**
 * The capture's replication slot on the source, as {@code pg_replication_slots} shows it.
 *
 * @param slot the slot's name
 * @param database the source's JDBC URL (no credentials)
 * @param state whether the slot was found
 * @param active whether a capture is connected to it; {@code null} unless {@link State#OK}
 * @param walStatus {@code reserved}, {@code extended}, {@code unreserved} or {@code lost}
 * @param confirmedFlushLsn the position the capture confirmed, e.g. {@code 0/1A2B3C8}; {@code null}
 *     when it confirmed none
 * @param currentLsn the source's current WAL position
 * @param behindBytes WAL written since {@code confirmedFlushLsn} (the slot keeps it on the source's
 *     disk); {@code null} when unknown
 * @param unreachable one-line reason the slot could not be read, or {@code null}
 */
public record CaptureStatus(
    String slot,
    String database,
    State state,
    Boolean active,
    String walStatus,
    String confirmedFlushLsn,
    String currentLsn,
    Long behindBytes,
    String unreachable) {

  /** Whether the slot was read. */
  public enum State {
    OK,
    MISSING,
    UNREACHABLE
  }

  static CaptureStatus missing(String slot, String database, String currentLsn) {
    return new CaptureStatus(
        slot, database, State.MISSING, null, null, null, currentLsn, null, null);
  }

  static CaptureStatus unreachable(String slot, String database, String reason) {
    return new CaptureStatus(
        slot, database, State.UNREACHABLE, null, null, null, null, null, reason);
  }
}
