package io.cdccompare.events;

import static io.cdccompare.events.DebeziumSchemas.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.rowhash.CanonicalValues;
import io.cdccompare.core.rowhash.LogicalType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;

/**
 * Each test builds a field the way Debezium delivers it and the value the JDBC path reads for the
 * same logical value (the Java type the dialect's reader returns), and checks that both have the
 * same canonical text.
 */
class EventCanonicalValuesTest {

  private static String event(LogicalType type, Schema schema, Object value) {
    return EventCanonicalValues.canonical(type, schema, value);
  }

  private static String jdbc(LogicalType type, Object value) {
    return CanonicalValues.canonical(type, value);
  }

  @Test
  void integersOfEveryWidthAgree() {
    // Given int2, int4, int8 and a MariaDB BIGINT UNSIGNED as Debezium sends them
    // When both paths make them canonical
    // Then the texts are equal
    assertThat(event(LogicalType.SMALLINT, DebeziumSchemas.INT16, (short) -32768))
        .isEqualTo(jdbc(LogicalType.SMALLINT, -32768L));
    assertThat(event(LogicalType.INTEGER, DebeziumSchemas.INT32, 42))
        .isEqualTo(jdbc(LogicalType.INTEGER, 42L));
    assertThat(event(LogicalType.BIGINT, DebeziumSchemas.INT64, Long.MAX_VALUE))
        .isEqualTo(jdbc(LogicalType.BIGINT, Long.MAX_VALUE));
    BigDecimal unsigned = new BigDecimal("18446744073709551615");
    assertThat(event(LogicalType.BIGINT, DebeziumSchemas.decimal(0), unsigned))
        .isEqualTo(jdbc(LogicalType.BIGINT, unsigned))
        .isEqualTo("18446744073709551615");
  }

  @Test
  void preciseDecimalAgreesWithTheScaledJdbcValue() {
    // Given numeric(12,2) 1.50 as a Connect Decimal and as JDBC reads it
    BigDecimal value = new BigDecimal("1.50");

    // When both are made canonical
    // Then both read 1.5
    assertThat(event(LogicalType.DECIMAL, DebeziumSchemas.decimal(2), value))
        .isEqualTo(jdbc(LogicalType.DECIMAL, value))
        .isEqualTo("1.5");
  }

  @Test
  void variableScaleDecimalAgreesWithUnconstrainedNumeric() {
    // Given an unconstrained numeric 12345678901234567890.000100 as VariableScaleDecimal
    BigDecimal value = new BigDecimal("12345678901234567890.000100");

    // When both are made canonical
    // Then the texts are equal
    assertThat(
            event(
                LogicalType.DECIMAL,
                DebeziumSchemas.VARIABLE_SCALE_DECIMAL,
                DebeziumSchemas.variableScaleDecimal(value)))
        .isEqualTo(jdbc(LogicalType.DECIMAL, value))
        .isEqualTo("12345678901234567890.0001");
  }

  @Test
  void stringModeDecimalCarriesPostgresNan() {
    // Given numeric NaN, which only decimal.handling.mode=string can carry
    // When both paths make it canonical (JDBC reads numeric as text for this reason)
    // Then both read NaN
    assertThat(event(LogicalType.DECIMAL, DebeziumSchemas.STRING, "NaN"))
        .isEqualTo(jdbc(LogicalType.DECIMAL, "NaN"))
        .isEqualTo("NaN");
    assertThat(event(LogicalType.DECIMAL, DebeziumSchemas.STRING, "-0.0100"))
        .isEqualTo(jdbc(LogicalType.DECIMAL, new BigDecimal("-0.0100")));
  }

  @Test
  void floatsAgreeIncludingAMariaDbFloatSentAsDouble() {
    // Given a real as FLOAT32 and a MariaDB FLOAT that a connector widened to FLOAT64
    float stored = 1.2345678f;

    // When both paths make them canonical
    // Then all read the float's shortest decimal
    assertThat(event(LogicalType.REAL, DebeziumSchemas.FLOAT32, stored))
        .isEqualTo(jdbc(LogicalType.REAL, stored))
        .isEqualTo("1.2345678");
    assertThat(event(LogicalType.REAL, DebeziumSchemas.FLOAT64, (double) stored))
        .isEqualTo(jdbc(LogicalType.REAL, (double) stored));
    assertThat(event(LogicalType.DOUBLE, DebeziumSchemas.FLOAT64, Double.NaN))
        .isEqualTo(jdbc(LogicalType.DOUBLE, Double.NaN));
  }

  @Test
  void booleanAndTinyintOneAgree() {
    // Given a PostgreSQL boolean and a MariaDB tinyint(1) (INT16 in Debezium)
    // When both paths make them canonical
    // Then true and 1 agree, and a tinyint 5 stays 5 on both
    assertThat(event(LogicalType.BOOLEAN, DebeziumSchemas.BOOLEAN, true))
        .isEqualTo(jdbc(LogicalType.BOOLEAN, true))
        .isEqualTo("1");
    assertThat(event(LogicalType.BOOLEAN, DebeziumSchemas.INT16, (short) 1)).isEqualTo("1");
    assertThat(event(LogicalType.BOOLEAN, DebeziumSchemas.INT16, (short) 5))
        .isEqualTo(jdbc(LogicalType.BOOLEAN, 5))
        .isEqualTo("5");
  }

  @Test
  void paddedCharAgreesWithItsJdbcValue() {
    // Given a char(5) 'ab' that pgoutput sends padded
    // When both paths make it canonical
    // Then trailing blanks are gone on both
    assertThat(event(LogicalType.CHAR, DebeziumSchemas.STRING, "ab   "))
        .isEqualTo(jdbc(LogicalType.CHAR, "ab   "))
        .isEqualTo("ab");
  }

  @Test
  void bytesAgreeAsArrayOrBuffer() {
    // Given bytea as a ByteBuffer (embedded engine) and as byte[] (after a converter)
    byte[] bytes = {0, (byte) 0xff, 0x10};

    // When both paths make them canonical
    // Then all read the lowercase hex
    assertThat(event(LogicalType.BINARY, DebeziumSchemas.BYTES, DebeziumSchemas.buffer(bytes)))
        .isEqualTo(jdbc(LogicalType.BINARY, bytes))
        .isEqualTo("00ff10");
    assertThat(event(LogicalType.BINARY, DebeziumSchemas.BYTES, bytes)).isEqualTo("00ff10");
  }

  @Test
  void uuidAgreesWithTheDriversUuid() {
    // Given a uuid as io.debezium.data.Uuid text (as the server wrote it) and as JDBC's UUID
    UUID uuid = UUID.fromString("0e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b");

    // When both paths make it canonical
    // Then the texts are equal
    assertThat(
            event(
                LogicalType.UUID,
                named(Schema.Type.STRING, DebeziumSemanticTypes.UUID),
                uuid.toString().toUpperCase()))
        .isEqualTo(jdbc(LogicalType.UUID, uuid));
  }

  @Test
  void jsonAgreesWhateverTheTextLayout() {
    // Given a jsonb as Debezium sends it and the same document as MariaDB keeps it
    // When both paths make it canonical
    // Then the texts are equal
    assertThat(
            event(
                LogicalType.JSON,
                named(Schema.Type.STRING, DebeziumSemanticTypes.JSON),
                "{\"a\": 1, \"b\": [1.50]}"))
        .isEqualTo(jdbc(LogicalType.JSON, "{ \"b\":[1.5], \"a\":1.0 }"));
  }

  @Test
  void debeziumDateAgreesWithLocalDate() {
    // Given 2024-02-29 as io.debezium.time.Date days and as Connect Date
    LocalDate date = LocalDate.of(2024, 2, 29);

    // When both paths make it canonical
    // Then the texts are equal
    assertThat(
            event(
                LogicalType.DATE,
                named(Schema.Type.INT32, DebeziumSemanticTypes.DATE),
                (int) date.toEpochDay()))
        .isEqualTo(jdbc(LogicalType.DATE, date));
    assertThat(
            event(
                LogicalType.DATE,
                Date.builder().optional().build(),
                java.util.Date.from(date.atStartOfDay(ZoneOffset.UTC).toInstant())))
        .isEqualTo("2024-02-29");
  }

  @Test
  void dateBeforeTheEpochAgrees() {
    // Given 1000-01-01, negative days
    LocalDate date = LocalDate.of(1000, 1, 1);

    // When both paths make it canonical
    // Then the texts are equal
    assertThat(
            event(
                LogicalType.DATE,
                named(Schema.Type.INT32, DebeziumSemanticTypes.DATE),
                (int) date.toEpochDay()))
        .isEqualTo(jdbc(LogicalType.DATE, date));
  }

  @Test
  void microTimeAgreesWithTheTimeTextIncludingMidnightAtTheEnd() {
    // Given times as MicroTime micros and as the text JDBC reads (PostgreSQL 24:00:00 included)
    Schema microTime = named(Schema.Type.INT64, DebeziumSemanticTypes.MICRO_TIME);

    // When both paths make them canonical
    // Then the texts are equal
    assertThat(event(LogicalType.TIME, microTime, 49_530_123_456L))
        .isEqualTo(jdbc(LogicalType.TIME, "13:45:30.123456"));
    assertThat(event(LogicalType.TIME, microTime, 86_400_000_000L))
        .isEqualTo(jdbc(LogicalType.TIME, "24:00:00"));
    assertThat(event(LogicalType.TIME, microTime, -3_020_399_000_000L))
        .isEqualTo(jdbc(LogicalType.TIME, "-838:59:59"));
  }

  @Test
  void millisecondTimeAgrees() {
    // Given a time(3) as io.debezium.time.Time millis and as Connect Time
    // When both paths make it canonical
    // Then the texts are equal
    assertThat(
            event(
                LogicalType.TIME, named(Schema.Type.INT32, DebeziumSemanticTypes.TIME), 49_530_120))
        .isEqualTo(jdbc(LogicalType.TIME, "13:45:30.12"));
    assertThat(
            event(
                LogicalType.TIME,
                Time.builder().optional().build(),
                new java.util.Date(49_530_120L)))
        .isEqualTo("13:45:30.12");
  }

  @Test
  void microTimestampAgreesWithLocalDateTime() {
    // Given a timestamp(6) as MicroTimestamp micros since the epoch, before and after 1970
    LocalDateTime after = LocalDateTime.of(2024, 3, 31, 2, 30, 0, 123_456_000);
    LocalDateTime before = LocalDateTime.of(1000, 1, 1, 0, 0, 0, 1_000);
    Schema micro = named(Schema.Type.INT64, DebeziumSemanticTypes.MICRO_TIMESTAMP);

    // When both paths make them canonical
    // Then the texts are equal
    assertThat(event(LogicalType.TIMESTAMP, micro, micros(after)))
        .isEqualTo(jdbc(LogicalType.TIMESTAMP, after));
    assertThat(event(LogicalType.TIMESTAMP, micro, micros(before)))
        .isEqualTo(jdbc(LogicalType.TIMESTAMP, before));
  }

  @Test
  void millisecondAndNanosecondTimestampsAgree() {
    // Given a timestamp(3) as io.debezium.time.Timestamp, as Connect Timestamp and as NanoTimestamp
    LocalDateTime value = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_000_000);
    long millis = value.toInstant(ZoneOffset.UTC).toEpochMilli();

    // When both paths make them canonical
    // Then the texts are equal
    String expected = jdbc(LogicalType.TIMESTAMP, value);
    assertThat(
            event(
                LogicalType.TIMESTAMP,
                named(Schema.Type.INT64, DebeziumSemanticTypes.TIMESTAMP),
                millis))
        .isEqualTo(expected);
    assertThat(
            event(
                LogicalType.TIMESTAMP,
                Timestamp.builder().optional().build(),
                new java.util.Date(millis)))
        .isEqualTo(expected);
    assertThat(
            event(
                LogicalType.TIMESTAMP,
                named(Schema.Type.INT64, DebeziumSemanticTypes.NANO_TIMESTAMP),
                millis * 1_000_000))
        .isEqualTo(expected);
  }

  @Test
  void zonedTimestampAgreesWithEveryJdbcReadingOfTheInstant() {
    // Given an instant as Debezium's ZonedTimestamp (UTC, 6 digits) and as the JDBC readers give
    // it:
    // PostgreSQL OffsetDateTime, MariaDB UNIX_TIMESTAMP → Instant
    Instant instant = Instant.parse("2024-10-27T01:30:00.500Z");
    Schema zoned = named(Schema.Type.STRING, DebeziumSemanticTypes.ZONED_TIMESTAMP);

    // When both paths make them canonical
    // Then the texts are equal
    String expected =
        jdbc(LogicalType.TIMESTAMP_TZ, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    assertThat(event(LogicalType.TIMESTAMP_TZ, zoned, "2024-10-27T01:30:00.500000Z"))
        .isEqualTo(expected);
    assertThat(event(LogicalType.TIMESTAMP_TZ, zoned, "2024-10-27T02:30:00.5+01:00"))
        .isEqualTo(expected);
    assertThat(jdbc(LogicalType.TIMESTAMP_TZ, instant))
        .isEqualTo(expected)
        .isEqualTo("2024-10-27 01:30:00.5");
  }

  @Test
  void nullStaysNull() {
    // Given a NULL field
    // When it is made canonical
    // Then there is no text
    assertThat(
            event(
                LogicalType.TIMESTAMP_TZ,
                named(Schema.Type.STRING, DebeziumSemanticTypes.ZONED_TIMESTAMP),
                null))
        .isNull();
  }

  @Test
  void binarySentAsTextIsRefusedNamingTheSetting() {
    // Given a bytea sent as base64 text (binary.handling.mode=base64)
    // When it is made canonical
    // Then it is refused, naming the setting to pin
    assertThatThrownBy(() -> event(LogicalType.BINARY, DebeziumSchemas.STRING, "AP8Q"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("binary.handling.mode=bytes");
  }

  @Test
  void decimalSentAsDoubleIsRefusedNamingTheSetting() {
    // Given a numeric sent as FLOAT64 (decimal.handling.mode=double)
    // When it is made canonical
    // Then it is refused
    assertThatThrownBy(() -> event(LogicalType.DECIMAL, DebeziumSchemas.FLOAT64, 1.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("decimal.handling.mode");
  }

  private static long micros(LocalDateTime value) {
    Instant instant = value.toInstant(ZoneOffset.UTC);
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  @Test
  void unsignedBigintUnscaledBytesRoundTrip() {
    // Given the unscaled bytes Debezium writes for a VariableScaleDecimal with a negative value
    BigDecimal value = new BigDecimal(new BigInteger("-123456789012345678901234567890"), 7);

    // When made canonical
    // Then the sign survives the two's complement bytes
    assertThat(
            event(
                LogicalType.DECIMAL,
                DebeziumSchemas.VARIABLE_SCALE_DECIMAL,
                DebeziumSchemas.variableScaleDecimal(value)))
        .isEqualTo(jdbc(LogicalType.DECIMAL, value));
  }
}
