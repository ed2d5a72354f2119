package io.cdccompare.app;

import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.source.config.FileKeys;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Renders the two reference pages from the code: every command and option from picocli's model of
 * {@link CdcCompare}, every configuration key from the files' {@link ConfigDef}s and section keys
 * ({@link FileKeys}). {@code ReferencePagesTest} fails when a committed page differs.
 */
final class ReferencePages {
  static final String REGENERATE =
      "mvn -B -pl app -am test -Dtest=ReferencePagesTest -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dreference.write=true";

  private ReferencePages() {}

  static String cli() {
    StringBuilder out = new StringBuilder();
    out.append("# Command-line reference\n\n")
        .append(generated())
        .append("What the commands do and how they behave: [commands.md](../commands.md). Every")
        .append(" key of the files given with `-c`: [configuration.md](configuration.md).\n");
    command(CdcCompare.commandLine().getCommandSpec(), out);
    return out.toString();
  }

  private static void command(CommandSpec spec, StringBuilder out) {
    out.append("\n## `").append(spec.qualifiedName()).append("`\n\n");
    String description = text(spec.usageMessage().description());
    if (!description.isEmpty()) {
      out.append(description).append("\n\n");
    }
    String synopsis =
        new Help(spec, Help.defaultColorScheme(Help.Ansi.OFF)).synopsis(0).stripTrailing();
    out.append("```\n").append(synopsis).append("\n```\n");
    List<PositionalParamSpec> positionals =
        spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
    if (!positionals.isEmpty()) {
      out.append("\n| parameter | description |\n|---|---|\n");
      positionals.forEach(
          p ->
              out.append("| `")
                  .append(p.paramLabel())
                  .append("` | ")
                  .append(cell(text(p.description())))
                  .append(" |\n"));
    }
    List<OptionSpec> options = spec.options().stream().filter(o -> !o.hidden()).toList();
    if (!options.isEmpty()) {
      out.append("\n| option | default | description |\n|---|---|---|\n");
      for (OptionSpec o : options) {
        String names = String.join(", ", o.names());
        String label = o.arity().max() > 0 ? " " + o.paramLabel() : "";
        String fallback = o.defaultValue() == null ? "" : "`" + o.defaultValue() + "`";
        String text =
            text(o.description()).replace("${DEFAULT-VALUE}", String.valueOf(o.defaultValue()));
        out.append("| `")
            .append(names)
            .append(label)
            .append("` | ")
            .append(cell(fallback))
            .append(" | ")
            .append(cell(text))
            .append(" |\n");
      }
    }
    if (!spec.subcommands().isEmpty()) {
      out.append("\nCommands: ")
          .append(
              spec.subcommands().values().stream()
                  .map(CommandLine::getCommandSpec)
                  .distinct()
                  .map(s -> "`" + s.name() + "`")
                  .collect(Collectors.joining(", ")))
          .append(".\n");
      spec.subcommands().values().stream()
          .map(CommandLine::getCommandSpec)
          .distinct()
          .forEach(s -> command(s, out));
    }
  }

  static String configuration() {
    StringBuilder out = new StringBuilder();
    out.append("# Configuration reference\n\n")
        .append(generated())
        .append("Every command but `demo` and `env up` reads one Java properties file given with")
        .append(" `-c`. Each key is declared with its type, default and validation; an unknown key")
        .append(
            " is refused with its name (exit 2). Secrets come through Kafka's config providers:")
        .append(" `${env:NAME}` and `${file:/path/to/file.properties:key}`. How the keys work")
        .append(" together: [commands.md](../commands.md#configuration-files).\n");
    file("The capture file (`capture -c`)", CaptureConfig.keys(), out);
    file(
        "The task file (`compare run`, `compare recheck`, `compare repair -c`)",
        CompareConfig.keys(),
        out);
    file("The targets file (`verify`, `report`, `status`, `alerts -c`)", TargetsConfig.keys(), out);
    return out.toString();
  }

  private static void file(String title, FileKeys keys, StringBuilder out) {
    out.append("\n## ")
        .append(title)
        .append("\n\n")
        .append("| key | type | default | valid values | importance | description |\n")
        .append("|---|---|---|---|---|---|\n");
    for (ConfigKey k : keys.definition().configKeys().values()) {
      String fallback =
          k.hasDefault()
              ? "`" + ConfigDef.convertToString(k.defaultValue, k.type) + "`"
              : "required";
      if (k.hasDefault() && k.defaultValue == null) {
        fallback = "none";
      }
      String valid = validValues(k.validator);
      if (fallback.equals("``")) {
        fallback = "empty";
      }
      out.append("| `")
          .append(k.name)
          .append("` | ")
          .append(k.type.name().toLowerCase())
          .append(" | ")
          .append(cell(fallback))
          .append(" | ")
          .append(cell(valid))
          .append(" | ")
          .append(k.importance.name().toLowerCase())
          .append(" | ")
          .append(cell(k.documentation == null ? "" : k.documentation))
          .append(" |\n");
    }
    if (!keys.sectionKeys().isEmpty()) {
      out.append("\nPer-name sections (what each does: [commands.md](../commands.md)): ")
          .append(
              keys.sectionKeys().stream().map(s -> "`" + s + "`").collect(Collectors.joining(", ")))
          .append(".\n");
    }
    out.append("\nPassed through to the clients, with the prefix removed: ")
        .append(
            keys.sortedPrefixes().stream()
                .map(p -> "`" + p + "*`")
                .collect(Collectors.joining(", ")))
        .append(".\n");
  }

  /** A validator's own description, or "checked when loaded" for one that has none. */
  private static String validValues(ConfigDef.Validator validator) {
    if (validator == null) {
      return "";
    }
    String text = validator.toString();
    boolean described = !text.startsWith(validator.getClass().getName() + "@");
    return described ? text : "checked when loaded";
  }

  private static String generated() {
    return "Generated from the code by `app`'s `ReferencePages`; do not edit. Regenerate with `"
        + REGENERATE
        + "`.\n\n";
  }

  private static String text(String[] lines) {
    return String.join(" ", lines).replace("%n", " ").replaceAll("\\s+", " ").trim();
  }

  private static String cell(String text) {
    String tmp = System.getProperty("java.io.tmpdir");
    String stable = tmp == null || tmp.isEmpty() ? text : text.replace(tmp, "${java.io.tmpdir}");
    return stable.replace("|", "\\|").replace("\n", " ");
  }
}
