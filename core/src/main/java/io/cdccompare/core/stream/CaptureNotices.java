package io.cdccompare.core.stream;

/**
 * The capture's notices topic, {@code <prefix>.capture.notices}: Debezium's notifications (its
 * {@code sink} notification channel), which the capture writes there as JSON keyed by the
 * notification id. Defined once for the capture that writes it and the key re-send that waits on
 * it.
 *
 * <p>A notice is one JSON object with the fields named here: {@value #ID}, {@value
 * #AGGREGATE_TYPE}, {@value #TYPE}, {@value #ADDITIONAL_DATA} (an object of texts) and {@value
 * #TIMESTAMP} (epoch milliseconds). An incremental snapshot started by a signal reports under the
 * signal's id: {@code STARTED}, {@code IN_PROGRESS}, {@code TABLE_SCAN_COMPLETED} per table (with
 * {@value #TOTAL_ROWS_SCANNED}), then {@code COMPLETED}, or {@code ABORTED} when it was stopped.
 */
public final class CaptureNotices {
  public static final String ID = "id";
  public static final String AGGREGATE_TYPE = "aggregate_type";
  public static final String TYPE = "type";
  public static final String ADDITIONAL_DATA = "additional_data";
  public static final String TIMESTAMP = "timestamp";

  /** The aggregate type of Debezium's incremental snapshot notices. */
  public static final String INCREMENTAL_SNAPSHOT = "Incremental Snapshot";

  public static final String COMPLETED = "COMPLETED";
  public static final String ABORTED = "ABORTED";
  public static final String TABLE_SCAN_COMPLETED = "TABLE_SCAN_COMPLETED";

  /** In a {@code TABLE_SCAN_COMPLETED} notice's additional data: the rows the table's scan sent. */
  public static final String TOTAL_ROWS_SCANNED = "total_rows_scanned";

  /** In a {@code TABLE_SCAN_COMPLETED} notice's additional data: how the scan ended. */
  public static final String STATUS = "status";

  private CaptureNotices() {}

  /** The notices topic under a capture's topic prefix. */
  public static String topic(String topicPrefix) {
    if (topicPrefix == null || topicPrefix.isBlank()) {
      throw new IllegalArgumentException("the topic prefix must not be empty");
    }
    return topicPrefix + ".capture.notices";
  }
}
