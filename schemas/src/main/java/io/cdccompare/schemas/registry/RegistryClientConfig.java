package io.cdccompare.schemas.registry;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach a registry with the Confluent REST API.
 *
 * @param urls base URLs of the API (e.g. {@code http://host:8081} for Confluent Schema Registry,
 *     {@code http://host:8080/apis/ccompat/v7} for Apicurio); tried in order when one does not
 *     answer
 * @param connectTimeout time allowed to open a connection
 * @param requestTimeout time allowed for one request, answer included
 * @param maxAttempts rounds over all URLs before a retriable failure is thrown (at least 1)
 * @param retryBackoff pause before the second round, doubled before each further round
 * @param basicAuthUserInfo {@code user:password} for HTTP basic authentication, if the registry
 *     needs it; never printed
 */
public record RegistryClientConfig(
    List<URI> urls,
    Duration connectTimeout,
    Duration requestTimeout,
    int maxAttempts,
    Duration retryBackoff,
    Optional<String> basicAuthUserInfo) {

  /** Comma-separated base URLs (Confluent's key). */
  public static final String URL = "schema.registry.url";

  /** {@code user:password} for basic authentication (Confluent's key). */
  public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";

  /** The same under the registry prefix, as the configuration files' pass-through writes it. */
  public static final String PREFIXED_BASIC_AUTH_USER_INFO =
      "schema.registry." + BASIC_AUTH_USER_INFO;

  /** The prefix of the registry keys in cdc-compare's configuration files. */
  public static final String PREFIX = "schema.registry.";

  public static final String CONNECT_TIMEOUT_MS = "schema.registry.connect.timeout.ms";
  public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";
  public static final String MAX_ATTEMPTS = "schema.registry.max.attempts";
  public static final String RETRY_BACKOFF_MS = "schema.registry.retry.backoff.ms";

  static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  static final int DEFAULT_MAX_ATTEMPTS = 3;
  static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMillis(200);

  public RegistryClientConfig {
    urls = List.copyOf(urls);
    if (urls.isEmpty()) {
      throw new IllegalArgumentException(URL + " must name at least one URL");
    }
    for (URI url : urls) {
      String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
        throw new IllegalArgumentException(
            URL + " must hold http:// or https:// URLs, was '" + url + "'");
      }
    }
    requirePositive(connectTimeout, CONNECT_TIMEOUT_MS);
    requirePositive(requestTimeout, REQUEST_TIMEOUT_MS);
    if (maxAttempts < 1) {
      throw new IllegalArgumentException(MAX_ATTEMPTS + " must be at least 1, was " + maxAttempts);
    }
    Objects.requireNonNull(retryBackoff, RETRY_BACKOFF_MS);
    if (retryBackoff.isNegative()) {
      throw new IllegalArgumentException(RETRY_BACKOFF_MS + " must not be negative");
    }
    Objects.requireNonNull(basicAuthUserInfo, BASIC_AUTH_USER_INFO);
    basicAuthUserInfo.ifPresent(
        info -> {
          if (info.indexOf(':') < 0) {
            throw new IllegalArgumentException(
                BASIC_AUTH_USER_INFO + " must have the form user:password");
          }
        });
  }

  /** One URL with the default timeouts and retries, no authentication. */
  public static RegistryClientConfig of(String url) {
    return new RegistryClientConfig(
        List.of(URI.create(stripTrailingSlash(url.strip()))),
        DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_REQUEST_TIMEOUT,
        DEFAULT_MAX_ATTEMPTS,
        DEFAULT_RETRY_BACKOFF,
        Optional.empty());
  }

  /**
   * The serde settings for a registry: {@code schema.registry.url} and each of the file's {@code
   * schema.registry.*} pass-through settings under its full key ({@code basic.auth.user.info} →
   * {@code schema.registry.basic.auth.user.info}). The one place where a program turns its
   * configuration into what the Avro serdes read.
   *
   * @param url the file's {@code schema.registry.url}
   * @param passThrough the file's {@code schema.registry.*} settings without the prefix
   */
  public static Map<String, Object> serdeSettings(String url, Map<String, ?> passThrough) {
    Map<String, Object> settings = new LinkedHashMap<>();
    passThrough.forEach((key, value) -> settings.put(PREFIX + key, value));
    settings.put(URL, url);
    return settings;
  }

  /**
   * Reads the keys of this class from client configuration (a Kafka producer's, consumer's or
   * Streams application's map); other keys are ignored, since the map belongs to the client.
   *
   * @throws IllegalArgumentException naming the key that is missing or invalid
   */
  public static RegistryClientConfig fromConfigs(Map<String, ?> configs) {
    Object url = configs.get(URL);
    if (url == null || url.toString().isBlank()) {
      throw new IllegalArgumentException(URL + " is required");
    }
    List<URI> urls = new ArrayList<>();
    for (String one : url.toString().split(",")) {
      if (!one.isBlank()) {
        try {
          urls.add(URI.create(stripTrailingSlash(one.strip())));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              URL + " holds an invalid URL '" + one.strip() + "'", e);
        }
      }
    }
    Object userInfo = configs.get(PREFIXED_BASIC_AUTH_USER_INFO);
    if (userInfo == null) {
      userInfo = configs.get(BASIC_AUTH_USER_INFO);
    }
    return new RegistryClientConfig(
        urls,
        millis(configs, CONNECT_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT),
        millis(configs, REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT),
        (int) number(configs, MAX_ATTEMPTS, DEFAULT_MAX_ATTEMPTS),
        millis(configs, RETRY_BACKOFF_MS, DEFAULT_RETRY_BACKOFF),
        userInfo == null || userInfo.toString().isEmpty()
            ? Optional.empty()
            : Optional.of(userInfo.toString()));
  }

  private static Duration millis(Map<String, ?> configs, String key, Duration dflt) {
    return Duration.ofMillis(number(configs, key, dflt.toMillis()));
  }

  private static long number(Map<String, ?> configs, String key, long dflt) {
    Object value = configs.get(key);
    if (value == null) {
      return dflt;
    }
    if (value instanceof Number n) {
      return n.longValue();
    }
    try {
      return Long.parseLong(value.toString().strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number, was '" + value + "'", e);
    }
  }

  private static void requirePositive(Duration d, String key) {
    Objects.requireNonNull(d, key);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(key + " must be positive, was " + d.toMillis() + " ms");
    }
  }

  private static String stripTrailingSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  @Override
  public String toString() {
    return "RegistryClientConfig[urls="
        + urls
        + ", connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + ", maxAttempts="
        + maxAttempts
        + ", retryBackoff="
        + retryBackoff
        + ", basicAuth="
        + (basicAuthUserInfo.isPresent() ? "****" : "none")
        + "]";
  }
}
