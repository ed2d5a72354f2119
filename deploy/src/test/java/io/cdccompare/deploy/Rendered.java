package io.cdccompare.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One rendered kustomization of {@code k8s/} (the base, or the example overlay) and the look-ups
 * the tests share. Rendered once per test class through {@link #all()}.
 *
 * @param name {@code base} or {@code overlays/example}
 * @param docs the rendered resources
 */
record Rendered(String name, List<ObjectNode> docs) {
  /** The repository's {@code k8s/} folder (the tests run in {@code deploy/}). */
  static final Path K8S = locate();

  private static final Map<String, Rendered> CACHE = new TreeMap<>();

  static synchronized Rendered of(String name) {
    return CACHE.computeIfAbsent(
        name, n -> new Rendered(n, KustomizeRenderer.render(K8S.resolve(n))));
  }

  /** The base and the example overlay: every manifest check holds for both. */
  static Stream<Rendered> all() {
    return Stream.of(of("base"), of("overlays/example"));
  }

  List<ObjectNode> ofKind(String kind) {
    return docs.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
  }

  ObjectNode get(String kind, String name) {
    ObjectNode o = KustomizeRenderer.find(docs, kind, name);
    if (o == null) {
      throw new AssertionError(this.name + ": no " + kind + " " + name);
    }
    return o;
  }

  /** Deployments and CronJobs. */
  List<ObjectNode> workloads() {
    return docs.stream().filter(d -> KustomizeRenderer.podSpec(d) != null).toList();
  }

  /** A properties file held in the ConfigMap cdc-compare-config, as the program reads it. */
  Map<String, String> configFile(String key) {
    JsonNode text = get("ConfigMap", "cdc-compare-config").path("data").path(key);
    if (text.isMissingNode()) {
      throw new AssertionError(name + ": cdc-compare-config has no " + key);
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(text.asText()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> out = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k).strip()));
    return out;
  }

  static String label(JsonNode o, String key) {
    return o.path("metadata").path("labels").path(key).asText(null);
  }

  @Override
  public String toString() {
    return name;
  }

  private static Path locate() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("k8s/base"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no k8s/base above " + Path.of("").toAbsolutePath());
    }
    return dir.resolve("k8s");
  }
}
