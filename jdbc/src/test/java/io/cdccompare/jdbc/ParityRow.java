package io.cdccompare.jdbc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A logical row of the parity table: its id and one value per {@link ParityTables#COLUMNS}. */
record ParityRow(long id, List<Object> values) {

  ParityRow {
    if (values.size() != ParityTables.COLUMNS.size()) {
      throw new IllegalArgumentException("one value per parity column");
    }
    values = java.util.Collections.unmodifiableList(new ArrayList<>(values));
  }

  static ParityRow allNull(long id) {
    return new ParityRow(id, Arrays.asList(new Object[ParityTables.COLUMNS.size()]));
  }

  /** This row with the named column set to {@code value}. */
  ParityRow with(String column, Object value) {
    List<Object> copy = new ArrayList<>(values);
    int index = -1;
    for (int i = 0; i < ParityTables.COLUMNS.size(); i++) {
      if (ParityTables.COLUMNS.get(i).name().equals(column)) {
        index = i;
      }
    }
    if (index < 0) {
      throw new IllegalArgumentException("no parity column " + column);
    }
    copy.set(index, value);
    return new ParityRow(id, copy);
  }

  ParityRow withId(long newId) {
    return new ParityRow(newId, values);
  }
}
