package io.cdccompare.events;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.RowHash;
import io.cdccompare.core.rowhash.RowHasher;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * The row hash of a change event's row image (the {@code after} or {@code before} struct), with the
 * same plan, format and hash function as the JDBC side: equal rows give equal hashes whether read
 * from the source database or delivered by Debezium. Fields are found by the plan's source column
 * names. Not thread-safe (it holds a {@link RowHasher}).
 */
public final class StructRowHasher {

  private final List<HashedColumn> columns;
  private final RowHasher hasher;
  private final Object[] values;

  public StructRowHasher(HashPlan plan, CanonicalFormat format, HashFunction hashFunction) {
    this.columns = plan.columns();
    this.hasher = new RowHasher(columns, format, hashFunction);
    this.values = new Object[columns.size()];
  }

  public RowHash hash(Struct row) {
    return hasher.hash(read(row));
  }

  /** The canonical text of the row, for diagnostics (never logged: it holds data). */
  public String canonicalText(Struct row) {
    return hasher.canonicalText(read(row));
  }

  private Object[] read(Struct row) {
    for (int i = 0; i < values.length; i++) {
      HashedColumn column = columns.get(i);
      Field field = row.schema().field(column.sourceName());
      if (field == null) {
        throw new IllegalArgumentException(
            "the change event of "
                + row.schema().name()
                + " has no field '"
                + column.sourceName()
                + "'");
      }
      EventCanonicalValues.requireExactEncoding(column.type(), field.schema());
      values[i] = EventValues.toJava(field.schema(), row.get(field));
    }
    return values;
  }
}
