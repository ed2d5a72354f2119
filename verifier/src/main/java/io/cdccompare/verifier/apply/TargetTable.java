package io.cdccompare.verifier.apply;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.jdbc.sql.TableRef;
import java.util.List;

/**
 * A target table the applier writes: its name and its key, the columns the record keys encode (in
 * key order) with the codec that encoded them.
 */
public record TargetTable(TableRef table, List<String> keyColumns, KeyCodec keyCodec) {

  public TargetTable {
    if (table == null || keyCodec == null) {
      throw new IllegalArgumentException("a target table needs a name and a key codec");
    }
    keyColumns = List.copyOf(keyColumns);
    if (keyColumns.size() != keyCodec.keyTypes().size()) {
      throw new IllegalArgumentException(
          "table " + table.table() + ": one key column per key type of the codec");
    }
  }
}
