package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link between the project's Markdown pages resolves: the file exists and an {@code
 * #anchor} is a heading of that file, by GitHub's rules (lower case, punctuation dropped but for
 * {@code -} and {@code _}, spaces as {@code -}, a repeated heading suffixed {@code -1}, {@code -2},
 * …). Links to other sites are not followed.
 */
class DocsLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

  @Test
  void everyLinkBetweenThePagesResolves() throws IOException {
    // Given every Markdown page of the project
    List<Path> pages = pages(ROOT);
    assertThat(pages).contains(ROOT.resolve("README.md"), ROOT.resolve("docs/design.md"));
    // Then each of their relative links names a file that exists and a heading it has
    List<String> broken = new ArrayList<>();
    pages.forEach(page -> broken.addAll(brokenLinks(page)));
    assertThat(broken).as("broken links (page: link)").isEmpty();
  }

  @Test
  void aLinkToAMissingFileOrHeadingIsFound() throws IOException {
    // Given a page with a good link, a link to a missing file and one to a missing heading
    Path dir = Files.createTempDirectory("docs-links");
    Files.writeString(dir.resolve("other.md"), "# Other\n\n## A heading, with: punctuation\n");
    Files.writeString(
        dir.resolve("page.md"),
        "# Page\n\n[good](other.md#a-heading-with-punctuation) [file](gone.md)"
            + " [anchor](other.md#nowhere) [self](#page) [site](https://example.com/x#y)\n");
    // Then exactly the two bad links are reported
    assertThat(brokenLinks(dir.resolve("page.md")))
        .containsExactly("page.md: gone.md", "page.md: other.md#nowhere");
  }

  @Test
  void repeatedHeadingsGetNumberedAnchors() {
    assertThat(
            anchors(
                List.of(
                    "# Notes", "## Tests", "```", "## Tests", "```", "## Tests", "## `a --b` c.d")))
        .containsExactlyInAnyOrder("notes", "tests", "tests-1", "a---b-cd");
  }

  private static List<Path> pages(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.toString().endsWith(".md"))
          .filter(
              p -> {
                for (Path part : root.relativize(p)) {
                  String name = part.toString();
                  if (name.equals("target")
                      || name.startsWith(".")
                      || name.equals("node_modules")) {
                    return false;
                  }
                }
                return true;
              })
          .sorted()
          .toList();
    }
  }

  private static final Map<Path, Set<String>> ANCHORS = new HashMap<>();

  private static List<String> brokenLinks(Path page) {
    List<String> broken = new ArrayList<>();
    String text = read(page);
    Path base = page.getParent();
    Matcher m = LINK.matcher(text);
    while (m.find()) {
      String link = m.group(1);
      if (link.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
        continue;
      }
      int hash = link.indexOf('#');
      String file = hash < 0 ? link : link.substring(0, hash);
      String anchor = hash < 0 ? "" : link.substring(hash + 1);
      Path target = file.isEmpty() ? page : base.resolve(file).normalize();
      String where = base.relativize(page) + ": " + link;
      if (page.startsWith(ROOT)) {
        where = ROOT.relativize(page) + ": " + link;
      }
      if (!Files.exists(target)) {
        broken.add(where);
      } else if (!anchor.isEmpty()
          && target.toString().endsWith(".md")
          && !ANCHORS
              .computeIfAbsent(target, t -> anchors(read(t).lines().toList()))
              .contains(anchor)) {
        broken.add(where);
      }
    }
    return broken;
  }

  static Set<String> anchors(List<String> lines) {
    Map<String, Integer> seen = new HashMap<>();
    Set<String> anchors = new HashSet<>();
    boolean fenced = false;
    for (String line : lines) {
      if (line.startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      Matcher m = HEADING.matcher(line);
      if (fenced || !m.matches()) {
        continue;
      }
      String slug =
          m.group(1)
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
              .replace(' ', '-');
      int n = seen.merge(slug, 1, Integer::sum) - 1;
      anchors.add(n == 0 ? slug : slug + "-" + n);
    }
    return anchors;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
