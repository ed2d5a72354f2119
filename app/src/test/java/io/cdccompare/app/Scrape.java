package io.cdccompare.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of a {@code /metrics} endpoint, parsed from the Prometheus text format. */
record Scrape(List<Sample> samples) {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Pattern LINE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)(?: \\S+)?");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  record Sample(String name, Map<String, String> labels, double value) {}

  /** A status code and body of a GET. */
  record Response(int status, String body) {}

  static Response get(int port, String path) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new Response(r.statusCode(), r.body());
  }

  static Scrape of(int port) throws Exception {
    Response r = get(port, "/metrics");
    if (r.status() != 200) {
      throw new IllegalStateException("/metrics answered " + r.status());
    }
    return parse(r.body());
  }

  static Scrape parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("not a sample: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher l = LABEL.matcher(m.group(2));
        while (l.find()) {
          labels.put(l.group(1), l.group(2));
        }
      }
      samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
    }
    return new Scrape(samples);
  }

  List<Sample> named(String name) {
    return samples.stream().filter(s -> s.name().equals(name)).toList();
  }

  /** The sum of the samples of {@code name} whose labels pass {@code labels}. */
  double sum(String name, Predicate<Map<String, String>> labels) {
    return named(name).stream()
        .filter(s -> labels.test(s.labels()))
        .mapToDouble(Sample::value)
        .sum();
  }

  double sum(String name) {
    return sum(name, l -> true);
  }
}
