package io.cdccompare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rendered document parses into its typed model — the fabric8 Kubernetes model for core, apps
 * and batch kinds and for the Prometheus Operator's kinds, Strimzi's api for KafkaTopic and
 * KafkaUser — and no field ends up in a model's catch-all {@code additionalProperties}, which is
 * where a misspelt or misplaced field would silently go.
 */
class ManifestModelTest {
  static final Map<String, Class<?>> MODELS =
      Map.of(
          "ConfigMap", ConfigMap.class,
          "Deployment", Deployment.class,
          "CronJob", CronJob.class,
          "PodMonitor", PodMonitor.class,
          "PrometheusRule", PrometheusRule.class,
          "KafkaTopic", KafkaTopic.class,
          "KafkaUser", KafkaUser.class);

  /** Values a model leaves out when it writes because they are its defaults. */
  static final java.util.Set<String> DEFAULTS =
      java.util.Set.of("KafkaUser.spec.authorization.acls[].resource.patternType=literal");

  static final ObjectMapper MAPPER =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void everyDocumentParsesIntoItsModelWithoutUnknownFields(Rendered rendered) throws Exception {
    // Given the rendered documents
    for (ObjectNode doc : rendered.docs()) {
      String kind = doc.path("kind").asText();
      Class<?> model = MODELS.get(kind);
      assertThat(model).as(rendered + ": a model for kind " + kind).isNotNull();

      // When it is read into its model
      Object typed = MAPPER.treeToValue(doc, model);

      // Then every field was understood, and every value survives the model
      String what = rendered + ": " + kind + " " + doc.path("metadata").path("name").asText();
      assertThat(unknownFields(typed, kind)).as(what).isEmpty();
      assertThat(lostValues(doc, MAPPER.valueToTree(typed), kind)).as(what).isEmpty();
    }
  }

  @Test
  void aMisspeltFieldIsFound() throws Exception {
    // Given a Deployment whose probe is misspelt
    ObjectNode doc = Rendered.of("base").get("Deployment", "cdc-compare-capture").deepCopy();
    ObjectNode container =
        (ObjectNode) doc.path("spec").path("template").path("spec").path("containers").get(0);
    container.set("livenesProbe", container.remove("livenessProbe"));

    // When it is read, then the check names the field
    assertThat(unknownFields(MAPPER.treeToValue(doc, Deployment.class), "Deployment"))
        .containsExactly("Deployment.spec.template.spec.containers[0].livenesProbe");
  }

  @Test
  void aStrimziAclWithAnUnknownOperationIsFound() throws Exception {
    // Given a KafkaUser granting an operation Kafka does not have
    ObjectNode doc = Rendered.of("base").get("KafkaUser", "cdc-compare-alerts").deepCopy();
    ((com.fasterxml.jackson.databind.node.ArrayNode)
            doc.path("spec").path("authorization").path("acls").get(0).path("operations"))
        .add("Consume");

    // When it is read into Strimzi's model (which reads an unknown operation as null)
    KafkaUser typed = MAPPER.treeToValue(doc, KafkaUser.class);

    // Then the value lost on the way is named
    assertThat(lostValues(doc, MAPPER.valueToTree(typed), "KafkaUser"))
        .containsExactly("KafkaUser.spec.authorization.acls[0].operations[2]=Consume");
  }

  /** The leaves of {@code original} that the model's serialisation does not give back. */
  static List<String> lostValues(JsonNode original, JsonNode back, String path) {
    List<String> out = new ArrayList<>();
    if (original.isObject()) {
      original
          .fields()
          .forEachRemaining(
              e ->
                  out.addAll(
                      lostValues(e.getValue(), back.path(e.getKey()), path + "." + e.getKey())));
    } else if (original.isArray()) {
      for (int i = 0; i < original.size(); i++) {
        out.addAll(lostValues(original.get(i), back.path(i), path + "[" + i + "]"));
      }
    } else if (path.endsWith(".apiVersion")
        || (back.isMissingNode()
            && DEFAULTS.contains(path.replaceAll("\\[\\d+]", "[]") + "=" + original.asText()))) {
      // the model writes its own API version (Strimzi 0.49: v1) and leaves out its defaults
    } else if (!original.asText().equals(back.asText())) {
      out.add(path + "=" + original.asText());
    }
    return out;
  }

  /** The paths of every value that went into an {@code additionalProperties} map. */
  static List<String> unknownFields(Object typed, String path) {
    List<String> out = new ArrayList<>();
    walk(typed, path, out, new IdentityHashMap<>());
    return out;
  }

  private static void walk(Object o, String path, List<String> out, Map<Object, Boolean> seen) {
    if (o == null || seen.put(o, true) != null) {
      return;
    }
    if (o instanceof Collection<?> c) {
      int i = 0;
      for (Object e : c) {
        walk(e, path + "[" + i++ + "]", out, seen);
      }
      return;
    }
    if (o instanceof Map<?, ?> m) {
      m.forEach((k, v) -> walk(v, path + "." + k, out, seen));
      return;
    }
    String pkg = o.getClass().getPackageName();
    if (!pkg.startsWith("io.fabric8") && !pkg.startsWith("io.strimzi")) {
      return;
    }
    for (Method m : o.getClass().getMethods()) {
      if (m.getParameterCount() != 0
          || Modifier.isStatic(m.getModifiers())
          || !m.getName().startsWith("get")
          || m.getDeclaringClass() == Object.class) {
        continue;
      }
      Object value;
      try {
        value = m.invoke(o);
      } catch (ReflectiveOperationException | RuntimeException e) {
        continue;
      }
      if (m.getName().equals("getAdditionalProperties")) {
        if (value instanceof Map<?, ?> extra) {
          extra.keySet().forEach(k -> out.add(path + "." + k));
        }
        continue;
      }
      String field = Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
      walk(value, path + "." + field, out, seen);
    }
  }
}
