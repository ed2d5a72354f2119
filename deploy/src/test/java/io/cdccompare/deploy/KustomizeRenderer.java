package io.cdccompare.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders a kustomization the way {@code kubectl kustomize} does, for the subset of Kustomize the
 * manifests in {@code k8s/} use: {@code resources} (files and kustomization directories), {@code
 * configMapGenerator} (files, {@code behavior} create/replace/merge, {@code options.labels}) with
 * {@code generatorOptions.disableNameSuffixHash: true}, {@code patches} given as JSON 6902
 * operation lists with a {@code target}, {@code namespace} and {@code images}.
 *
 * <p>Why our own: no Kustomize renderer runs on a machine with only Java and Maven (the kustomize
 * binary and kubectl are Go programs from outside Maven Central). Anything else in a kustomization
 * — a field, a strategic-merge patch, a name-suffix hash — is refused, so the renderer never
 * silently renders something other than what {@code kubectl kustomize} would.
 */
final class KustomizeRenderer {
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static final Set<String> SUPPORTED =
      Set.of(
          "apiVersion",
          "kind",
          "resources",
          "namespace",
          "images",
          "configMapGenerator",
          "generatorOptions",
          "patches");

  private KustomizeRenderer() {}

  /** The resources the kustomization in {@code dir} renders, in Kustomize's order. */
  static List<ObjectNode> render(Path dir) {
    JsonNode k = readOne(dir.resolve("kustomization.yaml"));
    k.fieldNames()
        .forEachRemaining(
            f -> {
              if (!SUPPORTED.contains(f)) {
                throw new IllegalArgumentException(
                    dir + "/kustomization.yaml: field " + f + " is not supported by this renderer");
              }
            });
    List<ObjectNode> out = new ArrayList<>();
    for (JsonNode r : k.path("resources")) {
      Path p = dir.resolve(r.asText()).normalize();
      if (Files.isDirectory(p)) {
        out.addAll(render(p));
      } else {
        out.addAll(readAll(p));
      }
    }
    JsonNode options = k.path("generatorOptions");
    if (k.has("configMapGenerator") && !options.path("disableNameSuffixHash").asBoolean(false)) {
      throw new IllegalArgumentException(
          dir + ": name-suffix hashes are not supported; set disableNameSuffixHash: true");
    }
    for (JsonNode gen : k.path("configMapGenerator")) {
      generate(dir, gen, out);
    }
    for (JsonNode patch : k.path("patches")) {
      patch(dir, patch, out);
    }
    if (k.has("namespace")) {
      for (ObjectNode o : out) {
        metadata(o).put("namespace", k.get("namespace").asText());
      }
    }
    for (JsonNode image : k.path("images")) {
      for (ObjectNode o : out) {
        retag(o, image);
      }
    }
    return out;
  }

  static List<ObjectNode> readAll(Path file) {
    try (MappingIterator<JsonNode> docs =
        YAML.readerFor(JsonNode.class).readValues(Files.readString(file, StandardCharsets.UTF_8))) {
      List<ObjectNode> out = new ArrayList<>();
      while (docs.hasNext()) {
        JsonNode d = docs.next();
        if (d != null && !d.isNull() && !d.isMissingNode() && d.size() > 0) {
          out.add((ObjectNode) d);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(file.toString(), e);
    }
  }

  private static JsonNode readOne(Path file) {
    try {
      return YAML.readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(file.toString(), e);
    }
  }

  private static void generate(Path dir, JsonNode gen, List<ObjectNode> out) {
    String name = gen.get("name").asText();
    String behavior = gen.path("behavior").asText("create");
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    for (JsonNode f : gen.path("files")) {
      String spec = f.asText();
      int eq = spec.indexOf('=');
      String key = eq < 0 ? Path.of(spec).getFileName().toString() : spec.substring(0, eq);
      Path file = dir.resolve(eq < 0 ? spec : spec.substring(eq + 1));
      try {
        data.put(key, Files.readString(file, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(file.toString(), e);
      }
    }
    ObjectNode existing = find(out, "ConfigMap", name);
    switch (behavior) {
      case "create" -> {
        if (existing != null) {
          throw new IllegalArgumentException(
              "ConfigMap " + name + " exists; use behavior merge or replace");
        }
        ObjectNode cm = JsonNodeFactory.instance.objectNode();
        cm.put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("name", name);
        if (gen.path("options").has("labels")) {
          metadata(cm).set("labels", gen.get("options").get("labels").deepCopy());
        }
        cm.set("data", data);
        out.add(cm);
      }
      case "replace", "merge" -> {
        if (existing == null) {
          throw new IllegalArgumentException(
              "ConfigMap " + name + " to " + behavior + " is not in the resources");
        }
        if (behavior.equals("replace")) {
          existing.set("data", data);
        } else {
          ((ObjectNode) existing.get("data")).setAll(data);
        }
      }
      default -> throw new IllegalArgumentException("unknown generator behavior " + behavior);
    }
  }

  private static void patch(Path dir, JsonNode patch, List<ObjectNode> out) {
    JsonNode target = patch.get("target");
    JsonNode ops = readOne(dir.resolve(patch.get("path").asText()));
    if (!ops.isArray()) {
      throw new IllegalArgumentException(
          patch.get("path").asText()
              + ": only JSON 6902 patches (a list of operations) are supported");
    }
    List<ObjectNode> matched = new ArrayList<>();
    for (ObjectNode o : out) {
      String apiVersion = o.path("apiVersion").asText();
      String group =
          apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
      String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
      if (o.path("kind").asText().equals(target.path("kind").asText())
          && o.path("metadata").path("name").asText().equals(target.path("name").asText())
          && group.equals(target.path("group").asText(""))
          && version.equals(target.path("version").asText(version))) {
        matched.add(o);
      }
    }
    if (matched.isEmpty()) {
      throw new IllegalArgumentException(
          "patch " + patch.get("path").asText() + ": no resource matches " + target);
    }
    for (ObjectNode o : matched) {
      for (JsonNode op : ops) {
        JsonPatch.apply(o, op);
      }
    }
  }

  private static void retag(ObjectNode o, JsonNode image) {
    String name = image.get("name").asText();
    for (ObjectNode c : containers(o)) {
      String current = c.path("image").asText();
      String bare = current.replaceFirst("[:@].*$", "");
      if (bare.equals(name)) {
        String newName = image.path("newName").asText(bare);
        String tag =
            image.has("newTag")
                ? ":" + image.get("newTag").asText()
                : current.substring(bare.length());
        c.put("image", newName + tag);
      }
    }
  }

  /** The containers of a workload (Deployment, Job, CronJob, Pod), empty for other kinds. */
  static List<ObjectNode> containers(JsonNode o) {
    JsonNode spec = podSpec(o);
    List<ObjectNode> out = new ArrayList<>();
    if (spec == null) {
      return out;
    }
    for (String field : List.of("initContainers", "containers")) {
      for (JsonNode c : spec.path(field)) {
        out.add((ObjectNode) c);
      }
    }
    return out;
  }

  /** The pod spec of a workload, or null. */
  static JsonNode podSpec(JsonNode o) {
    return switch (o.path("kind").asText()) {
      case "Deployment", "Job", "StatefulSet", "DaemonSet" ->
          o.path("spec").path("template").path("spec");
      case "CronJob" ->
          o.path("spec").path("jobTemplate").path("spec").path("template").path("spec");
      case "Pod" -> o.path("spec");
      default -> null;
    };
  }

  static ObjectNode find(List<ObjectNode> docs, String kind, String name) {
    for (ObjectNode o : docs) {
      if (o.path("kind").asText().equals(kind)
          && o.path("metadata").path("name").asText().equals(name)) {
        return o;
      }
    }
    return null;
  }

  private static ObjectNode metadata(ObjectNode o) {
    return o.has("metadata") ? (ObjectNode) o.get("metadata") : o.putObject("metadata");
  }

  /** JSON 6902 add, replace, remove and test on a tree. */
  static final class JsonPatch {
    private JsonPatch() {}

    static void apply(ObjectNode doc, JsonNode op) {
      String kind = op.get("op").asText();
      List<String> path = pointer(op.get("path").asText());
      JsonNode parent = doc;
      for (String token : path.subList(0, path.size() - 1)) {
        parent = parent.isArray() ? parent.path(Integer.parseInt(token)) : parent.path(token);
        if (parent.isMissingNode()) {
          throw new IllegalArgumentException(
              "patch path " + op.get("path").asText() + " does not exist");
        }
      }
      String last = path.get(path.size() - 1);
      switch (kind) {
        case "add" -> add(parent, last, op.get("value").deepCopy());
        case "replace" -> {
          requireExists(parent, last, op);
          remove(parent, last);
          add(parent, last, op.get("value").deepCopy());
        }
        case "remove" -> {
          requireExists(parent, last, op);
          remove(parent, last);
        }
        case "test" -> {
          JsonNode at = parent.isArray() ? parent.path(Integer.parseInt(last)) : parent.path(last);
          if (!at.equals(op.get("value"))) {
            throw new IllegalArgumentException("patch test failed at " + op.get("path").asText());
          }
        }
        default -> throw new IllegalArgumentException("patch op " + kind + " is not supported");
      }
    }

    private static void add(JsonNode parent, String last, JsonNode value) {
      if (parent.isArray()) {
        ArrayNode a = (ArrayNode) parent;
        if (last.equals("-")) {
          a.add(value);
        } else {
          a.insert(Integer.parseInt(last), value);
        }
      } else if (parent.isObject()) {
        ((ObjectNode) parent).set(last, value);
      } else {
        throw new IllegalArgumentException("cannot add " + last + " to a " + parent.getNodeType());
      }
    }

    private static void remove(JsonNode parent, String last) {
      if (parent.isArray()) {
        ((ArrayNode) parent).remove(Integer.parseInt(last));
      } else {
        ((ObjectNode) parent).remove(last);
      }
    }

    private static void requireExists(JsonNode parent, String last, JsonNode op) {
      JsonNode at = parent.isArray() ? parent.path(Integer.parseInt(last)) : parent.path(last);
      if (at.isMissingNode()) {
        throw new IllegalArgumentException(
            "patch path " + op.get("path").asText() + " does not exist");
      }
    }

    private static List<String> pointer(String p) {
      if (!p.startsWith("/")) {
        throw new IllegalArgumentException("not a JSON pointer: " + p);
      }
      List<String> out = new ArrayList<>();
      for (String t : p.substring(1).split("/", -1)) {
        out.add(t.replace("~1", "/").replace("~0", "~"));
      }
      return out;
    }
  }

  static Map<String, String> stringMap(JsonNode node) {
    Map<String, String> out = new java.util.TreeMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }
}
