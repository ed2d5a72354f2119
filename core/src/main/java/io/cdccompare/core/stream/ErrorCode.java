package io.cdccompare.core.stream;

/** The states a user must recognise by name, in errors, alerts and reports. */
public enum ErrorCode {
  /**
   * A position cannot be continued (slot lost, topic records deleted, offsets expired): run a full
   * compare/resync.
   */
  RESYNC_NEEDED,
  /** A chunk or table could not be verified (poison record, missing table or column). */
  UNVERIFIABLE,
  /** The target's columns differ from the note's column fingerprint. */
  SCHEMA_DRIFT
}
