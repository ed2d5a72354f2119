package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The generated reference pages (docs/reference/cli.md, docs/reference/configuration.md) are the
 * ones the code renders now: a changed option, key, default or description changes the page, and
 * this test fails until it is regenerated. With {@code -Dreference.write=true} it writes them.
 */
class ReferencePagesTest {
  private static final boolean WRITE = Boolean.getBoolean("reference.write");

  @Test
  void theCommandLineReferenceIsUpToDate() throws Exception {
    check(ReferencePages.CLI, ReferencePages.cli());
  }

  @Test
  void theConfigurationReferenceIsUpToDate() throws Exception {
    check(ReferencePages.CONFIGURATION, ReferencePages.configuration());
  }

  @Test
  void theRenderingIsDeterministic() {
    // Given two renderings in one JVM, Then they are equal (no time, no identity hash, no order
    // of a hash set)
    assertThat(ReferencePages.cli()).isEqualTo(ReferencePages.cli());
    assertThat(ReferencePages.configuration()).isEqualTo(ReferencePages.configuration());
    // and no machine path or object identity leaks into them
    for (String page : new String[] {ReferencePages.cli(), ReferencePages.configuration()}) {
      assertThat(page).doesNotContain(System.getProperty("java.io.tmpdir") + "/");
      assertThat(page).doesNotContain(System.getProperty("user.home"));
      assertThat(page).doesNotContainPattern("@[0-9a-f]{6,8}\\b");
    }
  }

  private static void check(Path file, String rendered) throws Exception {
    if (WRITE) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, rendered);
      return;
    }
    String committed = Files.exists(file) ? Files.readString(file) : "";
    assertThat(committed)
        .as(
            "%s is not what the code renders now; regenerate it with: %s",
            file.normalize(), ReferencePages.REGENERATE)
        .isEqualTo(rendered);
  }
}
