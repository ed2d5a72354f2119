package io.cdccompare.core.rowhash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class CanonicalValuesTest {

  @ParameterizedTest
  @EnumSource(LogicalType.class)
  void nullStaysNullForEveryType(LogicalType type) {
    // Given SQL NULL
    // When it is made canonical
    // Then there is no text: the format decides how NULL is written
    assertThat(CanonicalValues.canonical(type, null)).isNull();
  }

  @Test
  void integersArePlainDecimalWhateverTheirJavaType() {
    // Given the same number as short, int, long, BigInteger and BigDecimal
    // When each is made canonical
    // Then all give the same plain decimal
    assertThat(CanonicalValues.canonical(LogicalType.SMALLINT, (short) -32768)).isEqualTo("-32768");
    assertThat(CanonicalValues.canonical(LogicalType.INTEGER, 42)).isEqualTo("42");
    assertThat(CanonicalValues.canonical(LogicalType.BIGINT, Long.MIN_VALUE))
        .isEqualTo("-9223372036854775808");
    assertThat(
            CanonicalValues.canonical(LogicalType.BIGINT, new BigInteger("18446744073709551615")))
        .isEqualTo("18446744073709551615");
    assertThat(CanonicalValues.canonical(LogicalType.BIGINT, new BigDecimal("42.000")))
        .isEqualTo("42");
  }

  @ParameterizedTest
  @CsvSource({
    "1.50, 1.5",
    "2.000, 2",
    "0.000, 0",
    "-0.00, 0",
    "1E+3, 1000",
    "123456789012345678901234567890.123456789, 123456789012345678901234567890.123456789",
    "-0.0001200, -0.00012",
    "100, 100"
  })
  void decimalsArePlainWithoutTrailingFractionalZeros(String input, String expected) {
    // Given a decimal of some scale
    BigDecimal value = new BigDecimal(input);

    // When it is made canonical
    String text = CanonicalValues.canonical(LogicalType.DECIMAL, value);

    // Then it is in plain notation without trailing fractional zeros
    assertThat(text).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"NaN, NaN", "Infinity, Infinity", "-Infinity, -Infinity", "' 1.50', 1.5"})
  void decimalsGivenAsTextKeepPostgresSpecialValues(String input, String expected) {
    // Given a decimal delivered as text (PostgreSQL numeric special values, string mode)
    // When it is made canonical
    // Then special values are spelled as floats spell them, numbers as decimals
    assertThat(CanonicalValues.canonical(LogicalType.DECIMAL, input)).isEqualTo(expected);
  }

  @Test
  void decimalTextThatIsNotANumberIsRefused() {
    // Given text that is no decimal
    // When it is made canonical
    // Then it is refused naming the text
    assertThatThrownBy(() -> CanonicalValues.canonical(LogicalType.DECIMAL, "1,5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'1,5'");
  }

  @Test
  void realIsWrittenWithSinglePrecisionDigitsEvenWhenDeliveredAsDouble() {
    // Given 0.1 stored in a 4-byte float column, read as float or widened to double
    float stored = 0.1f;

    // When it is made canonical as REAL
    // Then both give the float's shortest decimal
    assertThat(CanonicalValues.canonical(LogicalType.REAL, stored)).isEqualTo("0.1");
    assertThat(CanonicalValues.canonical(LogicalType.REAL, (double) stored)).isEqualTo("0.1");
  }

  @Test
  void doubleHoldingAWidenedFloatShowsItsFullValue() {
    // Given 0.1f read from a double precision column (a real widened on its way there)
    // When it is made canonical as DOUBLE
    // Then the difference from 0.1 is visible
    assertThat(CanonicalValues.canonical(LogicalType.DOUBLE, (double) 0.1f))
        .isEqualTo("0.10000000149011612");
  }

  @Test
  void doubleSpecialValuesAreSpelledAndNegativeZeroIsZero() {
    // Given NaN, both infinities and -0
    // When they are made canonical
    // Then they read NaN, Infinity, -Infinity, 0
    assertThat(CanonicalValues.canonical(LogicalType.DOUBLE, Double.NaN)).isEqualTo("NaN");
    assertThat(CanonicalValues.canonical(LogicalType.DOUBLE, Double.POSITIVE_INFINITY))
        .isEqualTo("Infinity");
    assertThat(CanonicalValues.canonical(LogicalType.DOUBLE, Double.NEGATIVE_INFINITY))
        .isEqualTo("-Infinity");
    assertThat(CanonicalValues.canonical(LogicalType.DOUBLE, -0.0d)).isEqualTo("0");
  }

  @Test
  void booleanAndTinyintOneAgree() {
    // Given PostgreSQL booleans and MariaDB tinyint(1) values 1 and 0
    // When they are made canonical
    // Then true and 1 are "1", false and 0 are "0"
    assertThat(CanonicalValues.canonical(LogicalType.BOOLEAN, true)).isEqualTo("1");
    assertThat(CanonicalValues.canonical(LogicalType.BOOLEAN, (byte) 1)).isEqualTo("1");
    assertThat(CanonicalValues.canonical(LogicalType.BOOLEAN, false)).isEqualTo("0");
    assertThat(CanonicalValues.canonical(LogicalType.BOOLEAN, 0)).isEqualTo("0");
  }

  @Test
  void tinyintOneHoldingAnotherNumberStaysVisible() {
    // Given a MariaDB tinyint(1) holding 5 (JDBC getBoolean would say true)
    // When it is made canonical as BOOLEAN
    // Then it is 5, which differs from a true boolean
    assertThat(CanonicalValues.canonical(LogicalType.BOOLEAN, 5)).isEqualTo("5");
  }

  @Test
  void trailingBlanksAreIgnoredLeadingBlanksKept() {
    // Given char(n) padding and a leading blank
    // When they are made canonical
    // Then trailing blanks go, leading ones and other white space stay
    assertThat(CanonicalValues.canonical(LogicalType.CHAR, "ab   ")).isEqualTo("ab");
    assertThat(CanonicalValues.canonical(LogicalType.VARCHAR, " ab")).isEqualTo(" ab");
    assertThat(CanonicalValues.canonical(LogicalType.TEXT, "ab\t")).isEqualTo("ab\t");
    assertThat(CanonicalValues.canonical(LogicalType.CHAR, "   ")).isEmpty();
  }

  @Test
  void textIsNotUnicodeNormalised() {
    // Given é precomposed and e + combining acute accent
    String precomposed = "\u00e9";
    String combining = "e\u0301";

    // When both are made canonical
    // Then they stay different, as in the databases
    assertThat(CanonicalValues.canonical(LogicalType.TEXT, precomposed))
        .isNotEqualTo(CanonicalValues.canonical(LogicalType.TEXT, combining));
  }

  @Test
  void binaryIsLowercaseHexFromArrayOrBuffer() {
    // Given bytes as an array and as a partly consumed buffer
    byte[] bytes = {0x00, (byte) 0xAB, 0x7F, (byte) 0xFF};
    ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 0x00, (byte) 0xAB, 0x7F, (byte) 0xFF});
    buffer.get();

    // When they are made canonical
    // Then both are the lowercase hex of the remaining bytes
    assertThat(CanonicalValues.canonical(LogicalType.BINARY, bytes)).isEqualTo("00ab7fff");
    assertThat(CanonicalValues.canonical(LogicalType.BINARY, buffer)).isEqualTo("00ab7fff");
  }

  @Test
  void uuidIsLowercaseWithDashesFromEveryRepresentation() {
    // Given one UUID as java.util.UUID, as uppercase CHAR(36) text and as BINARY(16) bytes
    UUID uuid = UUID.fromString("0e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b");
    ByteBuffer bytes = ByteBuffer.allocate(16);
    bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());

    // When each is made canonical
    // Then all give the lowercase dashed form
    String expected = "0e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
    assertThat(CanonicalValues.canonical(LogicalType.UUID, uuid)).isEqualTo(expected);
    assertThat(CanonicalValues.canonical(LogicalType.UUID, expected.toUpperCase()))
        .isEqualTo(expected);
    assertThat(CanonicalValues.canonical(LogicalType.UUID, bytes.array())).isEqualTo(expected);
  }

  @Test
  void uuidColumnHoldingOtherTextKeepsTheTextAsIs() {
    // Given a CHAR(36) column declared UUID that holds something else
    // When it is made canonical
    // Then the text is kept (case included), so it shows up as a difference
    assertThat(CanonicalValues.canonical(LogicalType.UUID, "Not-A-Uuid  ")).isEqualTo("Not-A-Uuid");
  }

  @Test
  void datesAreIsoWithFourDigitYears() {
    // Given dates in year 1, 2024 and 10000
    // When they are made canonical
    // Then years have four digits, extended years keep their sign
    assertThat(CanonicalValues.canonical(LogicalType.DATE, LocalDate.of(1, 2, 3)))
        .isEqualTo("0001-02-03");
    assertThat(CanonicalValues.canonical(LogicalType.DATE, LocalDate.of(2024, 2, 29)))
        .isEqualTo("2024-02-29");
    assertThat(CanonicalValues.canonical(LogicalType.DATE, LocalDate.of(10000, 1, 1)))
        .isEqualTo("+10000-01-01");
  }

  @Test
  void postgresInfinityDatesAreSpelledLikeFloats() {
    // Given the driver's representations of infinity and -infinity
    // When they are made canonical
    // Then they read Infinity and -Infinity
    assertThat(CanonicalValues.canonical(LogicalType.DATE, LocalDate.MAX)).isEqualTo("Infinity");
    assertThat(CanonicalValues.canonical(LogicalType.TIMESTAMP, LocalDateTime.MIN))
        .isEqualTo("-Infinity");
    assertThat(CanonicalValues.canonical(LogicalType.TIMESTAMP_TZ, OffsetDateTime.MAX))
        .isEqualTo("Infinity");
  }

  @ParameterizedTest
  @CsvSource({
    "10:15:30, 10:15:30",
    "10:15:30.5, 10:15:30.5",
    "10:15:30.123456, 10:15:30.123456",
    "00:00:00.000001, 00:00:00.000001",
    "23:59:59.999999999, 23:59:59.999999999"
  })
  void timesDropTrailingFractionalZeros(String input, String expected) {
    // Given a time of day
    LocalTime time = LocalTime.parse(input);

    // When it is made canonical
    String text = CanonicalValues.canonical(LogicalType.TIME, time);

    // Then the fraction has no trailing zeros and is absent when zero
    assertThat(text).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({
    "24:00:00, 24:00:00",
    "-01:30:00.500000, -01:30:00.5",
    "838:59:59, 838:59:59",
    "7:05:09, 07:05:09"
  })
  void timesOutsideADayComeAsTextOrDuration(String input, String expected) {
    // Given PostgreSQL 24:00:00 or a MariaDB TIME duration, as text
    // When it is made canonical
    // Then it keeps its sign and hours, same as the equal Duration
    assertThat(CanonicalValues.canonical(LogicalType.TIME, input)).isEqualTo(expected);
    assertThat(CanonicalValues.canonical(LogicalType.TIME, CanonicalTextParser.time(input)))
        .isEqualTo(expected);
  }

  @Test
  void timeOfDayAsLocalTimeAndAsDurationAgree() {
    // Given 10:15:30.25 as LocalTime (JDBC) and as a Duration since midnight (micros in an event)
    LocalTime time = LocalTime.of(10, 15, 30, 250_000_000);
    Duration sinceMidnight = Duration.ofNanos(time.toNanoOfDay());

    // When both are made canonical
    // Then the texts are equal
    assertThat(CanonicalValues.canonical(LogicalType.TIME, sinceMidnight))
        .isEqualTo(CanonicalValues.canonical(LogicalType.TIME, time))
        .isEqualTo("10:15:30.25");
  }

  @Test
  void timeTextThatIsNoTimeIsRefused() {
    // Given text that is no time
    // When it is made canonical
    // Then it is refused
    assertThatThrownBy(() -> CanonicalValues.canonical(LogicalType.TIME, "10:61:00"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void timestampsHaveASpaceAndNoTrailingFractionalZeros() {
    // Given timestamps with 0, 3 and 6 fractional digits
    // When they are made canonical
    // Then trailing zeros are dropped
    assertThat(
            CanonicalValues.canonical(LogicalType.TIMESTAMP, LocalDateTime.of(2024, 1, 2, 3, 4, 5)))
        .isEqualTo("2024-01-02 03:04:05");
    assertThat(
            CanonicalValues.canonical(
                LogicalType.TIMESTAMP, LocalDateTime.of(2024, 1, 2, 3, 4, 5, 120_000_000)))
        .isEqualTo("2024-01-02 03:04:05.12");
    assertThat(
            CanonicalValues.canonical(
                LogicalType.TIMESTAMP, LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000)))
        .isEqualTo("2024-01-02 03:04:05.123456");
  }

  @Test
  void timestampWithTimeZoneIsConvertedToUtcWhateverItsOffset() {
    // Given one instant as Instant, as OffsetDateTime at +05:30 and as ZonedDateTime in New York
    Instant instant = Instant.parse("2024-03-10T07:30:00.000001Z");
    OffsetDateTime india = instant.atOffset(ZoneOffset.ofHoursMinutes(5, 30));
    ZonedDateTime newYork = instant.atZone(ZoneId.of("America/New_York"));

    // When each is made canonical
    // Then all give the UTC timestamp
    String expected = "2024-03-10 07:30:00.000001";
    assertThat(CanonicalValues.canonical(LogicalType.TIMESTAMP_TZ, instant)).isEqualTo(expected);
    assertThat(CanonicalValues.canonical(LogicalType.TIMESTAMP_TZ, india)).isEqualTo(expected);
    assertThat(CanonicalValues.canonical(LogicalType.TIMESTAMP_TZ, newYork)).isEqualTo(expected);
  }

  @Test
  void localDateTimeGivenForATimestampWithTimeZoneIsTakenAsUtc() {
    // Given a MariaDB DATETIME standing in for a timestamptz, holding UTC wall time
    LocalDateTime utc = LocalDateTime.of(2024, 3, 10, 7, 30);

    // When it is made canonical as TIMESTAMP_TZ
    // Then it equals the instant written in UTC
    assertThat(CanonicalValues.canonical(LogicalType.TIMESTAMP_TZ, utc))
        .isEqualTo(
            CanonicalValues.canonical(LogicalType.TIMESTAMP_TZ, utc.toInstant(ZoneOffset.UTC)));
  }

  @Test
  void aValueOfTheWrongJavaTypeIsRefusedNamingTypeAndClass() {
    // Given a Long where a date is expected (a reader bug)
    // When it is made canonical
    // Then it is refused, not silently turned into text
    assertThatThrownBy(() -> CanonicalValues.canonical(LogicalType.DATE, 19000L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DATE")
        .hasMessageContaining("java.lang.Long");
  }
}
