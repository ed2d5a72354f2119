package io.cdccompare.capture;

import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.core.stream.SourcePosition;
import java.util.Optional;

/**
 * Refuses to continue from a position that cannot be continued: the capture stored a source
 * position, but the replication slot it streams from is gone, invalidated, or already past that
 * position. Debezium would otherwise create a new slot and stream from now on, silently skipping
 * every change in between.
 */
final class ResyncCheck {
  private ResyncCheck() {}

  /** Throws {@link ErrorCode#RESYNC_NEEDED} when the stored position cannot be continued. */
  static void verify(
      Optional<Long> storedLsn, Optional<SourceCatalog.SlotState> slot, String slotName) {
    if (slot.isPresent() && slot.get().lost()) {
      throw new CdcCompareException(
          ErrorCode.RESYNC_NEEDED,
          "replication slot "
              + slotName
              + " was invalidated (wal_status="
              + slot.get().walStatus()
              + ", reason="
              + slot.get().invalidationReason()
              + "); the WAL it held is gone");
    }
    if (storedLsn.isEmpty()) {
      return;
    }
    String stored = SourcePosition.lsnText(storedLsn.get());
    if (slot.isEmpty()) {
      throw new CdcCompareException(
          ErrorCode.RESYNC_NEEDED,
          "replication slot "
              + slotName
              + " does not exist, but the capture stored its position at LSN "
              + stored
              + ": the changes since then cannot be read again");
    }
    String confirmed = slot.get().confirmedFlushLsn();
    if (confirmed != null
        && Long.compareUnsigned(SourcePosition.parseLsn(confirmed), storedLsn.get()) > 0) {
      throw new CdcCompareException(
          ErrorCode.RESYNC_NEEDED,
          "replication slot "
              + slotName
              + " has confirmed LSN "
              + confirmed
              + ", beyond the capture's stored position "
              + stored
              + ": the changes in between were consumed elsewhere");
    }
  }
}
