package io.cdccompare.jdbc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * The logical rows of the parity suite: edge values of every type that both databases can hold, and
 * random rows from a fixed seed.
 */
final class ParityRows {

  /** Characters that tell encodings, padding and separators apart. */
  private static final String[] PIECES = {
    "a", "Z", "0", " ", ",", "\\", "N", "é", "e\u0301", "ß", "İ", "中", "😀", "\t", "'", "\"", "\n"
  };

  private static final Instant MIN_TIMESTAMP = Instant.parse("1970-01-02T00:00:00Z");
  private static final Instant MAX_TIMESTAMP = Instant.parse("2038-01-18T00:00:00Z");

  private ParityRows() {}

  static ParityRow typical(long id) {
    return new ParityRow(
        id,
        List.of(
            (short) 12,
            1234,
            9_876_543_210L,
            new BigDecimal("1234.50"),
            new BigDecimal("3.141593"),
            new BigDecimal("12345678901234567890"),
            0.1f,
            0.1d,
            true,
            "fixed",
            "Ana María",
            "texte libre",
            new byte[] {1, 2, 3},
            new byte[] {(byte) 0xca, (byte) 0xfe},
            UUID.fromString("0e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b"),
            UUID.fromString("abcdef01-2345-4789-abcd-ef0123456789"),
            "{\"b\": 1, \"a\": [true, null, 1.50]}",
            "{ \"z\" : \"x\" , \"a\" : 1e2 }",
            LocalDate.of(2024, 2, 29),
            "13:45:30.123456",
            LocalDateTime.of(2024, 3, 31, 2, 30, 0),
            LocalDateTime.of(2024, 3, 31, 2, 30, 0, 123_000_000),
            LocalDateTime.of(2024, 3, 31, 2, 30, 0, 123_456_000),
            Instant.parse("2024-10-27T00:30:00.000001Z"),
            Instant.parse("1999-12-31T23:59:59.999999Z")));
  }

  /** Edge values, each in a row of its own so that a failure names the case. */
  static List<ParityRow> edges() {
    List<ParityRow> rows = new ArrayList<>();
    long id = 1;
    rows.add(ParityRow.allNull(id++));
    rows.add(typical(id++));
    Object[][] cases = {
      {"c_smallint", Short.MIN_VALUE},
      {"c_smallint", Short.MAX_VALUE},
      {"c_int", Integer.MIN_VALUE},
      {"c_int", Integer.MAX_VALUE},
      {"c_bigint", Long.MIN_VALUE},
      {"c_bigint", Long.MAX_VALUE},
      {"c_bigint", 0L},
      {"c_dec2", new BigDecimal("0.00")},
      {"c_dec2", new BigDecimal("-0.01")},
      {"c_dec2", new BigDecimal("9999999999.99")},
      {"c_dec2", new BigDecimal("10.10")},
      {"c_dec6", new BigDecimal("-0.000001")},
      {"c_dec6", new BigDecimal("100.000000")},
      {"c_dec0", new BigDecimal("-99999999999999999999")},
      {"c_dec0", BigDecimal.ZERO},
      {"c_real", 1.2345678f},
      {"c_real", Float.MAX_VALUE},
      {"c_real", -Float.MIN_NORMAL},
      {"c_real", 16777217f},
      {"c_real", -0.0f},
      {"c_real", 3.0e-38f},
      {"c_double", 0.30000000000000004},
      {"c_double", Double.MAX_VALUE},
      {"c_double", -Double.MIN_NORMAL},
      {"c_double", 1e-300},
      {"c_double", -0.0d},
      {"c_double", 2e23},
      {"c_double", 123456789012345678d},
      {"c_bool", false},
      {"c_char", ""},
      {"c_char", "   "},
      {"c_char", " lead"},
      {"c_char", "twelve chars"},
      {"c_char", "N"},
      {"c_varchar", ""},
      {"c_varchar", "trailing   "},
      {"c_varchar", "  lead"},
      {"c_varchar", "a,b"},
      {"c_varchar", "back\\slash"},
      {"c_varchar", "MiXeD CaSe"},
      {"c_varchar", "José"},
      {"c_varchar", "Jose\u0301"},
      {"c_varchar", "😀 emoji 👍🏽"},
      {"c_varchar", "tab\tend\t"},
      {"c_varchar", "line\nbreak"},
      {"c_text", "中文 العربية русский"},
      {"c_text", "x".repeat(5000)},
      {"c_bytes", new byte[0]},
      {"c_bytes", new byte[] {0}},
      {"c_bytes", new byte[] {(byte) 0xff, 0, 0}},
      {"c_blob", new byte[4096]},
      {"c_uuid", new UUID(0, 0)},
      {"c_uuid", new UUID(-1, -1)},
      {"c_uuid_char", UUID.fromString("ffffffff-0000-4000-8000-00000000000a")},
      {"c_jsonb", "{}"},
      {"c_jsonb", "[]"},
      {"c_jsonb", "\"N\""},
      {"c_jsonb", "null"},
      {"c_jsonb", "{\"a\":1,\"a\":2}"},
      {"c_jsonb", "{\"k\": \"\\u00e9\\/\\\"\"}"},
      {"c_jsonb", "{\"n\": [1.0, -0, 1E+2, 0.000100, 12345678901234567890.5]}"},
      {"c_jsonb", "{\"😀\": 1, \"～\": 2, \"\": 3, \"a\": {\"c\": {}, \"b\": []}}"},
      {"c_json", "  [1, 2 ,3]  "},
      {"c_json", "{\"b\":{\"d\":1,\"c\":2},\"a\":\"x\"}"},
      {"c_date", LocalDate.of(1000, 1, 1)},
      {"c_date", LocalDate.of(9999, 12, 31)},
      {"c_date", LocalDate.of(1970, 1, 1)},
      {"c_time", "00:00:00"},
      {"c_time", "23:59:59.999999"},
      {"c_time", "24:00:00"},
      {"c_time", "12:00:00.000001"},
      {"c_ts0", LocalDateTime.of(1000, 1, 1, 0, 0)},
      {"c_ts0", LocalDateTime.of(9999, 12, 31, 23, 59, 59)},
      {"c_ts3", LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1_000_000)},
      {"c_ts6", LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1_000)},
      {"c_ts6", LocalDateTime.of(2024, 10, 27, 2, 30, 0, 999_999_000)},
      {"c_tstz", Instant.parse("1970-01-01T00:00:01Z")},
      {"c_tstz", Instant.parse("2038-01-19T03:14:07.999999Z")},
      {"c_tstz", Instant.parse("2024-10-27T01:30:00Z")},
      {"c_tstz", Instant.parse("2024-03-31T01:00:00.5Z")},
      {"c_tstz_utc", Instant.parse("1000-01-01T00:00:00Z")},
      {"c_tstz_utc", Instant.parse("9999-12-31T23:59:59.999999Z")}
    };
    for (Object[] edge : cases) {
      rows.add(typical(id++).with((String) edge[0], edge[1]));
    }
    return rows;
  }

  /** {@code count} random rows with ids from {@code firstId}, the same for a given seed. */
  static List<ParityRow> random(long seed, long firstId, int count) {
    SplittableRandom random = new SplittableRandom(seed);
    List<ParityRow> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(randomRow(random, firstId + i));
    }
    return rows;
  }

  private static ParityRow randomRow(SplittableRandom r, long id) {
    List<Object> values = new ArrayList<>();
    values.add(nullOr(r, (short) r.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1)));
    values.add(nullOr(r, r.nextInt()));
    values.add(nullOr(r, r.nextLong()));
    values.add(nullOr(r, BigDecimal.valueOf(r.nextLong(-999_999_999_999L, 1_000_000_000_000L), 2)));
    values.add(nullOr(r, BigDecimal.valueOf(r.nextLong(), 6)));
    values.add(
        nullOr(
            r,
            new BigDecimal(new BigInteger(66, new java.util.Random(r.nextLong())))
                .remainder(new BigDecimal("100000000000000000000"))));
    values.add(nullOr(r, randomFloat(r)));
    values.add(nullOr(r, randomDouble(r)));
    values.add(nullOr(r, r.nextBoolean()));
    values.add(nullOr(r, randomText(r, 12)));
    values.add(nullOr(r, randomText(r, 40)));
    values.add(nullOr(r, randomText(r, 200)));
    values.add(nullOr(r, randomBytes(r, 64)));
    values.add(nullOr(r, randomBytes(r, 300)));
    values.add(nullOr(r, randomUuid(r)));
    values.add(nullOr(r, new UUID(r.nextLong(), r.nextLong())));
    values.add(nullOr(r, RandomJson.document(r)));
    values.add(nullOr(r, RandomJson.document(r)));
    values.add(
        nullOr(
            r,
            LocalDate.ofEpochDay(
                r.nextLong(
                    LocalDate.of(1000, 1, 1).toEpochDay(),
                    LocalDate.of(9999, 12, 31).toEpochDay()))));
    values.add(nullOr(r, randomTime(r)));
    values.add(nullOr(r, randomDateTime(r).truncatedTo(ChronoUnit.SECONDS)));
    values.add(nullOr(r, randomDateTime(r).truncatedTo(ChronoUnit.MILLIS)));
    values.add(nullOr(r, randomDateTime(r)));
    values.add(nullOr(r, randomInstant(r, MIN_TIMESTAMP, MAX_TIMESTAMP)));
    values.add(
        nullOr(
            r,
            randomInstant(
                r, Instant.parse("1000-01-01T00:00:00Z"), Instant.parse("9999-12-31T00:00:00Z"))));
    return new ParityRow(id, values);
  }

  private static Object nullOr(SplittableRandom r, Object value) {
    return r.nextInt(10) == 0 ? null : value;
  }

  private static float randomFloat(SplittableRandom r) {
    float value;
    do {
      value =
          r.nextBoolean()
              ? Float.intBitsToFloat(r.nextInt())
              : (float) (r.nextInt(2_000_000) / 1000.0);
    } while (!Float.isFinite(value) || Math.abs(value) < Float.MIN_NORMAL && value != 0);
    return value;
  }

  private static double randomDouble(SplittableRandom r) {
    double value;
    do {
      value =
          r.nextBoolean()
              ? Double.longBitsToDouble(r.nextLong())
              : r.nextLong(-10_000_000, 10_000_000) / 100.0;
    } while (!Double.isFinite(value) || Math.abs(value) < Double.MIN_NORMAL && value != 0);
    return value;
  }

  static String randomText(SplittableRandom r, int maxChars) {
    StringBuilder text = new StringBuilder();
    int chars = r.nextInt(maxChars + 1);
    for (int i = 0; i < chars; i++) {
      String piece = PIECES[r.nextInt(PIECES.length)];
      if (text.codePointCount(0, text.length()) + piece.codePointCount(0, piece.length())
          > maxChars) {
        break;
      }
      text.append(piece);
    }
    return text.toString();
  }

  /** A version 4 UUID: MariaDB's UUID type refuses some other bit patterns. */
  private static UUID randomUuid(SplittableRandom r) {
    long msb = (r.nextLong() & ~0xF000L) | 0x4000L;
    long lsb = (r.nextLong() & ~(0xC000_0000_0000_0000L)) | 0x8000_0000_0000_0000L;
    return new UUID(msb, lsb);
  }

  private static byte[] randomBytes(SplittableRandom r, int maxLength) {
    byte[] bytes = new byte[r.nextInt(maxLength + 1)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) r.nextInt(256);
    }
    return bytes;
  }

  private static String randomTime(SplittableRandom r) {
    long micros = r.nextLong(86_400_000_000L);
    return String.format(
        "%02d:%02d:%02d.%06d",
        micros / 3_600_000_000L,
        micros / 60_000_000 % 60,
        micros / 1_000_000 % 60,
        micros % 1_000_000);
  }

  private static LocalDateTime randomDateTime(SplittableRandom r) {
    long start = LocalDateTime.of(1000, 1, 1, 0, 0).toEpochSecond(java.time.ZoneOffset.UTC);
    long end = LocalDateTime.of(9999, 12, 31, 0, 0).toEpochSecond(java.time.ZoneOffset.UTC);
    return LocalDateTime.ofEpochSecond(
        r.nextLong(start, end), r.nextInt(1_000_000) * 1_000, java.time.ZoneOffset.UTC);
  }

  private static Instant randomInstant(SplittableRandom r, Instant from, Instant to) {
    return Instant.ofEpochSecond(
        r.nextLong(from.getEpochSecond(), to.getEpochSecond()), r.nextInt(1_000_000) * 1_000L);
  }
}
