package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative Markdown link of the repository's {@code *.md} files points to a file that exists,
 * and its {@code #anchor} to a heading of that file, by GitHub's anchor rules. External links
 * (http, https, mailto) are not checked. Links inside code (fenced blocks, inline code) are not
 * links.
 */
class DocsLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Set<String> SKIPPED = Set.of("target", ".git", "node_modules");

  /** {@code [text](dest)} or {@code ![alt](dest "title")}. */
  private static final Pattern LINK =
      Pattern.compile(
          "!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ANCHOR =
      Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);

  @Test
  void everyRelativeLinkPointsToAnExistingFileAndHeading() throws IOException {
    List<String> broken = brokenLinks(ROOT);
    assertThat(broken).as("broken links (file:line: link -> why)").isEmpty();
  }

  @Test
  void slugsFollowGitHub() {
    assertThat(slug("Exit codes")).isEqualTo("exit-codes");
    assertThat(slug("`report -o html`: the report as one page"))
        .isEqualTo("report--o-html-the-report-as-one-page");
    assertThat(slug("3. On your own databases")).isEqualTo("3-on-your-own-databases");
    assertThat(slug("Flow control: the compare follows its slowest target"))
        .isEqualTo("flow-control-the-compare-follows-its-slowest-target");
    assertThat(slug("The full compare task (`io.cdccompare.producer.compare`)"))
        .isEqualTo("the-full-compare-task-iocdccompareproducercompare");
    assertThat(slug("[Soak](x) chaos_test")).isEqualTo("soak-chaos_test");
    assertThat(slug("Per table: `table.<schema.table>.<setting>`"))
        .isEqualTo("per-table-tableschematablesetting");
  }

  static List<String> brokenLinks(Path root) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files =
          walk.filter(p -> p.toString().endsWith(".md"))
              .filter(p -> root.relativize(p).toString().isEmpty() || notSkipped(root, p))
              .sorted()
              .toList();
    }
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    for (Path file : files) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      boolean fenced = false;
      String fence = null;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        String trimmed = line.stripLeading();
        if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
          String marker = trimmed.substring(0, 3);
          if (!fenced) {
            fenced = true;
            fence = marker;
          } else if (marker.equals(fence)) {
            fenced = false;
          }
          continue;
        }
        if (fenced) {
          continue;
        }
        Matcher m = LINK.matcher(withoutInlineCode(line));
        while (m.find()) {
          String dest = m.group(1);
          String why = check(root, file, dest, anchors);
          if (why != null) {
            broken.add(root.relativize(file) + ":" + (i + 1) + ": " + dest + " -> " + why);
          }
        }
      }
    }
    return broken;
  }

  private static boolean notSkipped(Path root, Path p) {
    for (Path part : root.relativize(p)) {
      if (SKIPPED.contains(part.toString())) {
        return false;
      }
    }
    return true;
  }

  private static String check(Path root, Path file, String dest, Map<Path, Set<String>> anchors)
      throws IOException {
    String lower = dest.toLowerCase(Locale.ROOT);
    if (dest.isEmpty()
        || lower.startsWith("http://")
        || lower.startsWith("https://")
        || lower.startsWith("mailto:")) {
      return null;
    }
    int hash = dest.indexOf('#');
    String path = hash < 0 ? dest : dest.substring(0, hash);
    String anchor = hash < 0 ? null : dest.substring(hash + 1);
    Path target;
    if (path.isEmpty()) {
      target = file;
    } else {
      String decoded = URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
      target =
          decoded.startsWith("/")
              ? root.resolve(decoded.substring(1))
              : file.getParent().resolve(decoded);
      target = target.normalize();
      if (!target.startsWith(root)) {
        return "outside the repository";
      }
      if (!Files.exists(target)) {
        return "no such file " + root.relativize(target);
      }
    }
    if (anchor == null || anchor.isEmpty()) {
      return null;
    }
    if (!target.toString().endsWith(".md")) {
      return null;
    }
    Set<String> known = anchors.computeIfAbsent(target, DocsLinksTest::anchorsOf);
    if (!known.contains(URLDecoder.decode(anchor, StandardCharsets.UTF_8))) {
      return "no heading #" + anchor + " in " + root.relativize(target);
    }
    return null;
  }

  /** The anchors of a Markdown file: its headings' slugs (duplicates numbered) and HTML anchors. */
  static Set<String> anchorsOf(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Set<String> out = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    String fence = null;
    for (String line : lines) {
      String trimmed = line.stripLeading();
      if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
        String marker = trimmed.substring(0, 3);
        if (!fenced) {
          fenced = true;
          fence = marker;
        } else if (marker.equals(fence)) {
          fenced = false;
        }
        continue;
      }
      if (fenced) {
        continue;
      }
      Matcher a = HTML_ANCHOR.matcher(line);
      while (a.find()) {
        out.add(a.group(1));
      }
      Matcher h = HEADING.matcher(line);
      if (h.matches()) {
        String base = slug(h.group(2));
        int n = seen.merge(base, 1, Integer::sum) - 1;
        out.add(n == 0 ? base : base + "-" + n);
      }
    }
    return out;
  }

  /**
   * GitHub's anchor of a heading: its text as rendered (links by their text, code without its
   * backticks, no emphasis marks), lower case, every character that is not a letter, digit, space,
   * {@code -} or {@code _} dropped, each space a {@code -}.
   */
  static String slug(String heading) {
    // code spans keep their text as it is; outside them, links become their text and HTML tags
    // and emphasis marks go
    String[] parts = heading.split("`", -1);
    StringBuilder rendered = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      rendered.append(
          i % 2 == 1
              ? parts[i]
              : parts[i]
                  .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
                  .replaceAll("<[^>]+>", "")
                  .replace("*", ""));
    }
    String text = rendered.toString();
    StringBuilder out = new StringBuilder();
    text.toLowerCase(Locale.ROOT)
        .codePoints()
        .forEach(
            c -> {
              if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
              } else if (c == ' ') {
                out.append('-');
              }
            });
    return out.toString();
  }

  private static String withoutInlineCode(String line) {
    return line.replaceAll("(`+)(?:(?!\\1).)+?\\1", "``");
  }
}
