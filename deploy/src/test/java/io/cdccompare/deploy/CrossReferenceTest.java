package io.cdccompare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Names and labels line up in every rendering: selectors match pod labels, every ConfigMap and
 * Secret a pod uses exists (or is one Strimzi or docs/operations.md's secrets step creates), probes
 * and the PodMonitor use ports the pods have, {@code --metrics-port} is the port the pod declares,
 * and every {@code ${file:…}} and {@code ${env:…}} in a pod's configuration file is there in that
 * pod.
 */
class CrossReferenceTest {
  private static final Pattern FILE_REF = Pattern.compile("\\$\\{file:([^:}]+):([^}]+)}");
  private static final Pattern ENV_REF = Pattern.compile("\\$\\{env:([^}]+)}");

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void deploymentSelectorsMatchTheirPods(Rendered rendered) {
    for (ObjectNode d : rendered.ofKind("Deployment")) {
      Map<String, String> selector =
          KustomizeRenderer.stringMap(d.path("spec").path("selector").path("matchLabels"));
      Map<String, String> pod =
          KustomizeRenderer.stringMap(
              d.path("spec").path("template").path("metadata").path("labels"));
      assertThat(selector).as(name(d)).isNotEmpty();
      assertThat(pod).as(name(d)).containsAllEntriesOf(selector);
    }
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void everyConfigMapAndSecretAPodUsesExists(Rendered rendered) {
    Map<String, Set<String>> secrets = ManifestLinks.knownSecrets(rendered);
    for (ObjectNode w : rendered.workloads()) {
      JsonNode spec = KustomizeRenderer.podSpec(w);
      for (JsonNode v : spec.path("volumes")) {
        if (v.has("configMap")) {
          JsonNode cm = rendered.get("ConfigMap", v.get("configMap").path("name").asText());
          for (JsonNode item : v.get("configMap").path("items")) {
            assertThat(cm.path("data").has(item.path("key").asText()))
                .as(name(w) + " ConfigMap key " + item.path("key").asText())
                .isTrue();
          }
        }
        if (v.has("secret")) {
          String secret = v.get("secret").path("secretName").asText();
          assertThat(secrets).as(name(w) + " Secret").containsKey(secret);
          for (JsonNode item : v.get("secret").path("items")) {
            assertThat(secrets.get(secret))
                .as(name(w) + " " + secret)
                .contains(item.path("key").asText());
          }
        }
      }
      for (ObjectNode c : KustomizeRenderer.containers(w)) {
        for (JsonNode mount : c.path("volumeMounts")) {
          assertThat(ManifestLinks.volume(spec, mount.path("name").asText()))
              .as(name(w) + " volume " + mount.path("name").asText())
              .isNotNull();
        }
        for (JsonNode env : c.path("env")) {
          JsonNode ref = env.path("valueFrom").path("secretKeyRef");
          if (!ref.isMissingNode()) {
            assertThat(secrets).as(name(w) + " Secret").containsKey(ref.path("name").asText());
            assertThat(secrets.get(ref.path("name").asText())).contains(ref.path("key").asText());
          }
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void everyFileAndEnvReferenceOfAConfigFileIsThereInItsPod(Rendered rendered) {
    for (ObjectNode w : rendered.workloads()) {
      for (ObjectNode c : KustomizeRenderer.containers(w)) {
        // Given the configuration file the container runs with
        List<String> args = CliFlagsTest.args(c);
        String path = args.get(args.indexOf("-c") + 1);
        String key = path.substring(path.lastIndexOf('/') + 1);
        String text =
            rendered.get("ConfigMap", "cdc-compare-config").path("data").path(key).asText();
        Set<String> files = ManifestLinks.mountedFiles(w, c);
        Set<String> env = new TreeSet<>();
        c.path("env").forEach(e -> env.add(e.path("name").asText()));

        // Then every file it reads a secret from is mounted, every variable it reads is set
        Matcher f = FILE_REF.matcher(text);
        while (f.find()) {
          assertThat(files).as(name(w) + " mounts " + f.group(1)).contains(f.group(1));
        }
        Matcher e = ENV_REF.matcher(text);
        while (e.find()) {
          assertThat(env).as(name(w) + " sets " + e.group(1)).contains(e.group(1));
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void probesAndTheMetricsFlagUseThePodsPort(Rendered rendered) {
    for (ObjectNode w : rendered.workloads()) {
      for (ObjectNode c : KustomizeRenderer.containers(w)) {
        Map<String, Integer> ports = new java.util.TreeMap<>();
        c.path("ports")
            .forEach(p -> ports.put(p.path("name").asText(), p.path("containerPort").asInt()));
        for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
          JsonNode get = c.path(probe).path("httpGet");
          if (!get.isMissingNode()) {
            assertThat(get.path("path").asText()).as(name(w) + " " + probe).isEqualTo("/health");
            assertThat(ports).as(name(w) + " " + probe).containsKey(get.path("port").asText());
          }
        }
        List<String> args = CliFlagsTest.args(c);
        int flag = args.indexOf("--metrics-port");
        if (ports.containsKey("metrics")) {
          assertThat(flag).as(name(w) + " passes --metrics-port").isNotNegative();
          assertThat(Integer.parseInt(args.get(flag + 1))).isEqualTo(ports.get("metrics"));
        } else {
          assertThat(flag)
              .as(name(w) + ": --metrics-port without a port named metrics")
              .isNegative();
          assertThat(c.has("livenessProbe")).isFalse();
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void thePodMonitorSelectsEveryPodThatServesMetrics(Rendered rendered) {
    ObjectNode monitor = rendered.get("PodMonitor", "cdc-compare");
    Map<String, String> selector =
        KustomizeRenderer.stringMap(monitor.path("spec").path("selector").path("matchLabels"));
    String port = monitor.path("spec").path("podMetricsEndpoints").get(0).path("port").asText();
    List<String> served = new ArrayList<>();
    for (ObjectNode w : rendered.workloads()) {
      JsonNode podLabels = podMetadata(w).path("labels");
      boolean hasPort = false;
      for (ObjectNode c : KustomizeRenderer.containers(w)) {
        for (JsonNode p : c.path("ports")) {
          hasPort |= p.path("name").asText().equals(port);
        }
      }
      if (hasPort) {
        served.add(name(w));
        assertThat(KustomizeRenderer.stringMap(podLabels))
            .as(name(w))
            .containsAllEntriesOf(selector);
      }
    }
    assertThat(served).as("pods serving metrics").hasSizeGreaterThanOrEqualTo(3);
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void kafkaResourcesNameOneClusterAndEveryProgramHasItsUser(Rendered rendered) {
    Set<String> clusters = new TreeSet<>();
    for (String kind : List.of("KafkaTopic", "KafkaUser")) {
      rendered.ofKind(kind).forEach(r -> clusters.add(Rendered.label(r, "strimzi.io/cluster")));
    }
    assertThat(clusters).hasSize(1).doesNotContainNull();
    Set<String> users = new TreeSet<>();
    for (ObjectNode w : rendered.workloads()) {
      String user = ProgramUsers.userOf(w);
      assertThat(rendered.get("KafkaUser", user)).isNotNull();
      assertThat(users.add(user)).as("one KafkaUser per program: " + user).isTrue();
    }
    assertThat(users)
        .containsExactlyInAnyOrderElementsOf(
            rendered.ofKind("KafkaUser").stream()
                .map(u -> u.path("metadata").path("name").asText())
                .toList());
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void theDashboardIsAGrafanaDashboardConfigMap(Rendered rendered) throws Exception {
    ObjectNode cm = rendered.get("ConfigMap", "cdc-compare-dashboard");
    assertThat(Rendered.label(cm, "grafana_dashboard")).isEqualTo("1");
    JsonNode dashboard =
        new ObjectMapper().readTree(cm.path("data").path("cdc-compare.json").asText());
    assertThat(dashboard.path("panels").size()).isGreaterThan(5);
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void theHeapLeavesRoomForTheJvmOffHeapInsideTheMemoryLimit(Rendered rendered) {
    for (ObjectNode w : rendered.workloads()) {
      for (ObjectNode c : KustomizeRenderer.containers(w)) {
        // Given the JVM's heap and the container's memory
        String options = "";
        for (JsonNode env : c.path("env")) {
          if (env.path("name").asText().equals("JAVA_TOOL_OPTIONS")) {
            options = env.path("value").asText();
          }
        }
        Matcher xmx = Pattern.compile("-Xmx(\\d+)m").matcher(options);
        assertThat(xmx.find()).as(name(w) + " sets -Xmx in JAVA_TOOL_OPTIONS").isTrue();
        long heapMi = Long.parseLong(xmx.group(1));
        JsonNode resources = c.path("resources");
        long limitMi = mebibytes(resources.path("limits").path("memory").asText());

        // Then the limit holds the heap and the off-heap measured beside it (RSS minus committed
        // heap: at most about 180 MiB, the verifier's RocksDB included), and is also the request
        assertThat(limitMi).as(name(w)).isGreaterThanOrEqualTo(heapMi + 128);
        assertThat(mebibytes(resources.path("requests").path("memory").asText()))
            .isEqualTo(limitMi);
      }
    }
  }

  private static long mebibytes(String quantity) {
    if (quantity.endsWith("Gi")) {
      return Long.parseLong(quantity.substring(0, quantity.length() - 2)) * 1024;
    }
    assertThat(quantity).endsWith("Mi");
    return Long.parseLong(quantity.substring(0, quantity.length() - 2));
  }

  static JsonNode podMetadata(JsonNode w) {
    return w.path("kind").asText().equals("CronJob")
        ? w.path("spec").path("jobTemplate").path("spec").path("template").path("metadata")
        : w.path("spec").path("template").path("metadata");
  }

  static String name(JsonNode o) {
    return o.path("kind").asText() + " " + o.path("metadata").path("name").asText();
  }
}
