package io.cdccompare.core.stream;

/**
 * A fatal, named error: its code says what state the user is in, its message what is at fault
 * (table, topic, partition, offset, LSN, configuration key).
 */
public class CdcCompareException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public CdcCompareException(ErrorCode code, String message) {
    this(code, message, null);
  }

  public CdcCompareException(ErrorCode code, String message, Throwable cause) {
    super(code + ": " + message, cause);
    this.code = code;
  }

  public ErrorCode code() {
    return code;
  }
}
