package io.cdccompare.events;

import static io.cdccompare.events.DebeziumSchemas.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.RowHasher;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

class StructRowHasherTest {

  private static final HashPlan PLAN =
      new HashPlan(
          "orders",
          List.of(
              HashedColumn.of("id", LogicalType.BIGINT),
              HashedColumn.of("amount", LogicalType.DECIMAL),
              HashedColumn.of("customer", LogicalType.VARCHAR),
              HashedColumn.of("ref", LogicalType.UUID),
              HashedColumn.of("placed_at", LogicalType.TIMESTAMP),
              HashedColumn.of("paid_at", LogicalType.TIMESTAMP_TZ),
              HashedColumn.of("doc", LogicalType.JSON)));

  private static final Schema ROW =
      SchemaBuilder.struct()
          .name("shop.public.orders.Value")
          .field("id", Schema.INT64_SCHEMA)
          .field("amount", DebeziumSchemas.STRING)
          .field("customer", DebeziumSchemas.STRING)
          .field("ref", named(Schema.Type.STRING, DebeziumSemanticTypes.UUID))
          .field("placed_at", named(Schema.Type.INT64, DebeziumSemanticTypes.MICRO_TIMESTAMP))
          .field("paid_at", named(Schema.Type.STRING, DebeziumSemanticTypes.ZONED_TIMESTAMP))
          .field("doc", named(Schema.Type.STRING, DebeziumSemanticTypes.JSON))
          .field("ignored", DebeziumSchemas.STRING)
          .build();

  private static final UUID REF = UUID.fromString("0e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b");
  private static final LocalDateTime PLACED = LocalDateTime.of(2024, 5, 1, 10, 0, 0, 123_456_000);

  private static Struct afterImage() {
    return new Struct(ROW)
        .put("id", 7L)
        .put("amount", "1234.50")
        .put("customer", "Ana ")
        .put("ref", REF.toString())
        .put("placed_at", PLACED.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + 123_456)
        .put("paid_at", "2024-05-01T08:00:00.000001Z")
        .put("doc", "{\"b\": 2, \"a\": 1}")
        .put("ignored", "x");
  }

  /** The same row as the PostgreSQL JDBC readers return it. */
  private static Object[] jdbcRow() {
    return new Object[] {
      7L,
      new BigDecimal("1234.50"),
      "Ana ",
      REF,
      PLACED,
      OffsetDateTime.ofInstant(Instant.parse("2024-05-01T08:00:00.000001Z"), ZoneOffset.UTC),
      "{\"a\":1,\"b\":2}"
    };
  }

  @Test
  void eventRowHashesEqualToTheSameRowReadOverJdbc() {
    // Given a change event's after image and the same row as read over JDBC
    StructRowHasher events = new StructRowHasher(PLAN, CanonicalFormat.STRICT, HashFunction.md5());
    RowHasher jdbc = new RowHasher(PLAN.columns(), CanonicalFormat.STRICT, HashFunction.md5());

    // When both are hashed
    // Then the hashes are equal
    assertThat(events.hash(afterImage())).isEqualTo(jdbc.hash(jdbcRow()));
  }

  @Test
  void eventRowStillHashesEqualAfterTheJsonConverter() {
    // Given the event serialized by Kafka Connect's JsonConverter and read back, as a consumer sees
    // it
    JsonConverter converter = new JsonConverter();
    Map<String, Object> config = new HashMap<>();
    config.put("schemas.enable", "true");
    converter.configure(config, false);
    byte[] json = converter.fromConnectData("orders", ROW, afterImage());
    SchemaAndValue readBack = converter.toConnectData("orders", json);

    // When it is hashed
    StructRowHasher events = new StructRowHasher(PLAN, CanonicalFormat.STRICT, HashFunction.md5());

    // Then the hash equals the JDBC row's
    assertThat(events.hash((Struct) readBack.value()))
        .isEqualTo(
            new RowHasher(PLAN.columns(), CanonicalFormat.STRICT, HashFunction.md5())
                .hash(jdbcRow()));
  }

  @Test
  void oneChangedValueChangesTheHash() {
    // Given the after image with one microsecond more
    StructRowHasher events =
        new StructRowHasher(PLAN, CanonicalFormat.COMPATIBLE, HashFunction.md5());
    Struct changed = afterImage();
    changed.put("placed_at", changed.getInt64("placed_at") + 1);

    // When both are hashed
    // Then the hashes differ
    assertThat(events.hash(changed)).isNotEqualTo(events.hash(afterImage()));
  }

  @Test
  void missingFieldIsRefusedNamingIt() {
    // Given a plan column the event does not carry
    HashPlan plan = new HashPlan("orders", List.of(HashedColumn.of("total", LogicalType.DECIMAL)));
    StructRowHasher events =
        new StructRowHasher(plan, CanonicalFormat.COMPATIBLE, HashFunction.md5());

    // When it is hashed
    // Then it is refused naming the field
    assertThatThrownBy(() -> events.hash(afterImage()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'total'");
  }

  @Test
  void eventKeyEncodesLikeTheJdbcKey() {
    // Given a composite key struct (id, paid_at) and the same key read over JDBC
    Schema keySchema =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("paid_at", named(Schema.Type.STRING, DebeziumSemanticTypes.ZONED_TIMESTAMP))
            .build();
    Struct key = new Struct(keySchema).put("id", 7L).put("paid_at", "2024-05-01T08:00:00.000001Z");
    KeyCodec codec = new KeyCodec(List.of(LogicalType.BIGINT, LogicalType.TIMESTAMP_TZ));

    // When both are encoded
    String fromEvent = new EventKeyEncoder(codec, List.of("id", "paid_at")).encode(key);
    String fromJdbc =
        codec.encode(List.of(7L, OffsetDateTime.parse("2024-05-01T13:30:00.000001+05:30")));

    // Then the record keys are equal
    assertThat(fromEvent).isEqualTo(fromJdbc).isEqualTo("7,2024-05-01 08:00:00.000001");
  }
}
