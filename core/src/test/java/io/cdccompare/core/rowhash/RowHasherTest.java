package io.cdccompare.core.rowhash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.rowhash.function.ColumnFunctionParser;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowHasherTest {

  private static final List<HashedColumn> ID_NAME_NOTE =
      List.of(
          HashedColumn.of("id", LogicalType.BIGINT),
          HashedColumn.of("name", LogicalType.VARCHAR),
          HashedColumn.of("note", LogicalType.TEXT));

  private static RowHasher compatible(List<HashedColumn> columns) {
    return new RowHasher(columns, CanonicalFormat.COMPATIBLE, HashFunction.md5());
  }

  private static RowHasher strict(List<HashedColumn> columns) {
    return new RowHasher(columns, CanonicalFormat.STRICT, HashFunction.md5());
  }

  @Test
  void compatibleHashIsMd5HexOfTheCommaJoinedTexts() {
    // Given a row 1, NULL, 'abc'
    RowHasher hasher = compatible(ID_NAME_NOTE);

    // When it is hashed
    RowHash hash = hasher.hash(1L, null, "abc");

    // Then the text is 1,N,abc and the hash its MD5 (computed independently)
    assertThat(hasher.canonicalText(1L, null, "abc")).isEqualTo("1,N,abc");
    assertThat(hash.hex()).isEqualTo("e2d73e989d99e79015cb41347a41a3b2");
  }

  @Test
  void digestIsTheHashAsRawBytes() {
    // Given a row 1, NULL, 'abc'
    RowHasher hasher = compatible(ID_NAME_NOTE);

    // When its digest is taken
    byte[] digest = hasher.digest(1L, null, "abc");

    // Then it is the bytes of the hex hash
    assertThat(java.util.HexFormat.of().formatHex(digest))
        .isEqualTo("e2d73e989d99e79015cb41347a41a3b2");
  }

  @Test
  void compatibleWritesNullAndEmptyAlike() {
    // Given a row with NULL and one with the empty string
    RowHasher hasher = compatible(ID_NAME_NOTE);

    // When both are hashed
    // Then they hash equal (the compatible format's documented rule)
    assertThat(hasher.hash(1L, "", "abc")).isEqualTo(hasher.hash(1L, null, "abc"));
  }

  @Test
  void compatibleFormatHasTheDocumentedAmbiguities() {
    // Given the value N against NULL, and a comma moved between two values
    RowHasher hasher = compatible(ID_NAME_NOTE);

    // When they are hashed
    // Then they collide, as docs/row-hash.md warns
    assertThat(hasher.hash(1L, "N", "x")).isEqualTo(hasher.hash(1L, null, "x"));
    assertThat(hasher.hash(1L, "a,b", "c")).isEqualTo(hasher.hash(1L, "a", "b,c"));
  }

  @Test
  void strictFormatEscapesSeparatorsAndWritesADistinctNull() {
    // Given a row with a comma, a backslash, NULL and the empty string
    RowHasher hasher =
        strict(
            List.of(
                HashedColumn.of("id", LogicalType.BIGINT),
                HashedColumn.of("a", LogicalType.TEXT),
                HashedColumn.of("b", LogicalType.TEXT),
                HashedColumn.of("c", LogicalType.TEXT)));

    // When its text is built
    String text = hasher.canonicalText(1L, "a,b", null, "");

    // Then , is escaped, NULL is \N and empty stays empty; the hash is MD5 of that text
    assertThat(text).isEqualTo("1,a\\,b,\\N,");
    assertThat(hasher.hash(1L, "a,b", null, "").hex())
        .isEqualTo("8a32e9ff24847e39b542c15647dc311d");
  }

  @Test
  void strictFormatSeparatesEmptyFromNull() {
    // Given rows differing only in empty versus NULL
    RowHasher hasher = strict(ID_NAME_NOTE);

    // When they are hashed
    // Then the hashes differ
    assertThat(hasher.hash(1L, "", "x")).isNotEqualTo(hasher.hash(1L, null, "x"));
  }

  @Test
  void strictFormatSeparatesTheCompatibleAmbiguities() {
    // Given the value N against NULL, and a comma moved between two values
    RowHasher hasher = strict(ID_NAME_NOTE);

    // When they are hashed
    // Then they differ
    assertThat(hasher.hash(1L, "N", "x")).isNotEqualTo(hasher.hash(1L, null, "x"));
    assertThat(hasher.hash(1L, "a,b", "c")).isNotEqualTo(hasher.hash(1L, "a", "b,c"));
    assertThat(hasher.hash(1L, "a\\", ",c")).isNotEqualTo(hasher.hash(1L, "a\\,", "c"));
  }

  @Test
  void caseDifferenceChangesTheHash() {
    // Given rows differing in the case of one letter
    RowHasher hasher = compatible(ID_NAME_NOTE);

    // When they are hashed
    // Then the hashes differ
    assertThat(hasher.hash(1L, "Anna", "x")).isNotEqualTo(hasher.hash(1L, "anna", "x"));
  }

  @Test
  void oneLeadingBlankChangesTheHashButTrailingBlanksDoNot() {
    // Given rows differing by a leading blank, and by trailing blanks
    RowHasher hasher = compatible(ID_NAME_NOTE);

    // When they are hashed
    // Then only the leading blank makes a difference
    assertThat(hasher.hash(1L, " Anna", "x")).isNotEqualTo(hasher.hash(1L, "Anna", "x"));
    assertThat(hasher.hash(1L, "Anna   ", "x")).isEqualTo(hasher.hash(1L, "Anna", "x"));
  }

  @Test
  void accentsChangeTheHash() {
    // Given rows differing by an accent
    RowHasher hasher = compatible(ID_NAME_NOTE);

    // When they are hashed
    // Then the hashes differ
    assertThat(hasher.hash(1L, "José", "x")).isNotEqualTo(hasher.hash(1L, "Jose", "x"));
  }

  @Test
  void oneMicrosecondChangesTheHash() {
    // Given timestamps one microsecond apart
    RowHasher hasher = compatible(List.of(HashedColumn.of("at", LogicalType.TIMESTAMP)));
    LocalDateTime at = LocalDateTime.of(2024, 5, 1, 12, 0, 0, 123_456_000);

    // When they are hashed
    // Then the hashes differ
    assertThat(hasher.hash(at)).isNotEqualTo(hasher.hash(at.plusNanos(1_000)));
  }

  @Test
  void oneUnitInTheLastDecimalPlaceChangesTheHash() {
    // Given decimals 10.05 and 10.06
    RowHasher hasher = compatible(List.of(HashedColumn.of("amount", LogicalType.DECIMAL)));

    // When they are hashed
    // Then the hashes differ, while 10.050 equals 10.05
    assertThat(hasher.hash(new BigDecimal("10.05")))
        .isNotEqualTo(hasher.hash(new BigDecimal("10.06")));
    assertThat(hasher.hash(new BigDecimal("10.050")))
        .isEqualTo(hasher.hash(new BigDecimal("10.05")));
  }

  @Test
  void oneUlpOfADoubleChangesTheHash() {
    // Given 0.1 and the next double up
    RowHasher hasher = compatible(List.of(HashedColumn.of("ratio", LogicalType.DOUBLE)));

    // When they are hashed
    // Then the hashes differ
    assertThat(hasher.hash(0.1d)).isNotEqualTo(hasher.hash(Math.nextUp(0.1d)));
  }

  @Test
  void nanDiffersFromNull() {
    // Given a NaN and a NULL double
    RowHasher hasher = compatible(List.of(HashedColumn.of("ratio", LogicalType.DOUBLE)));

    // When they are hashed
    // Then the hashes differ
    assertThat(hasher.hash(Double.NaN)).isNotEqualTo(hasher.hash((Object) null));
  }

  @Test
  void functionsApplyToTheCanonicalTextInOrder() {
    // Given a column with trim then upper, and a value with blanks
    RowHasher hasher =
        compatible(
            List.of(
                new HashedColumn(
                    "name",
                    "name",
                    LogicalType.VARCHAR,
                    List.of(
                        ColumnFunctionParser.parse("trim"), ColumnFunctionParser.parse("upper")))));

    // When it is hashed
    // Then the text is the trimmed upper case value
    assertThat(hasher.canonicalText("  anna ")).isEqualTo("ANNA");
    assertThat(hasher.hash("  anna ")).isEqualTo(hasher.hash("ANNA"));
  }

  @Test
  void functionsLeaveNullAlone() {
    // Given replace(N, x) on a NULL value in strict format
    RowHasher hasher =
        strict(
            List.of(
                new HashedColumn(
                    "name",
                    "name",
                    LogicalType.TEXT,
                    List.of(ColumnFunctionParser.parse("replace('N','x')")))));

    // When it is hashed
    // Then NULL is still written as NULL
    assertThat(hasher.canonicalText((Object) null)).isEqualTo("\\N");
  }

  @Test
  void pluggableHashFunctionIsUsed() {
    // Given SHA-256 instead of MD5
    RowHasher hasher =
        new RowHasher(ID_NAME_NOTE, CanonicalFormat.COMPATIBLE, HashFunction.sha256());

    // When a row is hashed
    // Then the hash is SHA-256 of the same text (computed independently)
    assertThat(hasher.hash(1L, null, "abc").hex())
        .isEqualTo("4a0557d54d6f6cc47fe429a5be00afa00aefb3dc80d5af9085badd5910a97ffe");
  }

  @Test
  void unknownHashAlgorithmIsRefused() {
    // Given an algorithm the JVM does not have
    // When it is asked for
    // Then it is refused by name
    assertThatThrownBy(() -> HashFunction.messageDigest("MD17"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MD17");
  }

  @Test
  void nonAsciiTextIsHashedAsUtf8() {
    // Given a value with é and an emoji
    RowHasher hasher = compatible(List.of(HashedColumn.of("name", LogicalType.TEXT)));

    // When it is hashed
    // Then the hash is MD5 of its UTF-8 bytes (computed independently)
    assertThat(hasher.hash("é😀").hex()).isEqualTo("62b3afe3b01f6f80152b567d9b216cde");
  }

  @Test
  void wrongNumberOfValuesIsRefused() {
    // Given a three-column hasher
    RowHasher hasher = compatible(ID_NAME_NOTE);

    // When two values are given
    // Then it is refused
    assertThatThrownBy(() -> hasher.hash(1L, "a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected 3 values, got 2");
  }
}
