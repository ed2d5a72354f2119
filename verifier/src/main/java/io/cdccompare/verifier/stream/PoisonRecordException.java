package io.cdccompare.verifier.stream;

import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.verifier.apply.RecordPosition;

/**
 * A record of a table topic that cannot be decoded or applied (docs/design.md, "Bad input"): the
 * partition stops with this error, naming topic, partition and offset; nothing after it is applied
 * and its offset is not committed. Never skipped silently: the table cannot be verified until it is
 * dealt with.
 */
final class PoisonRecordException extends CdcCompareException {
  private static final long serialVersionUID = 1L;

  PoisonRecordException(RecordPosition position, Throwable cause) {
    super(
        ErrorCode.UNVERIFIABLE,
        "poison record at topic "
            + position.topic()
            + ", partition "
            + position.partition()
            + ", offset "
            + position.offset()
            + ": "
            + cause.getMessage(),
        cause);
  }
}
