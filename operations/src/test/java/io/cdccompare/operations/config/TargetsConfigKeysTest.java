package io.cdccompare.operations.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys of the targets file that look like pass-through settings. */
class TargetsConfigKeysTest {

  @Test
  void theRegistryUrlIsTheFilesOwnKeyBesideTheRegistryPassThrough(@TempDir Path dir)
      throws Exception {
    // Given a targets file with schema.registry.url and a schema.registry.* setting
    Path file = dir.resolve("targets.properties");
    Files.writeString(
        file,
        "topic.prefix=shop\n"
            + "bootstrap.servers=127.0.0.1:9092\n"
            + "schema.registry.url=http://127.0.0.1:8081\n"
            + "schema.registry.basic.auth.user.info=u:p\n"
            + "tables=public.orders\n"
            + "target.pg.url=jdbc:postgresql://127.0.0.1:5432/replica\n");

    // When it is loaded
    TargetsConfig config = TargetsConfig.load(file);

    // Then the URL is read (it used to be taken for a pass-through setting and reported missing)
    assertThat(config.schemaRegistryUrl()).isEqualTo("http://127.0.0.1:8081");
    assertThat(config.withPrefix("schema.registry.")).containsEntry("basic.auth.user.info", "u:p");
    assertThat(config.reportConfig().reportTopic()).isEqualTo("shop.compare.report");
  }
}
