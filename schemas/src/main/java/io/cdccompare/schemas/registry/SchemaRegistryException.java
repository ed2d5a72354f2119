package io.cdccompare.schemas.registry;

/**
 * A schema registry refused a request or could not be reached. The message names the request
 * (method and URL), the subject or schema id it was about, the HTTP status and the registry's own
 * error code and message, which is what a human needs to act on it.
 */
public class SchemaRegistryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** HTTP status, or 0 when no answer was received. */
  private final int status;

  /** The registry's {@code error_code} (Confluent API, e.g. 40403), or 0 when none was given. */
  private final int errorCode;

  public SchemaRegistryException(String message, int status, int errorCode, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.errorCode = errorCode;
  }

  public int status() {
    return status;
  }

  public int errorCode() {
    return errorCode;
  }

  /** The subject, the schema in the subject or the schema id does not exist (HTTP 404). */
  public boolean notFound() {
    return status == 404;
  }

  /**
   * Trying again may help: no answer (connection refused, timeout), a server error (5xx) or too
   * many requests (429). A refusal of the request itself (4xx) will not change.
   */
  public boolean retriable() {
    return status == 0 || status == 429 || status >= 500;
  }
}
