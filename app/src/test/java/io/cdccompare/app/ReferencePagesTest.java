package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The generated reference pages in {@code docs/reference/} are what the code says today: a new or
 * changed option, key, default or description without a regenerated page fails here.
 */
class ReferencePagesTest {
  private static final Path DIR = Path.of("..", "docs", "reference");

  @Test
  void theCommandLineReferenceIsCurrent() throws IOException {
    check("cli.md", ReferencePages.cli());
  }

  @Test
  void theConfigurationReferenceIsCurrent() throws IOException {
    check("configuration.md", ReferencePages.configuration());
  }

  @Test
  void thePagesNameEveryCommandAndEveryFileKind() {
    // Given the two pages as the code renders them
    String cli = ReferencePages.cli();
    String configuration = ReferencePages.configuration();
    // Then every command has its section, and the keys of each file kind are there with their docs
    assertThat(cli)
        .contains(
            "## `cdc-compare capture`",
            "## `cdc-compare compare run`",
            "## `cdc-compare compare recheck`",
            "## `cdc-compare compare repair`",
            "## `cdc-compare verify`",
            "## `cdc-compare report explain`",
            "## `cdc-compare status`",
            "## `cdc-compare demo`",
            "## `cdc-compare env up`",
            "`--wait-timeout");
    assertThat(configuration)
        .contains("## The capture file", "## The task file", "## The targets file")
        .contains("| `topic.prefix` |", "| `tables` |", "| `read.visibility.timeout.ms` |")
        .contains("`target.<name>.url`", "`table.<schema.table>.chunk`");
  }

  private static void check(String name, String rendered) throws IOException {
    Path page = DIR.resolve(name);
    if (Boolean.getBoolean("reference.write")) {
      Files.createDirectories(DIR);
      Files.writeString(page, rendered);
    }
    assertThat(Files.exists(page))
        .as("%s is missing; generate it with: %s", page, ReferencePages.REGENERATE)
        .isTrue();
    assertThat(Files.readString(page))
        .as(
            "%s is stale (the code's options or keys changed); regenerate it with: %s",
            page, ReferencePages.REGENERATE)
        .isEqualTo(rendered);
  }
}
