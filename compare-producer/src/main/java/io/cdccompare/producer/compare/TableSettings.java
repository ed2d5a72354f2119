package io.cdccompare.producer.compare;

import io.cdccompare.core.chunk.ChunkSampling;
import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.rowhash.plan.HashRulesParser;
import io.cdccompare.core.rowhash.plan.TableHashRules;
import io.cdccompare.core.table.TableName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The per-table keys of a compare task file: {@code table.<schema.table>.<setting>}, the table
 * written as in {@code tables}. Each setting is checked here and named with its full key when it is
 * wrong; a key naming a table that is not in {@code tables}, or an unknown setting, is refused.
 *
 * <pre>
 * table.public.orders.key.columns       = region, id       (default: the primary key)
 * table.public.orders.columns           = id, total        (default: every column)
 * table.public.orders.exclude           = updated_at
 * table.public.orders.chunk             = 5000             (default: chunk)
 * table.public.orders.deep              = 100              (default: deep)
 * table.public.orders.deep.rotate       = true             (default: deep.rotate)
 * table.public.orders.target.table      = sales.orders     (default: the same name)
 * table.public.orders.map.total         = amount           (target column of another name)
 * table.public.orders.functions.name    = trim, upper      (functions of one column, in order)
 * table.public.orders.type.functions.decimal = round(2)    (functions of every column of a type)
 * table.public.orders.types.ref         = uuid             (declared type, replacing the catalog's)
 * </pre>
 */
final class TableSettings {
  static final String PREFIX = "table.";

  /**
   * Every setting after {@code table.<schema.table>.}, with its documentation (the generated
   * docs/reference/configuration.md); a name ending in {@code <column>} or {@code <type>} is a
   * family of settings. {@link #parse} checks the values.
   */
  static final ConfigDef SETTINGS =
      new ConfigDef()
          .define(
              "key.columns",
              Type.LIST,
              null,
              Importance.MEDIUM,
              "Key columns, in order (default: the primary key; required without one, and then the"
                  + " same as the capture's table.<t>.key.columns).")
          .define(
              "columns",
              Type.LIST,
              null,
              Importance.MEDIUM,
              "Compared columns (default: all); or exclude, not both.")
          .define(
              "exclude", Type.LIST, null, Importance.MEDIUM, "Columns left out of the row hash.")
          .define("chunk", Type.INT, null, Importance.MEDIUM, "Overrides the task's chunk.")
          .define("deep", Type.INT, null, Importance.MEDIUM, "Overrides the task's deep.")
          .define(
              "deep.rotate",
              Type.BOOLEAN,
              null,
              Importance.MEDIUM,
              "Overrides the task's deep.rotate.")
          .define(
              "target.table",
              Type.STRING,
              null,
              Importance.LOW,
              "The table's name on the targets (default: the same name), recorded in the notes;"
                  + " the verifiers apply and compare the table their targets file names"
                  + " (target.<name>.table.<schema.table>), so keep the two equal.")
          .define(
              "map.<column>",
              Type.STRING,
              null,
              Importance.LOW,
              "The target column compared with this source column. The apply writes changes under"
                  + " the source column names, so a mapped column only helps on a target filled by"
                  + " other means; mapping on apply is not built yet.")
          .define(
              "functions.<column>",
              Type.LIST,
              null,
              Importance.LOW,
              "Functions on the column's canonical text, in order: trim, substr(1,3).")
          .define(
              "type.functions.<type>",
              Type.LIST,
              null,
              Importance.LOW,
              "Functions for every column of a logical type: type.functions.decimal = round(2).")
          .define(
              "types.<column>",
              Type.STRING,
              null,
              Importance.LOW,
              "Declared logical type, replacing the catalog's (uuid for a char(36)).");

  private static final Set<String> SIMPLE =
      SETTINGS.names().stream()
          .filter(n -> !n.contains("<"))
          .collect(java.util.stream.Collectors.toUnmodifiableSet());
  private static final List<String> PER_NAME =
      SETTINGS.names().stream()
          .filter(n -> n.contains("<"))
          .map(n -> n.substring(0, n.indexOf('<')))
          .toList();

  private TableSettings() {}

  /** The table tasks, in the order of {@code tables}. */
  static List<TableTask> parse(
      List<TableName> tables, Map<String, String> values, ChunkSampling defaults) {
    Map<TableName, Map<String, String>> byTable = new LinkedHashMap<>();
    tables.forEach(t -> byTable.put(t, new LinkedHashMap<>()));
    values.forEach(
        (key, value) -> {
          if (key.startsWith(PREFIX)) {
            Spelling spelling = tableOf(key, tables);
            TableName table = spelling.table();
            String setting = key.substring(PREFIX.length() + spelling.text().length() + 1);
            if (!SIMPLE.contains(setting) && PER_NAME.stream().noneMatch(setting::startsWith)) {
              throw new ConfigException(
                  "unknown configuration key "
                      + key
                      + " (table settings: "
                      + String.join(", ", new java.util.TreeSet<>(SIMPLE))
                      + ", map.<column>, functions.<column>, type.functions.<type>,"
                      + " types.<column>)");
            }
            byTable.get(table).put(setting, value);
          }
        });
    List<TableTask> tasks = new ArrayList<>();
    byTable.forEach((table, settings) -> tasks.add(task(table, settings, defaults)));
    return tasks;
  }

  /** A table and one way of writing it in a key. */
  private record Spelling(TableName table, String text) {}

  /**
   * The table a key names, written as in configuration ({@code public.orders}), with both parts
   * quoted ({@code "public"."orders"}) or as the plain parts; the longest match wins.
   */
  private static Spelling tableOf(String key, List<TableName> tables) {
    Spelling best = null;
    for (TableName t : tables) {
      for (String text :
          List.of(
              t.toString(),
              quoted(t.schema()) + "." + quoted(t.table()),
              t.schema() + "." + t.table())) {
        String prefix = PREFIX + text + ".";
        if (key.startsWith(prefix)
            && key.length() > prefix.length()
            && (best == null || text.length() > best.text().length())) {
          best = new Spelling(t, text);
        }
      }
    }
    if (best == null) {
      throw new ConfigException(
          "configuration key " + key + " names no table of 'tables' (" + tables + ")");
    }
    return best;
  }

  private static String quoted(String part) {
    return '"' + part.replace("\"", "\"\"") + '"';
  }

  private static TableTask task(
      TableName table, Map<String, String> settings, ChunkSampling defaults) {
    String path = PREFIX + table + ".";
    int chunk = integer(path + "chunk", settings.get("chunk"), defaults.chunk(), 1);
    int deep = integer(path + "deep", settings.get("deep"), defaults.deep(), 1);
    if (chunk > CompareConfig.MAX_CHUNK) {
      throw new ConfigException(
          path + "chunk must be 1.." + CompareConfig.MAX_CHUNK + ", was " + chunk);
    }
    if (deep > 100) {
      throw new ConfigException(path + "deep must be 1..100, was " + deep);
    }
    boolean rotate = bool(path + "deep.rotate", settings.get("deep.rotate"), defaults.rotate());
    TableName target = null;
    if (settings.containsKey("target.table")) {
      try {
        target = TableName.parse(settings.get("target.table"));
      } catch (IllegalArgumentException e) {
        throw new ConfigException(path + "target.table: " + e.getMessage());
      }
    }
    try {
      TableHashRules rules =
          HashRulesParser.parse(
              table.toString(),
              named(settings, "map."),
              list(settings.get("exclude")),
              listsNamed(settings, "functions."),
              listsNamed(settings, "type.functions."),
              named(settings, "types."));
      return new TableTask(
          table,
          list(settings.get("key.columns")),
          list(settings.get("columns")),
          rules,
          new ChunkSampling(chunk, deep, rotate),
          target);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  private static int integer(String key, String text, int fallback, int min) {
    if (text == null) {
      return fallback;
    }
    try {
      int value = Integer.parseInt(text.strip());
      if (value < min) {
        throw new ConfigException(key + " must be >= " + min + ", was " + value);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new ConfigException(key + " must be an integer, was '" + text + "'");
    }
  }

  private static boolean bool(String key, String text, boolean fallback) {
    if (text == null) {
      return fallback;
    }
    return switch (text.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new ConfigException(key + " must be true or false, was '" + text + "'");
    };
  }

  private static Map<String, String> named(Map<String, String> settings, String prefix) {
    Map<String, String> out = new LinkedHashMap<>();
    settings.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            out.put(k.substring(prefix.length()), v.strip());
          }
        });
    return out;
  }

  private static Map<String, List<String>> listsNamed(Map<String, String> settings, String prefix) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    named(settings, prefix).forEach((k, v) -> out.put(k, list(v)));
    return out;
  }

  /**
   * A comma separated list; commas inside parentheses or single quotes belong to the item, so
   * {@code substr(1,3), replace('a,b','c')} is two functions.
   */
  static List<String> list(String text) {
    List<String> items = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return items;
    }
    StringBuilder item = new StringBuilder();
    int depth = 0;
    boolean quoted = false;
    for (char c : text.toCharArray()) {
      if (c == '\'') {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')') {
        depth--;
      } else if (!quoted && depth == 0 && c == ',') {
        items.add(item.toString().strip());
        item.setLength(0);
        continue;
      }
      item.append(c);
    }
    items.add(item.toString().strip());
    return items;
  }
}
