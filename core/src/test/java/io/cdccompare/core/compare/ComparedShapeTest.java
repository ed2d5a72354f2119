package io.cdccompare.core.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.function.ColumnFunctionParser;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparedShapeTest {

  private static final HashedColumn ID = HashedColumn.of("id", LogicalType.INTEGER);

  private static ComparedShape shape(String table, HashedColumn... columns) {
    return new ComparedShape(
        List.of(ID),
        new HashPlan(table, List.of(columns)),
        CanonicalFormat.COMPATIBLE,
        "MD5",
        null);
  }

  @Test
  void jsonNamesEveryColumnWithTypeAndFunctions() {
    // Given a key and a mapped column with a function
    HashedColumn name =
        new HashedColumn(
            "name", "full_name", LogicalType.TEXT, List.of(ColumnFunctionParser.parse("upper")));

    // When it is written as JSON
    String json = shape("public.t", ID, name).toJson();

    // Then every part of the contract is in it
    assertThat(json)
        .isEqualTo(
            "{\"table\":\"public.t\",\"targetTable\":null,\"format\":\"COMPATIBLE\","
                + "\"hashFunction\":\"MD5\","
                + "\"keyColumns\":[{\"source\":\"id\",\"target\":\"id\",\"type\":\"INTEGER\"}],"
                + "\"columns\":[{\"source\":\"id\",\"target\":\"id\",\"type\":\"INTEGER\","
                + "\"functions\":[]},{\"source\":\"name\",\"target\":\"full_name\","
                + "\"type\":\"TEXT\",\"functions\":[\"upper\"]}]}");
  }

  @Test
  void fingerprintFollowsColumnsNotTableNames() {
    // Given the same columns under two table names, and a changed column type
    String a = shape("public.a", ID, HashedColumn.of("v", LogicalType.TEXT)).fingerprint();
    String b = shape("public.b", ID, HashedColumn.of("v", LogicalType.TEXT)).fingerprint();
    String changed = shape("public.a", ID, HashedColumn.of("v", LogicalType.VARCHAR)).fingerprint();

    // When / Then the names do not count, the type does
    assertThat(a).hasSize(32).isEqualTo(b).isNotEqualTo(changed);
  }

  @Test
  void fingerprintChangesWithTheKey() {
    // Given the same compared columns with another key
    HashedColumn v = HashedColumn.of("v", LogicalType.TEXT);
    ComparedShape byId =
        new ComparedShape(
            List.of(ID),
            new HashPlan("t", List.of(ID, v)),
            CanonicalFormat.COMPATIBLE,
            "MD5",
            null);
    ComparedShape byIdAndV =
        new ComparedShape(
            List.of(ID, v),
            new HashPlan("t", List.of(ID, v)),
            CanonicalFormat.COMPATIBLE,
            "MD5",
            null);

    // When / Then the fingerprints differ
    assertThat(byId.fingerprint()).isNotEqualTo(byIdAndV.fingerprint());
  }

  @Test
  void jsonReadsBackToAnEqualShape() {
    // Given a shape with a mapped column, functions, a target table and strict format
    HashedColumn name =
        new HashedColumn(
            "na,me",
            "full \"name\"",
            LogicalType.TEXT,
            List.of(ColumnFunctionParser.parse("trim"), ColumnFunctionParser.parse("substr(1,3)")));
    ComparedShape shape =
        new ComparedShape(
            List.of(ID),
            new HashPlan("public.t", List.of(ID, name)),
            CanonicalFormat.STRICT,
            "SHA-256",
            "sales.t");

    // When it is written and read back
    ComparedShape read = ComparedShape.fromJson(shape.toJson());

    // Then it is the same shape
    assertThat(read.toJson()).isEqualTo(shape.toJson());
    assertThat(read.fingerprint()).isEqualTo(shape.fingerprint());
    assertThat(read.targetTable()).isEqualTo("sales.t");
  }

  @Test
  void textThatIsNoShapeIsRefused() {
    // Given text that is not a shape
    // When it is read / Then it is refused
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ComparedShape.fromJson("[1]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a compared shape");
  }
}
