package io.cdccompare.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class StockSourcePositionTest {
  /** The fields of a Debezium PostgreSQL source block that a position is read from. */
  private static final Schema SOURCE =
      SchemaBuilder.struct()
          .name("io.debezium.connector.postgresql.Source")
          .field("sequence", Schema.OPTIONAL_STRING_SCHEMA)
          .field("txId", Schema.OPTIONAL_INT64_SCHEMA)
          .field("lsn", Schema.OPTIONAL_INT64_SCHEMA)
          .build();

  private static Struct source(String sequence, Long txId) {
    return new Struct(SOURCE).put("sequence", sequence).put("txId", txId).put("lsn", 99L);
  }

  @Test
  void theLastCommitComesFirstAndTheEventLsnSecond() {
    assertThat(StockSourcePosition.of(source("[\"24023128\",\"24023256\"]", 555L)))
        .isEqualTo(new StockSourcePosition(OptionalLong.of(24023128L), 24023256L, 555L));
    assertThat(StockSourcePosition.of(source("[null,\"24023256\"]", 555L)))
        .isEqualTo(new StockSourcePosition(OptionalLong.empty(), 24023256L, 555L));
  }

  @Test
  void aLaterLastCommitIsALaterTransactionWhateverTheEventLsns() {
    // two transactions interleaved in the WAL: the second to commit wrote its change first
    StockSourcePosition first = StockSourcePosition.of(source("[\"2000\",\"1500\"]", 7L));
    StockSourcePosition second = StockSourcePosition.of(source("[\"3000\",\"1000\"]", 6L));

    assertThat(first.transactionBefore(second)).isTrue();
    assertThat(second.transactionBefore(first)).isFalse();
    assertThat(first.transactionBefore(first)).isFalse();
    StockSourcePosition afterStart = StockSourcePosition.of(source("[null,\"900\"]", 5L));
    assertThatThrownBy(() -> afterStart.transactionBefore(first))
        .hasMessageContaining("first transaction a connector streams after it starts");
  }

  @Test
  void aBlockWithoutALogPositionIsRefusedByName() {
    assertThatThrownBy(() -> StockSourcePosition.of(source(null, 5L)))
        .hasMessageContaining("source.sequence or source.txId is null");
    assertThatThrownBy(() -> StockSourcePosition.of(source("[\"12\",null]", 5L)))
        .hasMessageContaining("not a pair of LSNs");
    assertThatThrownBy(() -> StockSourcePosition.of(source("not json", 5L)))
        .hasMessageContaining("not a JSON array");
    assertThatThrownBy(() -> StockSourcePosition.of(source("[\"a\",\"12\"]", 5L)))
        .hasMessageContaining("no LSN numbers");
    Struct other = new Struct(SchemaBuilder.struct().field("pos", Schema.INT64_SCHEMA).build());
    assertThatThrownBy(() -> StockSourcePosition.of(other.put("pos", 1L)))
        .hasMessageContaining("not a Debezium PostgreSQL event");
  }
}
