package io.cdccompare.core.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.rowhash.LogicalType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class KeyCodecTest {

  @Test
  void singleIntegerKeyIsItsDecimalText() {
    // Given a bigint key
    KeyCodec codec = new KeyCodec(List.of(LogicalType.BIGINT));

    // When it is encoded
    // Then it is the plain number
    assertThat(codec.encode(List.of(42L))).isEqualTo("42");
  }

  @Test
  void compositeKeysWithSeparatorsAreNeverAmbiguous() {
    // Given two composite text keys that a plain join would confuse
    KeyCodec codec = new KeyCodec(List.of(LogicalType.VARCHAR, LogicalType.VARCHAR));

    // When both are encoded
    String first = codec.encode(List.of("a,b", "c"));
    String second = codec.encode(List.of("a", "b,c"));

    // Then the encodings differ and each decodes to its own values
    assertThat(first).isEqualTo("a\\,b,c").isNotEqualTo(second);
    assertThat(codec.decodeTexts(first)).containsExactly("a,b", "c");
    assertThat(codec.decodeTexts(second)).containsExactly("a", "b,c");
  }

  @Test
  void backslashesRoundTrip() {
    // Given key values ending in a backslash and holding an escaped comma sequence
    KeyCodec codec = new KeyCodec(List.of(LogicalType.TEXT, LogicalType.TEXT));
    List<String> values = List.of("a\\", "\\,b");

    // When encoded and decoded
    String encoded = codec.encode(values);

    // Then the values come back exactly
    assertThat(codec.decodeTexts(encoded)).isEqualTo(values);
  }

  @Test
  void textKeysKeepTrailingBlanks() {
    // Given varchar keys 'a ' and 'a', two rows in PostgreSQL
    KeyCodec codec = new KeyCodec(List.of(LogicalType.VARCHAR));

    // When both are encoded
    // Then they stay two keys
    assertThat(codec.encode(List.of("a "))).isNotEqualTo(codec.encode(List.of("a")));
  }

  @Test
  void emptyTextKeyDecodesToOneEmptyValue() {
    // Given the empty string as a one-column key
    KeyCodec codec = new KeyCodec(List.of(LogicalType.TEXT));

    // When encoded and decoded
    // Then one empty value comes back
    assertThat(codec.decode(codec.encode(List.of("")))).containsExactly("");
  }

  @Test
  void everyKeyTypeDecodesIntoATypedBindValue() {
    // Given a key of every bindable type, as a JDBC driver reads them
    List<LogicalType> types =
        List.of(
            LogicalType.INTEGER,
            LogicalType.BIGINT,
            LogicalType.DECIMAL,
            LogicalType.REAL,
            LogicalType.DOUBLE,
            LogicalType.BOOLEAN,
            LogicalType.CHAR,
            LogicalType.BINARY,
            LogicalType.UUID,
            LogicalType.DATE,
            LogicalType.TIME,
            LogicalType.TIMESTAMP,
            LogicalType.TIMESTAMP_TZ);
    UUID uuid = UUID.randomUUID();
    List<Object> read =
        Arrays.asList(
            7,
            new BigDecimal("18446744073709551615"),
            new BigDecimal("12.340"),
            0.1f,
            0.1d,
            true,
            "ab ",
            new byte[] {1, (byte) 0xfe},
            uuid,
            LocalDate.of(2024, 2, 29),
            LocalTime.of(23, 59, 59, 999_999_000),
            LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_000),
            OffsetDateTime.of(2024, 1, 1, 5, 30, 0, 0, ZoneOffset.ofHoursMinutes(5, 30)));
    KeyCodec codec = new KeyCodec(types);

    // When the key is encoded and decoded
    List<Object> bind = codec.decode(codec.encode(read));

    // Then each value comes back as the type a driver binds, equal to what was read
    assertThat(bind.get(0)).isEqualTo(7L);
    assertThat(bind.get(1)).isEqualTo(new BigDecimal("18446744073709551615"));
    assertThat(bind.get(2)).isEqualTo(new BigDecimal("12.34"));
    assertThat(bind.get(3)).isEqualTo(0.1f);
    assertThat(bind.get(4)).isEqualTo(0.1d);
    assertThat(bind.get(5)).isEqualTo(true);
    assertThat(bind.get(6)).isEqualTo("ab ");
    assertThat((byte[]) bind.get(7)).containsExactly(1, (byte) 0xfe);
    assertThat(bind.get(8)).isEqualTo(uuid);
    assertThat(bind.get(9)).isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(bind.get(10)).isEqualTo(LocalTime.of(23, 59, 59, 999_999_000));
    assertThat(bind.get(11)).isEqualTo(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_000));
    assertThat(bind.get(12)).isEqualTo(OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
  }

  @Test
  void encodedKeyOfOneInstantIsTheSameWhateverTheOffsetRead() {
    // Given one instant read at two offsets
    KeyCodec codec = new KeyCodec(List.of(LogicalType.TIMESTAMP_TZ));
    OffsetDateTime utc = OffsetDateTime.of(2024, 6, 1, 12, 0, 0, 0, ZoneOffset.UTC);

    // When both are encoded
    // Then the keys are equal
    assertThat(codec.encode(List.of(utc.withOffsetSameInstant(ZoneOffset.ofHours(-8)))))
        .isEqualTo(codec.encode(List.of(utc)))
        .isEqualTo("2024-06-01 12:00:00");
  }

  @Test
  void timeOutsideADayDecodesToItsText() {
    // Given PostgreSQL's 24:00:00 as a key
    KeyCodec codec = new KeyCodec(List.of(LogicalType.TIME));

    // When decoded
    // Then the text is bound, as no LocalTime holds it
    assertThat(codec.decode("24:00:00")).containsExactly("24:00:00");
  }

  @Test
  void nullKeyValueIsRefused() {
    // Given a composite key with a NULL part
    KeyCodec codec = new KeyCodec(List.of(LogicalType.BIGINT, LogicalType.TEXT));

    // When it is encoded
    // Then it is refused naming the column position
    assertThatThrownBy(() -> codec.encode(Arrays.asList(1L, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key column 2 is NULL");
  }

  @Test
  void keyWithTheWrongNumberOfValuesIsRefused() {
    // Given a two-column codec
    KeyCodec codec = new KeyCodec(List.of(LogicalType.BIGINT, LogicalType.BIGINT));

    // When a one-value key is decoded
    // Then it is refused
    assertThatThrownBy(() -> codec.decode("1")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void keyEndingInsideAnEscapeIsRefused() {
    // Given an encoded key ending with a lone backslash
    KeyCodec codec = new KeyCodec(List.of(LogicalType.TEXT));

    // When decoded
    // Then it is refused
    assertThatThrownBy(() -> codec.decode("abc\\")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void jsonCannotBeAKey() {
    // Given a JSON key column
    // When a codec is made
    // Then it is refused
    assertThatThrownBy(() -> new KeyCodec(List.of(LogicalType.JSON)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("JSON");
  }
}
