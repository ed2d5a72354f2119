package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.metrics.Metric;
import io.cdccompare.core.metrics.MetricNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class MetricsReadmeTest {
  private static final Pattern ROW =
      Pattern.compile("^\\| `(cdccompare_[a-z0-9_]+)` \\| (\\w+) \\| ([^|]*) \\|");

  @Test
  void theReadmesMetricsTableListsExactlyTheCatalogue() throws Exception {
    // Given the table of metrics in docs/operations.md
    String readme = Files.readString(Path.of("..", "docs", "operations.md"));
    List<String> rows =
        readme.lines().map(ROW::matcher).filter(Matcher::find).map(m -> m.group(0)).toList();

    // Then it names every metric of MetricNames, in order, with its type and labels, and no other
    List<String> expected =
        MetricNames.ALL.stream()
            .map(
                (Metric m) ->
                    "| `"
                        + m.prometheusName()
                        + "` | "
                        + m.type().name().toLowerCase(java.util.Locale.ROOT)
                        + " | "
                        + (m.labels().isEmpty() ? "—" : String.join(", ", m.labels()))
                        + " |")
            .toList();
    assertThat(rows).containsExactlyElementsOf(expected);
  }
}
