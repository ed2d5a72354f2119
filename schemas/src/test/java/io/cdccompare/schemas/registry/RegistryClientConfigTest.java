package io.cdccompare.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RegistryClientConfigTest {

  @Test
  void readsCommaSeparatedUrlsAndDefaults() {
    RegistryClientConfig config =
        RegistryClientConfig.fromConfigs(
            Map.of("schema.registry.url", "http://a:8081/, https://b:8081/apis/ccompat/v7"));

    assertThat(config.urls())
        .containsExactly(URI.create("http://a:8081"), URI.create("https://b:8081/apis/ccompat/v7"));
    assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.maxAttempts()).isEqualTo(3);
    assertThat(config.basicAuthUserInfo()).isEmpty();
  }

  @Test
  void aFilesPassThroughSettingsBecomeSerdeSettingsThatTheClientReads() {
    // Given a file's schema.registry.* settings, basic authentication among them
    Map<String, Object> serde =
        RegistryClientConfig.serdeSettings(
            "http://a:8081", Map.of("basic.auth.user.info", "u:p", "max.attempts", "2"));

    // Then the serdes get them under their full keys, and the client reads the authentication
    assertThat(serde)
        .containsEntry("schema.registry.url", "http://a:8081")
        .containsEntry("schema.registry.basic.auth.user.info", "u:p")
        .containsEntry("schema.registry.max.attempts", "2");
    RegistryClientConfig config = RegistryClientConfig.fromConfigs(serde);
    assertThat(config.basicAuthUserInfo()).contains("u:p");
    assertThat(config.maxAttempts()).isEqualTo(2);
  }

  @Test
  void readsEveryKeyAsTextOrNumber() {
    RegistryClientConfig config =
        RegistryClientConfig.fromConfigs(
            Map.of(
                "schema.registry.url", "http://a:8081",
                "schema.registry.connect.timeout.ms", "1500",
                "schema.registry.request.timeout.ms", 2500,
                "schema.registry.max.attempts", "1",
                "schema.registry.retry.backoff.ms", 0L,
                "basic.auth.user.info", "u:p"));

    assertThat(config.connectTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofMillis(2500));
    assertThat(config.maxAttempts()).isEqualTo(1);
    assertThat(config.retryBackoff()).isZero();
    assertThat(config.basicAuthUserInfo()).contains("u:p");
  }

  @Test
  void errorsNameTheKey() {
    assertThatThrownBy(() -> RegistryClientConfig.fromConfigs(Map.of()))
        .hasMessageContaining("schema.registry.url is required");
    assertThatThrownBy(
            () -> RegistryClientConfig.fromConfigs(Map.of("schema.registry.url", "ftp://x")))
        .hasMessageContaining("schema.registry.url must hold http:// or https:// URLs");
    assertThatThrownBy(
            () ->
                RegistryClientConfig.fromConfigs(
                    Map.of(
                        "schema.registry.url", "http://x",
                        "schema.registry.request.timeout.ms", "soon")))
        .hasMessageContaining("schema.registry.request.timeout.ms must be a whole number");
    assertThatThrownBy(
            () ->
                RegistryClientConfig.fromConfigs(
                    Map.of("schema.registry.url", "http://x", "schema.registry.max.attempts", "0")))
        .hasMessageContaining("schema.registry.max.attempts must be at least 1");
    assertThatThrownBy(
            () ->
                RegistryClientConfig.fromConfigs(
                    Map.of("schema.registry.url", "http://x", "basic.auth.user.info", "nocolon")))
        .hasMessageContaining("basic.auth.user.info must have the form user:password");
  }

  @Test
  void toStringHidesThePassword() {
    RegistryClientConfig config =
        new RegistryClientConfig(
            RegistryClientConfig.of("http://a").urls(),
            Duration.ofSeconds(1),
            Duration.ofSeconds(1),
            1,
            Duration.ZERO,
            Optional.of("user:hunter2"));

    assertThat(config.toString()).doesNotContain("hunter2").contains("****");
  }

  @Test
  void mockUrlsGiveTheSharedInMemoryScope() {
    SchemaRegistry first = SchemaRegistry.fromConfigs(Map.of("schema.registry.url", "mock://t1"));
    SchemaRegistry second = SchemaRegistry.fromConfigs(Map.of("schema.registry.url", "mock://t1"));
    SchemaRegistry remote =
        SchemaRegistry.fromConfigs(Map.of("schema.registry.url", "http://127.0.0.1:1"));

    assertThat(first).isSameAs(second).isInstanceOf(InMemorySchemaRegistry.class);
    assertThat(remote).isInstanceOf(ConfluentRegistryClient.class);
    assertThat(remote.location()).isEqualTo("http://127.0.0.1:1");
    InMemorySchemaRegistry.dropScope("t1");
  }
}
