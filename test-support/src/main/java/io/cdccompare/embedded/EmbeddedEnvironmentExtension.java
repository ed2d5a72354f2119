package io.cdccompare.embedded;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * JUnit 5 extension behind {@link WithEmbedded}. One environment per test JVM lives in the root
 * extension store, so it is closed when the whole run ends; each class only adds the components it
 * needs.
 */
public final class EmbeddedEnvironmentExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(EmbeddedEnvironmentExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    Set<Component> wanted = EnumSet.noneOf(Component.class);
    AnnotationSupport.findAnnotation(context.getRequiredTestClass(), WithEmbedded.class)
        .ifPresent(a -> wanted.addAll(Set.of(a.value())));
    if (!wanted.isEmpty()) {
      environment(context).ensureStarted(wanted);
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == EmbeddedEnvironment.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return environment(context);
  }

  private static EmbeddedEnvironment environment(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            Shared.class, k -> new Shared(EmbeddedEnvironment.create()), Shared.class)
        .environment();
  }

  /** Store entry that closes the environment when JUnit closes the root store. */
  private record Shared(EmbeddedEnvironment environment)
      implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      environment.close();
    }
  }
}
