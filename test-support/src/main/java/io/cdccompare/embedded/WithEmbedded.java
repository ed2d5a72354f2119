package io.cdccompare.embedded;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against the embedded environment: the named components are started before the
 * first test (once per test JVM, shared by every class that asks) and an {@link
 * EmbeddedEnvironment} parameter is injected into tests and lifecycle methods. Tests create fresh
 * databases and topics; they never restart shared servers.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedEnvironmentExtension.class)
public @interface WithEmbedded {
  Component[] value();
}
