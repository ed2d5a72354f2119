package io.cdccompare.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Logging of child JVMs: they share this JVM's class path, so whichever SLF4J binding is on it
 * (Logback in the app and tests) gets a quiet configuration that writes to standard output, which
 * the environment appends to the component's log file.
 */
final class ChildLogging {
  private ChildLogging() {}

  /** Writes {@code logback.xml} into {@code dir}: WARN everywhere, {@code level} for one logger. */
  static Path logbackConfig(Path dir, String logger, String level) throws IOException {
    Path file = dir.resolve("logback.xml");
    Files.writeString(
        file,
        """
        <configuration>
          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n</pattern></encoder>
          </appender>
          <logger name="@LOGGER@" level="@LEVEL@"/>
          <root level="WARN"><appender-ref ref="OUT"/></root>
        </configuration>
        """
            .replace("@LOGGER@", logger)
            .replace("@LEVEL@", level));
    return file;
  }
}
