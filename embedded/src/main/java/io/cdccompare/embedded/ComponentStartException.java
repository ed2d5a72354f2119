package io.cdccompare.embedded;

import java.nio.file.Path;

/**
 * A server of the embedded environment did not start. The message names the component and the log
 * file a human should read next.
 */
public final class ComponentStartException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Component component;
  private final Path log;
  private final String reason;

  public ComponentStartException(Component component, Path log, String reason, Throwable cause) {
    super(component.displayName() + " failed to start: " + reason + " (log: " + log + ")", cause);
    this.component = component;
    this.log = log;
    this.reason = reason;
  }

  /** What went wrong, without the component and log. */
  public String reason() {
    return reason;
  }

  public Component component() {
    return component;
  }

  public Path log() {
    return log;
  }
}
