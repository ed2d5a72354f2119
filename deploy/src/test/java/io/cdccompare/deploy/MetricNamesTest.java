package io.cdccompare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.core.metrics.Metric;
import io.cdccompare.core.metrics.MetricNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The PrometheusRule and the Grafana dashboard query only metrics the programs publish ({@link
 * MetricNames#ALL}, as Prometheus names them), Prometheus' own {@code up}, and the JVM binder's
 * {@code jvm_*}; and the rules cover what issue 18 asks to alert on.
 */
class MetricNamesTest {
  private static final Set<String> PROMQL_WORDS =
      Set.of(
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "and",
          "or",
          "unless",
          "bool",
          "offset",
          "le",
          "inf",
          "nan");
  private static final Pattern IDENT = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

  @Test
  void theRulesQueryOnlyKnownMetrics() {
    List<String> exprs = ruleExpressions();
    assertThat(exprs).isNotEmpty();
    exprs.forEach(e -> assertThat(unknownMetrics(e)).as(e).isEmpty());
  }

  @Test
  void theDashboardQueriesOnlyKnownMetrics() throws Exception {
    List<String> exprs = dashboardExpressions();
    assertThat(exprs).hasSizeGreaterThan(10);
    exprs.forEach(e -> assertThat(unknownMetrics(e)).as(e).isEmpty());
  }

  @Test
  void theRulesAlertOnWhatAPersonMustActOn() {
    Set<String> alerts = new TreeSet<>();
    for (JsonNode group :
        Rendered.of("base").get("PrometheusRule", "cdc-compare").path("spec").path("groups")) {
      group.path("rules").forEach(r -> alerts.add(r.path("alert").asText()));
    }
    assertThat(alerts)
        .contains(
            "CdcCompareVerifierStopped",
            "CdcCompareApplyLagGrowing",
            "CdcCompareDifferencesFound",
            "CdcCompareResyncNeeded",
            "CdcCompareCaptureDown");
  }

  @Test
  void anUnknownMetricIsFound() {
    // Given an expression with a misspelt metric, a label, a function and a range
    String expr = "sum by (target) (rate(cdccompare_apply_row_total{target=~\"a|b\"}[5m])) > 0";

    // Then only the metric is reported
    assertThat(unknownMetrics(expr)).containsExactly("cdccompare_apply_row_total");
    assertThat(unknownMetrics(expr.replace("apply_row_total", "apply_rows_total"))).isEmpty();
  }

  /** Every Prometheus series name the catalogue gives, histograms with their three series. */
  static Set<String> knownSeries() {
    Set<String> out = new TreeSet<>();
    for (Metric m : MetricNames.ALL) {
      String name = m.prometheusName();
      out.add(name);
      if (m.type() == Metric.Type.HISTOGRAM) {
        out.add(name + "_bucket");
        out.add(name + "_count");
        out.add(name + "_sum");
      }
    }
    out.add("up");
    return out;
  }

  /** The metric names in a PromQL expression that are not known series. */
  static List<String> unknownMetrics(String expr) {
    String s =
        expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"") // strings
            .replaceAll("\\{[^}]*}", " ") // label matchers
            .replaceAll("\\[[^]]*]", " ") // ranges
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
    Set<String> known = knownSeries();
    List<String> out = new ArrayList<>();
    Matcher m = IDENT.matcher(s);
    while (m.find()) {
      String word = m.group();
      int after = m.end();
      while (after < s.length() && s.charAt(after) == ' ') {
        after++;
      }
      boolean function = after < s.length() && s.charAt(after) == '(';
      boolean number = m.start() > 0 && Character.isDigit(s.charAt(m.start() - 1));
      if (function || number || PROMQL_WORDS.contains(word.toLowerCase())) {
        continue;
      }
      if (!known.contains(word) && !word.startsWith("jvm_")) {
        out.add(word);
      }
    }
    return out;
  }

  static List<String> ruleExpressions() {
    List<String> out = new ArrayList<>();
    for (JsonNode group :
        Rendered.of("base").get("PrometheusRule", "cdc-compare").path("spec").path("groups")) {
      group.path("rules").forEach(r -> out.add(r.path("expr").asText()));
    }
    return out;
  }

  static List<String> dashboardExpressions() throws Exception {
    JsonNode cm = Rendered.of("base").get("ConfigMap", "cdc-compare-dashboard");
    JsonNode dashboard =
        new ObjectMapper().readTree(cm.path("data").path("cdc-compare.json").asText());
    List<String> out = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      panel.path("targets").forEach(t -> out.add(t.path("expr").asText()));
    }
    return out;
  }
}
