package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.TaskKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareConfigTest {

  private static Map<String, String> base() {
    Map<String, String> m = new HashMap<>();
    m.put("task.name", "nightly");
    m.put("topic.prefix", "shop");
    m.put("bootstrap.servers", "localhost:9092");
    m.put("schema.registry.url", "http://localhost:8081");
    m.put("source.hostname", "db");
    m.put("source.database", "shop");
    m.put("source.user", "cdc");
    m.put("tables", "public.orders, \"Sales\".\"a.b\"");
    return m;
  }

  @Test
  void defaultsApplyToEveryTable() {
    // Given only the required keys
    // When the task is loaded
    CompareConfig config = CompareConfig.of(base());

    // Then each table gets chunk 10 000, deep 10, its primary key and every column
    assertThat(config.tables()).hasSize(2);
    TableTask orders = config.tables().get(0);
    assertThat(orders.sampling().chunk()).isEqualTo(10_000);
    assertThat(orders.sampling().deep()).isEqualTo(10);
    assertThat(orders.keyColumns()).isEmpty();
    assertThat(orders.comparedColumns()).isEmpty();
    assertThat(config.hashesTopic()).isEqualTo("shop.compare.hashes");
    assertThat(config.pacing().limits()).isFalse();
    assertThat(config.flowChunksAhead()).isZero(); // no targets, no flow control
  }

  @Test
  void topicNamesDefaultUnderThePrefixAndTheTaskMayNameItsOwn() {
    // Given a task with targets that names its hashes, results and report topics
    Map<String, String> values = base();
    values.put("targets", "a, b");
    values.put("hashes.topic", "audit.hashes");
    values.put("results.topic", "audit.results");
    values.put("report.topic", "audit.report");

    // When it is loaded
    CompareConfig config = CompareConfig.of(values);

    // Then those names are used (flow control reads the results, --wait the report), and flow
    // control is on with its defaults
    assertThat(config.topics().hashes()).isEqualTo("audit.hashes");
    assertThat(config.resultsTopic()).isEqualTo("audit.results");
    assertThat(config.topics().report()).isEqualTo("audit.report");
    assertThat(config.flowChunksAhead()).isEqualTo(3);
    assertThat(config.flowStallTimeout()).hasSeconds(60);
    assertThat(CompareConfig.of(base()).resultsTopic()).isEqualTo("shop.compare.results");
  }

  @Test
  void theTaskKindIsFullByDefaultOrIncremental() {
    // Given a task without task.kind, and one with task.kind=incremental
    Map<String, String> incremental = base();
    incremental.put("task.kind", "incremental");

    // When they are loaded / Then the first is full, the second incremental
    assertThat(CompareConfig.of(base()).kind()).isEqualTo(TaskKind.FULL);
    assertThat(CompareConfig.of(incremental).kind()).isEqualTo(TaskKind.INCREMENTAL);
  }

  @Test
  void anUnknownTaskKindIsRefusedNamingTheKey() {
    // Given a kind the task file does not know (recheck runs are started by compare recheck)
    Map<String, String> values = base();
    values.put("task.kind", "recheck");

    // When it is loaded / Then task.kind is named with the kinds it takes
    assertThatThrownBy(() -> CompareConfig.of(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("task.kind")
        .hasMessageContaining("full, incremental");
  }

  @Test
  void flowControlSettingsAreCheckedNamingTheKey() {
    // Given a negative number of chunks ahead / Then the key is named
    Map<String, String> values = base();
    values.put("flow.chunks.ahead", "-1");
    assertThatThrownBy(() -> CompareConfig.of(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("flow.chunks.ahead");
  }

  @Test
  void perTableSettingsNameTheirTableAsInTables() {
    // Given per-table settings, one for a quoted name holding a dot
    Map<String, String> m = base();
    m.put("table.public.orders.key.columns", "region, id");
    m.put("table.public.orders.deep", "100");
    m.put("table.public.orders.functions.note", "trim, substr(1,3)");
    m.put("table.public.orders.types.ref", "uuid");
    m.put("table.public.orders.map.total", "amount");
    m.put("table.public.orders.target.table", "sales.orders");
    m.put("table.\"Sales\".\"a.b\".chunk", "500");
    m.put("table.\"Sales\".\"a.b\".exclude", "updated_at");

    // When the task is loaded
    List<TableTask> tables = CompareConfig.of(m).tables();

    // Then each table has its own settings
    TableTask orders = tables.get(0);
    assertThat(orders.keyColumns()).containsExactly("region", "id");
    assertThat(orders.sampling().deep()).isEqualTo(100);
    assertThat(orders.rules().columnFunctions().get("note"))
        .extracting(f -> f.spec())
        .containsExactly("trim", "substr(1,3)");
    assertThat(orders.rules().declaredTypes()).containsEntry("ref", LogicalType.UUID);
    assertThat(orders.rules().mappings().get(0).targetColumn()).isEqualTo("amount");
    assertThat(orders.targetTable()).isEqualTo(new TableName("sales", "orders"));
    TableTask ab = tables.get(1);
    assertThat(ab.table()).isEqualTo(new TableName("Sales", "a.b"));
    assertThat(ab.sampling().chunk()).isEqualTo(500);
    assertThat(ab.rules().excludedColumns()).containsExactly("updated_at");
  }

  @Test
  void deepOutsideOneToHundredIsRefusedNamingTheKey() {
    // Given deep 0 globally, then 101 for one table
    Map<String, String> global = base();
    global.put("deep", "0");
    Map<String, String> table = base();
    table.put("table.public.orders.deep", "101");

    // When they are loaded / Then each error names its key
    assertThatThrownBy(() -> CompareConfig.of(global))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("deep");
    assertThatThrownBy(() -> CompareConfig.of(table))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("table.public.orders.deep must be 1..100, was 101");
  }

  @Test
  void rotationIsOffByDefaultAndSetGloballyOrPerTable() {
    // Given rotation on for the task and off again for one table
    Map<String, String> m = base();
    m.put("deep.rotate", "true");
    m.put("table.public.orders.deep.rotate", "false");

    // When the task is loaded
    List<TableTask> tables = CompareConfig.of(m).tables();

    // Then the table's own setting wins, the other table rotates, and the default is off
    assertThat(tables.get(0).sampling().rotate()).isFalse();
    assertThat(tables.get(1).sampling().rotate()).isTrue();
    assertThat(CompareConfig.of(base()).tables().get(0).sampling().rotate()).isFalse();
  }

  @Test
  void aRotationThatIsNotABooleanIsRefusedNamingTheKey() {
    // Given a per-table rotation that is not true or false
    Map<String, String> m = base();
    m.put("table.public.orders.deep.rotate", "sometimes");

    // When it is loaded / Then the error names the key and the value
    assertThatThrownBy(() -> CompareConfig.of(m))
        .isInstanceOf(ConfigException.class)
        .hasMessage("table.public.orders.deep.rotate must be true or false, was 'sometimes'");
  }

  @Test
  void chunkMustBePositive() {
    // Given chunk 0 globally and -5 for a table
    Map<String, String> global = base();
    global.put("chunk", "0");
    Map<String, String> table = base();
    table.put("table.public.orders.chunk", "-5");

    // When they are loaded / Then each error names its key
    assertThatThrownBy(() -> CompareConfig.of(global)).hasMessageContaining("chunk");
    assertThatThrownBy(() -> CompareConfig.of(table))
        .hasMessageContaining("table.public.orders.chunk must be >= 1, was -5");
  }

  @Test
  void unknownKeysAndTablesAreRefusedWithTheirPath() {
    // Given a misspelt task key, a misspelt table setting and a table not in 'tables'
    Map<String, String> key = base();
    key.put("dep", "5");
    Map<String, String> setting = base();
    setting.put("table.public.orders.dep", "5");
    Map<String, String> table = base();
    table.put("table.public.other.deep", "5");

    // When they are loaded / Then each is named
    assertThatThrownBy(() -> CompareConfig.of(key)).hasMessageContaining("dep");
    assertThatThrownBy(() -> CompareConfig.of(setting))
        .hasMessageContaining("unknown configuration key table.public.orders.dep");
    assertThatThrownBy(() -> CompareConfig.of(table))
        .hasMessageContaining("table.public.other.deep names no table of 'tables'");
  }

  @Test
  void functionsThatDoNotFitTheirTypeAreRefusedAtLoad() {
    // Given round() on a declared text column, and an unknown function
    Map<String, String> misfit = base();
    misfit.put("table.public.orders.types.note", "text");
    misfit.put("table.public.orders.functions.note", "round(2)");
    Map<String, String> unknown = base();
    unknown.put("table.public.orders.functions.note", "shout");

    // When they are loaded / Then the table and column are named
    assertThatThrownBy(() -> CompareConfig.of(misfit))
        .hasMessageContaining("tables[public.orders].columns[note]");
    assertThatThrownBy(() -> CompareConfig.of(unknown))
        .hasMessageContaining("tables[public.orders].columns[note]")
        .hasMessageContaining("shout");
  }

  @Test
  void columnsAndExcludeAreExclusive() {
    // Given both an explicit column list and exclusions
    Map<String, String> m = base();
    m.put("table.public.orders.columns", "id, total");
    m.put("table.public.orders.exclude", "note");

    // When it is loaded / Then it is refused
    assertThatThrownBy(() -> CompareConfig.of(m)).hasMessageContaining("give one of them");
  }

  @Test
  void aPerTableKeyOfATableWithASpaceInItsNameNeedsTheSpaceEscapedInTheFile(@TempDir Path dir)
      throws Exception {
    // Given a task file over a table whose name holds a space, its key's space escaped with \
    Map<String, String> values = base();
    values.put("tables", "public.orders, s.\"Mixed Case\"");
    StringBuilder text = new StringBuilder();
    values.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    text.append("table.s.\"Mixed\\ Case\".chunk=500\n");
    Path escaped = Files.writeString(dir.resolve("escaped.properties"), text);

    // When it is loaded
    List<TableTask> tables = CompareConfig.load(escaped).tables();

    // Then the setting is that table's
    assertThat(tables.get(1).table()).isEqualTo(new TableName("s", "Mixed Case"));
    assertThat(tables.get(1).sampling().chunk()).isEqualTo(500);

    // And without the escape the key ends at the space, which names no table: refused, naming it
    Path unescaped =
        Files.writeString(
            dir.resolve("unescaped.properties"),
            text.toString().replace("Mixed\\ Case\".chunk", "Mixed Case\".chunk"));
    assertThatThrownBy(() -> CompareConfig.load(unescaped))
        .hasMessageContaining("table.s.\"Mixed names no table");
  }

  @Test
  void fileErrorsNameTheFile(@TempDir Path dir) throws Exception {
    // Given a file with a bad per-table value and a missing file
    Path file = dir.resolve("task.properties");
    StringBuilder text = new StringBuilder();
    base().forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    text.append("table.public.orders.chunk=many\n");
    Files.writeString(file, text);

    // When they are loaded / Then the file and key are named
    assertThatThrownBy(() -> CompareConfig.load(file))
        .hasMessageContaining(file.toString())
        .hasMessageContaining("table.public.orders.chunk must be an integer, was 'many'");
    assertThatThrownBy(() -> CompareConfig.load(dir.resolve("missing.properties")))
        .hasMessageContaining("does not exist");
  }

  @Test
  void listsKeepCommasInsideParenthesesAndQuotes() {
    // Given function lists with commas inside arguments
    // When they are split
    // Then only top-level commas separate items
    assertThat(TableSettings.list("substr(1,3), replace('a,b','c'), upper"))
        .containsExactly("substr(1,3)", "replace('a,b','c')", "upper");
  }
}
