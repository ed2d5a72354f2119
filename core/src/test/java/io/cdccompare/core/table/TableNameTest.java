package io.cdccompare.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableNameTest {

  @Test
  void parsesPlainAndQuotedNames() {
    assertThat(TableName.parseList("public.customers, \"My Schema\".\"Odd.Name, \"\"q\"\"\""))
        .containsExactly(
            new TableName("public", "customers"), new TableName("My Schema", "Odd.Name, \"q\""));
  }

  @Test
  void keepsCase() {
    assertThat(TableName.parse("Sales.Orders")).isEqualTo(new TableName("Sales", "Orders"));
  }

  @Test
  void writesBackWhatItParses() {
    TableName odd = new TableName("My Schema", "a.\"b\"");
    assertThat(odd.toString()).isEqualTo("\"My Schema\".\"a.\"\"b\"\"\"");
    assertThat(TableName.parse(odd.toString())).isEqualTo(odd);
  }

  @Test
  void refusesANameWithoutSchema() {
    assertThatThrownBy(() -> TableName.parseList("public.a, customers"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("schema.table")
        .hasMessageContaining("'customers'");
  }

  @Test
  void refusesUnterminatedQuotes() {
    assertThatThrownBy(() -> TableName.parse("\"public.a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unterminated");
  }

  @Test
  void refusesThreePartNames() {
    assertThatThrownBy(() -> TableName.parse("db.public.a"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
