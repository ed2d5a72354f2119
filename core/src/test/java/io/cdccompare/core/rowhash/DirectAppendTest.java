package io.cdccompare.core.rowhash;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The allocation-free append path writes exactly what {@link CanonicalValues#canonical} returns.
 */
class DirectAppendTest {

  private static String appended(LogicalType type, Object value) {
    StringBuilder out = new StringBuilder("x");
    CanonicalValues.appendTo(type, value, out);
    return out.substring(1);
  }

  @Test
  void decimalsAppendAsTheyCanonicalise() {
    // Given random decimals of every scale from -3 to 20, some beyond a long's digits
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 20_000; i++) {
      BigInteger unscaled =
          i % 3 == 0
              ? BigInteger.valueOf(random.nextLong())
              : BigInteger.valueOf(
                  random.nextLong(-100_000, 100_000) * (long) Math.pow(10, random.nextInt(6)));
      if (i % 17 == 0) {
        unscaled = unscaled.multiply(BigInteger.TEN.pow(5));
      }
      BigDecimal value = new BigDecimal(unscaled, random.nextInt(-3, 21));

      // When it is appended
      // Then the text is the canonical one
      assertThat(appended(LogicalType.DECIMAL, value))
          .as(value.toString())
          .isEqualTo(CanonicalValues.canonical(LogicalType.DECIMAL, value));
    }
  }

  @Test
  void timestampsWithTimeZoneAppendAsTheyCanonicalise() {
    // Given random instants at random offsets, UTC among them
    SplittableRandom random = new SplittableRandom(6);
    for (int i = 0; i < 5_000; i++) {
      LocalDateTime local =
          LocalDateTime.ofEpochSecond(
              random.nextLong(-30_000_000_000L, 250_000_000_000L),
              random.nextInt(1_000_000_000),
              ZoneOffset.UTC);
      ZoneOffset offset =
          i % 2 == 0
              ? ZoneOffset.UTC
              : ZoneOffset.ofTotalSeconds(random.nextInt(-18 * 3600, 18 * 3600));
      OffsetDateTime value = OffsetDateTime.of(local, offset);

      // When it is appended
      // Then the text is the canonical one
      assertThat(appended(LogicalType.TIMESTAMP_TZ, value))
          .isEqualTo(CanonicalValues.canonical(LogicalType.TIMESTAMP_TZ, value));
      assertThat(appended(LogicalType.TIMESTAMP, local))
          .isEqualTo(CanonicalValues.canonical(LogicalType.TIMESTAMP, local));
    }
  }

  @Test
  void doublesAppendAsTheyCanonicalise() {
    // Given random doubles: random bits, short decimals, tiny and huge magnitudes
    SplittableRandom random = new SplittableRandom(8);
    for (int i = 0; i < 20_000; i++) {
      double value =
          switch (i % 3) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> random.nextLong(-1_000_000, 1_000_000) / Math.pow(10, random.nextInt(10));
            default -> random.nextDouble() * Math.pow(10, random.nextInt(-30, 30));
          };

      // When it is appended
      // Then the text is the canonical one, and reads back to the value
      String text = appended(LogicalType.DOUBLE, value);
      assertThat(text).isEqualTo(CanonicalValues.canonical(LogicalType.DOUBLE, value));
      if (Double.isFinite(value)) {
        assertThat(Double.parseDouble(text)).isEqualTo(value == 0 ? 0.0 : value);
      }
    }
  }

  @Test
  void integersAppendAsTheyCanonicalise() {
    // Given integers of every Java type
    // When they are appended
    // Then the text is the canonical one
    for (Object value :
        new Object[] {
          (short) -5, 7, Long.MIN_VALUE, new BigInteger("99999999999999999999"), (byte) 3
        }) {
      assertThat(appended(LogicalType.BIGINT, value))
          .isEqualTo(CanonicalValues.canonical(LogicalType.BIGINT, value));
    }
  }
}
