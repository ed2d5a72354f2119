package io.cdccompare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example overlay renders over the base as {@code kubectl kustomize} would: every base resource
 * is there, in the overlay's namespace, with its image, its configuration and its patches; and the
 * renderer refuses what it does not implement instead of rendering something else.
 */
class KustomizeRendererTest {
  @Test
  void theOverlayKeepsEveryBaseResourceAndAddsItsOwn() {
    Rendered base = Rendered.of("base");
    Rendered overlay = Rendered.of("overlays/example");

    for (ObjectNode o : base.docs()) {
      assertThat(overlay.get(o.path("kind").asText(), o.path("metadata").path("name").asText()))
          .isNotNull();
    }
    assertThat(overlay.get("Deployment", "cdc-compare-verify-maria")).isNotNull();
    assertThat(overlay.get("KafkaUser", "cdc-compare-verify-maria")).isNotNull();
    assertThat(overlay.get("KafkaTopic", "shop.public.orders")).isNotNull();
  }

  @Test
  void theOverlaySetsItsNamespaceAndImageEverywhere() {
    Rendered overlay = Rendered.of("overlays/example");

    for (ObjectNode o : overlay.docs()) {
      assertThat(o.path("metadata").path("namespace").asText())
          .as(CrossReferenceTest.name(o))
          .isEqualTo("kafka");
    }
    for (ObjectNode w : overlay.workloads()) {
      for (ObjectNode c : KustomizeRenderer.containers(w)) {
        assertThat(c.path("image").asText())
            .isEqualTo("registry.example.com/platform/cdc-compare:0.1.0");
      }
    }
    for (ObjectNode w : Rendered.of("base").workloads()) {
      assertThat(KustomizeRenderer.containers(w).get(0).path("image").asText())
          .isEqualTo("cdc-compare:0.1.0-SNAPSHOT");
    }
  }

  @Test
  void theOverlayReplacesTheConfigurationAndPatchesTheUsers() {
    Rendered overlay = Rendered.of("overlays/example");

    assertThat(overlay.configFile("targets.properties")).containsKey("target.maria.url");
    assertThat(overlay.configFile("capture.properties").get("tables")).contains("public.orders");
    assertThat(Rendered.of("base").configFile("targets.properties"))
        .doesNotContainKey("target.maria.url");
    JsonNode acls =
        overlay
            .get("KafkaUser", "cdc-compare-capture")
            .path("spec")
            .path("authorization")
            .path("acls");
    assertThat(acls.get(acls.size() - 1).path("resource").path("name").asText())
        .isEqualTo("shop.public.orders");
    assertThat(Rendered.label(overlay.get("PodMonitor", "cdc-compare"), "release"))
        .isEqualTo("prometheus");
  }

  @Test
  void anUnsupportedKustomizationFieldIsRefused(@TempDir Path dir) throws Exception {
    // Given a kustomization with commonLabels, which this renderer does not implement
    Files.writeString(dir.resolve("kustomization.yaml"), "resources: []\ncommonLabels: {a: b}\n");

    // Then it is refused, naming the field
    assertThatThrownBy(() -> KustomizeRenderer.render(dir)).hasMessageContaining("commonLabels");
  }

  @Test
  void aPatchOfAMissingResourceOrPathIsRefused(@TempDir Path dir) throws Exception {
    // Given a resource and a patch on a path it does not have
    Files.writeString(
        dir.resolve("cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n");
    Files.writeString(dir.resolve("p.yaml"), "- op: replace\n  path: /spec/replicas\n  value: 2\n");
    Files.writeString(
        dir.resolve("kustomization.yaml"),
        "resources: [cm.yaml]\npatches:\n  - path: p.yaml\n    target: {version: v1, kind: ConfigMap, name: x}\n");

    // Then the render fails naming the path
    assertThatThrownBy(() -> KustomizeRenderer.render(dir)).hasMessageContaining("/spec/replicas");

    // And a target that matches nothing fails too
    Files.writeString(
        dir.resolve("kustomization.yaml"),
        "resources: [cm.yaml]\npatches:\n  - path: p.yaml\n    target: {version: v1, kind: ConfigMap, name: y}\n");
    assertThatThrownBy(() -> KustomizeRenderer.render(dir))
        .hasMessageContaining("no resource matches");
  }

  @Test
  void jsonPatchOperationsWork(@TempDir Path dir) throws Exception {
    ObjectNode doc = (ObjectNode) KustomizeRenderer.YAML.readTree("a: {b: [1, 2]}\nc: 1\n");
    List<String> ops =
        List.of(
            "{op: add, path: /a/b/-, value: 3}",
            "{op: add, path: /a/b/0, value: 0}",
            "{op: replace, path: /c, value: 2}",
            "{op: remove, path: /a/b/1}",
            "{op: add, path: /d~1e, value: x}");
    for (String op : ops) {
      KustomizeRenderer.JsonPatch.apply(doc, KustomizeRenderer.YAML.readTree(op));
    }
    assertThat(doc.toString()).isEqualTo("{\"a\":{\"b\":[0,2,3]},\"c\":2,\"d/e\":\"x\"}");
  }
}
