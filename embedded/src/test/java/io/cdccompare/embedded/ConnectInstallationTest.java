package io.cdccompare.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The worker's jars and plugin folders the build assembled, as the worker will find them. */
class ConnectInstallationTest {

  @Test
  void eachPluginHasItsOwnFolderWithoutWhatTheWorkerProvides() throws Exception {
    // Given
    ConnectInstallation installation = ConnectInstallation.locate();

    // When
    Map<String, List<String>> folders = new TreeMap<>();
    for (Path plugin : installation.plugins()) {
      folders.put(plugin.getFileName().toString(), jarNames(plugin));
    }

    // Then
    assertThat(folders)
        .containsOnlyKeys("apicurio-converter", "debezium-jdbc", "debezium-postgres");
    folders.forEach(
        (plugin, jars) ->
            assertThat(jars)
                .as(plugin)
                .noneMatch(
                    j ->
                        j.startsWith("kafka-clients-")
                            || j.startsWith("connect-api-")
                            || j.startsWith("slf4j-")
                            || j.startsWith("logback-")));
    assertThat(folders.get("debezium-jdbc"))
        .noneMatch(
            j ->
                j.startsWith("jackson-core-")
                    || j.startsWith("jackson-databind-")
                    || j.startsWith("jackson-annotations-"))
        .contains("hibernate-agroal-7.2.19.Final.jar");
    assertThat(folders.get("apicurio-converter")).contains("connect-json-3.9.0.jar");
  }

  @Test
  void pluginsAndWorkerHaveTheVersionsOfTheEmbeddedServers() throws Exception {
    // Given: the root pom's versions, as the build filtered them in
    Properties versions = ConnectInstallation.buildProperties();
    ConnectInstallation installation = ConnectInstallation.locate();

    // Then
    assertThat(jarNames(installation.libs()))
        .contains("connect-runtime-" + versions.getProperty("kafka.version") + ".jar")
        .anyMatch(j -> j.startsWith("logback-classic-"));
    assertThat(installation.plugins())
        .anySatisfy(
            p ->
                assertThat(jarNames(p))
                    .contains(
                        "debezium-connector-postgres-"
                            + versions.getProperty("debezium.version")
                            + ".jar"))
        .anySatisfy(
            p ->
                assertThat(jarNames(p))
                    .contains(
                        "apicurio-registry-utils-converter-"
                            + versions.getProperty("apicurio.version")
                            + ".jar"));
  }

  private static List<String> jarNames(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
