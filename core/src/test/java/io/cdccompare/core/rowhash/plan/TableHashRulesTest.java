package io.cdccompare.core.rowhash.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.function.ColumnFunctionParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableHashRulesTest {

  private static final List<SourceColumn> ORDERS =
      List.of(
          new SourceColumn("id", LogicalType.BIGINT),
          new SourceColumn("customer", LogicalType.VARCHAR),
          new SourceColumn("amount", LogicalType.DECIMAL),
          new SourceColumn("placed_at", LogicalType.TIMESTAMP),
          new SourceColumn("ref", LogicalType.CHAR));

  @Test
  void unknownFunctionIsRefusedAtLoadNamingTableAndColumn() {
    // Given a configuration with a misspelt function on orders.customer
    // When it is loaded
    // Then it is refused with the path of the column
    assertThatThrownBy(
            () ->
                HashRulesParser.parse(
                    "orders",
                    Map.of(),
                    List.of(),
                    Map.of("customer", List.of("uper")),
                    Map.of(),
                    Map.of()))
        .isInstanceOf(HashRulesException.class)
        .hasMessageStartingWith("tables[orders].columns[customer]: unknown function 'uper'");
  }

  @Test
  void functionNotFittingADeclaredTypeIsRefusedAtLoad() {
    // Given upper on a column declared decimal
    // When the configuration is loaded
    // Then it is refused naming table, column, function and type
    assertThatThrownBy(
            () ->
                HashRulesParser.parse(
                    "orders",
                    Map.of(),
                    List.of(),
                    Map.of("amount", List.of("upper")),
                    Map.of(),
                    Map.of("amount", "decimal")))
        .isInstanceOf(HashRulesException.class)
        .hasMessage(
            "tables[orders].columns[amount]: function 'upper' does not apply to type DECIMAL");
  }

  @Test
  void functionNotFittingItsTypeListIsRefusedAtLoad() {
    // Given round(2) configured for all timestamp columns
    // When the configuration is loaded
    // Then it is refused naming the type entry
    assertThatThrownBy(
            () ->
                HashRulesParser.parse(
                    "orders",
                    Map.of(),
                    List.of(),
                    Map.of(),
                    Map.of("timestamp", List.of("round(2)")),
                    Map.of()))
        .isInstanceOf(HashRulesException.class)
        .hasMessage(
            "tables[orders].types[TIMESTAMP]: function 'round(2)' does not apply to type TIMESTAMP");
  }

  @Test
  void functionNotFittingTheCatalogTypeIsRefusedWhenResolved() {
    // Given upper on amount, whose type only the catalog knows
    TableHashRules rules =
        HashRulesParser.parse(
            "orders", Map.of(), List.of(), Map.of("amount", List.of("upper")), Map.of(), Map.of());

    // When the rules are resolved against the catalog
    // Then they are refused naming table and column
    assertThatThrownBy(() -> rules.resolve(ORDERS))
        .isInstanceOf(HashRulesException.class)
        .hasMessage(
            "tables[orders].columns[amount]: function 'upper' does not apply to type DECIMAL");
  }

  @Test
  void unknownTypeNameIsRefused() {
    // Given a declared type that does not exist
    // When the configuration is loaded
    // Then it is refused naming the column
    assertThatThrownBy(
            () ->
                HashRulesParser.parse(
                    "orders", Map.of(), List.of(), Map.of(), Map.of(), Map.of("ref", "money")))
        .isInstanceOf(HashRulesException.class)
        .hasMessageStartingWith("tables[orders].columns[ref]: unknown type 'money'");
  }

  @Test
  void ruleOnAColumnTheTableLacksIsRefused() {
    // Given a mapping of a column orders does not have
    TableHashRules rules =
        HashRulesParser.parse(
            "orders", Map.of("total", "total_amount"), List.of(), Map.of(), Map.of(), Map.of());

    // When resolved
    // Then it is refused naming the column
    assertThatThrownBy(() -> rules.resolve(ORDERS))
        .isInstanceOf(HashRulesException.class)
        .hasMessage("tables[orders].columns[total]: no such column in the source table");
  }

  @Test
  void excludedColumnCannotAlsoHaveFunctions() {
    // Given a column both excluded and given a function
    // When the configuration is loaded
    // Then it is refused
    assertThatThrownBy(
            () ->
                HashRulesParser.parse(
                    "orders",
                    Map.of(),
                    List.of("customer"),
                    Map.of("customer", List.of("trim")),
                    Map.of(),
                    Map.of()))
        .isInstanceOf(HashRulesException.class)
        .hasMessageStartingWith("tables[orders].columns[customer]");
  }

  @Test
  void resolvedPlanKeepsTableOrderMapsNamesExcludesAndPicksFunctions() {
    // Given a mapping, an exclusion, a type-level function and a column override
    TableHashRules rules =
        HashRulesParser.parse(
            "orders",
            Map.of("customer", "customer_name"),
            List.of("ref"),
            Map.of("placed_at", List.of()),
            Map.of("varchar", List.of("trim", "upper"), "timestamp", List.of("truncate(second)")),
            Map.of());

    // When resolved
    HashPlan plan = rules.resolve(ORDERS);

    // Then columns follow the table, ref is gone, customer is mapped and trimmed,
    // and placed_at's own empty list switches its type's truncate off
    assertThat(plan.columns())
        .containsExactly(
            HashedColumn.of("id", LogicalType.BIGINT),
            new HashedColumn(
                "customer",
                "customer_name",
                LogicalType.VARCHAR,
                List.of(ColumnFunctionParser.parse("trim"), ColumnFunctionParser.parse("upper"))),
            HashedColumn.of("amount", LogicalType.DECIMAL),
            HashedColumn.of("placed_at", LogicalType.TIMESTAMP));
  }

  @Test
  void declaredTypeReplacesTheCatalogType() {
    // Given ref (CHAR in the catalog) declared UUID
    TableHashRules rules =
        HashRulesParser.parse(
            "orders", Map.of(), List.of(), Map.of(), Map.of(), Map.of("ref", "uuid"));

    // When resolved
    HashPlan plan = rules.resolve(ORDERS);

    // Then ref is hashed as a UUID
    assertThat(plan.columns().get(4).type()).isEqualTo(LogicalType.UUID);
  }

  @Test
  void excludingEveryColumnIsRefused() {
    // Given a table whose only column is excluded
    TableHashRules rules =
        HashRulesParser.parse("t", Map.of(), List.of("id"), Map.of(), Map.of(), Map.of());

    // When resolved
    // Then it is refused: nothing would be compared
    assertThatThrownBy(() -> rules.resolve(List.of(new SourceColumn("id", LogicalType.BIGINT))))
        .isInstanceOf(HashRulesException.class)
        .hasMessage("tables[t]: no column left to compare");
  }

  @Test
  void twoColumnsMappedToOneTargetColumnAreRefused() {
    // Given customer mapped onto the target's amount, which amount also uses
    TableHashRules rules =
        HashRulesParser.parse(
            "orders", Map.of("customer", "amount"), List.of(), Map.of(), Map.of(), Map.of());

    // When resolved
    // Then it is refused
    assertThatThrownBy(() -> rules.resolve(ORDERS))
        .isInstanceOf(HashRulesException.class)
        .hasMessageContaining("target column 'amount'");
  }
}
