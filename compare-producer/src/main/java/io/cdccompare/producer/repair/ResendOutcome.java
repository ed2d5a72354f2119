package io.cdccompare.producer.repair;

import io.cdccompare.core.stream.CaptureNotices;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.repair.KeyResendException.Reason;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The notices of one re-send signal, summed: the rows its table scan sent ({@code
 * TABLE_SCAN_COMPLETED}'s {@code total_rows_scanned}) and whether the scan failed (a status other
 * than {@code SUCCEEDED} or {@code EMPTY}: Debezium then still reports {@code COMPLETED}, so the
 * status is what tells a failed read from a done one). Not thread-safe.
 */
final class ResendOutcome {
  private long rows;
  private boolean scanned;
  private String failedStatus;

  void add(NoticeWatch.Notice notice) {
    if (!CaptureNotices.TABLE_SCAN_COMPLETED.equals(notice.type())) {
      return;
    }
    String status = notice.data().getOrDefault(CaptureNotices.STATUS, "");
    if (!status.equals("SUCCEEDED") && !status.equals("EMPTY")) {
      failedStatus = status;
    }
    String total = notice.data().get(CaptureNotices.TOTAL_ROWS_SCANNED);
    if (total != null) {
      rows = Long.parseLong(total);
      scanned = true;
    }
  }

  OptionalLong rows() {
    return scanned ? OptionalLong.of(rows) : OptionalLong.empty();
  }

  void requireCompleted(
      Optional<NoticeWatch.Notice> end,
      TableName table,
      String signalId,
      String topic,
      Duration elapsed) {
    if (end.isEmpty()) {
      throw new KeyResendException(
          Reason.TIMED_OUT,
          table,
          signalId,
          "got no COMPLETED notice on "
              + topic
              + " within "
              + elapsed.toSeconds()
              + " s: is the capture running? The signal is in repi.signals and the snapshot may"
              + " still complete later; check the notices topic before sending it again");
    }
    if (CaptureNotices.ABORTED.equals(end.get().type())) {
      throw new KeyResendException(Reason.ABORTED, table, signalId, "was aborted by the capture");
    }
    if (failedStatus != null) {
      throw new KeyResendException(
          Reason.FAILED,
          table,
          signalId,
          "completed without reading the table (status "
              + failedStatus
              + "; see the capture's log)");
    }
  }
}
