package io.cdccompare.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.OptionalLong;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Where a stock Debezium PostgreSQL change event came from in the source's log, read from its
 * {@code source} block: {@code sequence}, the JSON pair {@code ["<last commit LSN>","<LSN>"]}, and
 * {@code txId}. The last commit LSN is the commit of the transaction the connector streamed before
 * this event's transaction; it is the same for every event of one transaction and grows from one
 * transaction to the next in the order logical decoding streams them (their commit order). The
 * event's own LSN orders the changes within one transaction only: transactions interleave in the
 * WAL. The first transaction a connector streams after it starts has no last commit ({@code
 * [null,"<LSN>"]}). {@code StockPositionsIT} shows all of it on a real connector. This is what is
 * to place a note and a change of another topic on either side of each other when no marker can be
 * written into the table topics (docs/design.md, "Stock Debezium pipelines").
 *
 * @param lastCommitLsn the commit LSN of the transaction streamed before; empty for the first one
 *     after the connector started
 * @param lsn the event's own LSN
 * @param txId the event's transaction
 */
public record StockSourcePosition(OptionalLong lastCommitLsn, long lsn, long txId) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The position of an event whose {@code source} block is {@code source}.
   *
   * @throws IllegalArgumentException naming the field when the block has no {@code sequence} pair
   *     or no {@code txId} (a snapshot event, or not a PostgreSQL connector's)
   */
  public static StockSourcePosition of(Struct source) {
    if (source == null) {
      throw new IllegalArgumentException("the event has no source block");
    }
    Field sequenceField = source.schema().field("sequence");
    Field txIdField = source.schema().field("txId");
    if (sequenceField == null || txIdField == null) {
      throw new IllegalArgumentException(
          "the source block has no sequence or txId field: not a Debezium PostgreSQL event");
    }
    String sequence = source.getString("sequence");
    Object txId = source.get(txIdField);
    if (sequence == null || txId == null) {
      throw new IllegalArgumentException(
          "source.sequence or source.txId is null (a snapshot event has no log position): "
              + sequence);
    }
    String[] parts;
    try {
      parts = JSON.readValue(sequence, String[].class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("source.sequence is not a JSON array: " + sequence);
    }
    if (parts.length != 2 || parts[1] == null) {
      throw new IllegalArgumentException("source.sequence is not a pair of LSNs: " + sequence);
    }
    try {
      return new StockSourcePosition(
          parts[0] == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(parts[0])),
          Long.parseLong(parts[1]),
          ((Number) txId).longValue());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("source.sequence holds no LSN numbers: " + sequence);
    }
  }

  /**
   * Whether this event's transaction was streamed before {@code other}'s.
   *
   * @throws IllegalStateException when either is the first transaction after a start (no last
   *     commit): its place is known only against what the same start streamed
   */
  public boolean transactionBefore(StockSourcePosition other) {
    if (lastCommitLsn.isEmpty() || other.lastCommitLsn.isEmpty()) {
      throw new IllegalStateException(
          "the first transaction a connector streams after it starts has no last commit LSN");
    }
    return Long.compareUnsigned(lastCommitLsn.getAsLong(), other.lastCommitLsn.getAsLong()) < 0;
  }
}
