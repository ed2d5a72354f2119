package io.cdccompare.verifier.stream;

import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.verifier.apply.RowChange;

/** What a record of a table topic is, once decoded by {@link ChangeDecoder}. */
sealed interface StreamRecord {

  /** A row change to apply: an upsert (ops c, u, r) or a delete (op d). */
  record Change(RowChange change) implements StreamRecord {}

  /** The tombstone that follows a delete: changes no row, only moves the checkpoint. */
  record Tombstone(String key) implements StreamRecord {}

  /** A chunk note's copy in this partition, OPEN or CLOSE. */
  record Note(Marker marker) implements StreamRecord {}
}
