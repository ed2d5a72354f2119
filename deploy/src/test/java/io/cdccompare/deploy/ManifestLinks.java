package io.cdccompare.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the pods of a rendering can reach: mounted files and the Secrets they come from. */
final class ManifestLinks {
  /** The keys Strimzi's User Operator writes into the Secret of a SCRAM-SHA-512 KafkaUser. */
  static final Set<String> KAFKA_USER_SECRET_KEYS = Set.of("password", "sasl.jaas.config");

  /** The keys of Strimzi's cluster CA certificate Secret, {@code <cluster>-cluster-ca-cert}. */
  static final Set<String> CLUSTER_CA_KEYS = Set.of("ca.crt", "ca.p12", "ca.password");

  private static final Pattern CREATE_SECRET =
      Pattern.compile("create secret generic ([a-z0-9-]+)((?:\\s+--from-(?:file|literal)=\\S+)+)");
  private static final Pattern FROM = Pattern.compile("--from-(file|literal)=(\\S+)");

  private ManifestLinks() {}

  /** The files a container sees through its ConfigMap and Secret volumes ({@code items}). */
  static Set<String> mountedFiles(JsonNode workload, JsonNode container) {
    JsonNode spec = KustomizeRenderer.podSpec(workload);
    Set<String> out = new TreeSet<>();
    for (JsonNode mount : container.path("volumeMounts")) {
      JsonNode volume = volume(spec, mount.path("name").asText());
      if (volume == null) {
        continue;
      }
      JsonNode source = volume.has("configMap") ? volume.get("configMap") : volume.path("secret");
      for (JsonNode item : source.path("items")) {
        out.add(mount.path("mountPath").asText() + "/" + item.path("path").asText());
      }
    }
    return out;
  }

  static JsonNode volume(JsonNode podSpec, String name) {
    for (JsonNode v : podSpec.path("volumes")) {
      if (v.path("name").asText().equals(name)) {
        return v;
      }
    }
    return null;
  }

  /**
   * The Secrets a rendering may reference and their keys: those of its KafkaUsers (written by
   * Strimzi), its cluster's CA certificate, and those docs/operations.md's "create secrets" step
   * creates.
   */
  static Map<String, Set<String>> knownSecrets(Rendered rendered) {
    Map<String, Set<String>> out = new TreeMap<>(readmeSecrets());
    for (JsonNode user : rendered.ofKind("KafkaUser")) {
      out.put(user.path("metadata").path("name").asText(), KAFKA_USER_SECRET_KEYS);
    }
    for (JsonNode r : rendered.docs()) {
      String cluster = Rendered.label(r, "strimzi.io/cluster");
      if (cluster != null) {
        out.put(cluster + "-cluster-ca-cert", CLUSTER_CA_KEYS);
      }
    }
    return out;
  }

  /**
   * The Secrets that {@code kubectl create secret generic} commands in docs/operations.md create.
   */
  static Map<String, Set<String>> readmeSecrets() {
    String readme;
    try {
      readme = Files.readString(Rendered.K8S.resolveSibling("docs").resolve("operations.md"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Set<String>> out = new TreeMap<>();
    Matcher m = CREATE_SECRET.matcher(readme);
    while (m.find()) {
      Set<String> keys = new TreeSet<>();
      Matcher f = FROM.matcher(m.group(2));
      while (f.find()) {
        String spec = f.group(2);
        int eq = spec.indexOf('=');
        keys.add(eq >= 0 ? spec.substring(0, eq) : spec.substring(spec.lastIndexOf('/') + 1));
      }
      out.put(m.group(1), keys);
    }
    return out;
  }
}
