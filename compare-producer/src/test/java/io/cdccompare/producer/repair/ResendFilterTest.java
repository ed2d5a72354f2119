package io.cdccompare.producer.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.repair.ResendFilter.KeyColumn;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResendFilterTest {
  private static final TableName T = new TableName("public", "t");
  private static final KeyColumn ID = new KeyColumn("id", LogicalType.INTEGER, "integer");
  private static final KeyColumn NAME = new KeyColumn("na\"me", LogicalType.TEXT, "text");

  @Test
  void aSingleColumnKeyListIsOneTypedInList() {
    // When
    String sql = ResendFilter.of(T, List.of(ID), List.of("1", "22"));

    // Then
    assertThat(sql).isEqualTo("(\"id\") IN ((CAST(E'1' AS integer)), (CAST(E'22' AS integer)))");
  }

  @Test
  void aCompositeKeyIsDecodedAndEachValueCastToItsColumnType() {
    // When: the text holds a comma (escaped in the key), a quote and a backslash
    String sql = ResendFilter.of(T, List.of(NAME, ID), List.of("a\\,b,1", "it's \\\\x,2"));

    // Then
    assertThat(sql)
        .isEqualTo(
            "(\"na\"\"me\", \"id\") IN ((CAST(E'a,b' AS text), CAST(E'1' AS integer)),"
                + " (CAST(E'it''s \\\\x' AS text), CAST(E'2' AS integer)))");
  }

  @Test
  void byteaIsDecodedFromHexAndTimestampTzGetsItsUtcOffset() {
    // Given
    KeyColumn bytes = new KeyColumn("b", LogicalType.BINARY, "bytea");
    KeyColumn tz = new KeyColumn("z", LogicalType.TIMESTAMP_TZ, "timestamp with time zone");

    // When
    String sql = ResendFilter.of(T, List.of(bytes, tz), List.of("00ff,2024-06-01 10:00:00.5"));

    // Then
    assertThat(sql)
        .isEqualTo(
            "(\"b\", \"z\") IN ((decode(E'00ff', 'hex'),"
                + " CAST(E'2024-06-01 10:00:00.5+00' AS timestamp with time zone)))");
  }

  @Test
  void yearsOutsideOneToNineThousandNineHundredNinetyNineAreWrittenForPostgres() {
    // Given
    KeyColumn date = new KeyColumn("d", LogicalType.DATE, "date");
    KeyColumn ts = new KeyColumn("s", LogicalType.TIMESTAMP, "timestamp without time zone");

    // When / Then
    assertThat(ResendFilter.value(T, "k", date, "-0043-03-15"))
        .isEqualTo("CAST(E'0044-03-15 BC' AS date)");
    assertThat(ResendFilter.value(T, "k", ts, "0000-01-01 00:00:00"))
        .isEqualTo("CAST(E'0001-01-01 00:00:00 BC' AS timestamp without time zone)");
    assertThat(ResendFilter.value(T, "k", date, "+10000-01-01"))
        .isEqualTo("CAST(E'10000-01-01' AS date)");
    assertThat(ResendFilter.value(T, "k", ts, "-Infinity"))
        .isEqualTo("CAST(E'-Infinity' AS timestamp without time zone)");
  }

  @Test
  void aNulCharacterIsRefusedNamingTableAndKey() {
    assertThatThrownBy(() -> ResendFilter.of(T, List.of(NAME, ID), List.of("a\0b,1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "table public.t: key 'a\\u0000b,1' cannot be re-sent: a NUL character cannot"
                + " be written in PostgreSQL");
  }

  @Test
  void aLoneSurrogateAndABadHexAndAWrongValueCountAreRefused() {
    KeyColumn bytes = new KeyColumn("b", LogicalType.BINARY, "bytea");
    assertThatThrownBy(() -> ResendFilter.of(T, List.of(NAME), List.of("x\uD800")))
        .hasMessageContaining("lone UTF-16 surrogate");
    assertThatThrownBy(() -> ResendFilter.of(T, List.of(bytes), List.of("0g")))
        .hasMessageContaining("table public.t: key '0g'")
        .hasMessageContaining("hex digits");
    assertThatThrownBy(() -> ResendFilter.of(T, List.of(NAME, ID), List.of("only-one")))
        .hasMessageContaining("table public.t: key 'only-one' cannot be re-sent");
  }

  @Test
  void theSignalNamesTheTableAsAnEscapedPatternInBothPlaces() {
    // When
    String json = KeyResend.signal(new TableName("my-schema", "t"), "(\"id\") IN ((1))");

    // Then
    assertThat(json)
        .isEqualTo(
            "{\"type\":\"incremental\",\"data-collections\":[\"my\\\\-schema\\\\.t\"],"
                + "\"additional-conditions\":[{\"data-collection\":\"my\\\\-schema\\\\.t\","
                + "\"filter\":\"(\\\"id\\\") IN ((1))\"}]}");
  }
}
