package io.cdccompare.operations.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The metrics of one long-running program: with a port, a Prometheus registry with the JVM's meters
 * bound and, once {@link #serve} is called, a {@link MetricsServer} on that port; without one (the
 * default, no {@code --metrics-port}), a registry that records nothing. Closing it stops the
 * server; a command closes it on its stop path, Ctrl-C and SIGTERM included.
 */
public final class ProgramMetrics implements AutoCloseable {
  private final Integer port;
  private final MeterRegistry registry;
  private final JvmGcMetrics gc;
  private volatile MetricsServer server;

  private ProgramMetrics(Integer port, MeterRegistry registry, JvmGcMetrics gc) {
    this.port = port;
    this.registry = registry;
    this.gc = gc;
  }

  /**
   * The program's metrics.
   *
   * @param port the {@code --metrics-port}, null when metrics are off
   */
  public static ProgramMetrics open(Integer port) {
    if (port == null) {
      return new ProgramMetrics(null, new CompositeMeterRegistry(), null);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--metrics-port must be 0..65535, was " + port);
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    return new ProgramMetrics(port, registry, gc);
  }

  /** Where the program records its meters (a no-op registry when metrics are off). */
  public MeterRegistry registry() {
    return registry;
  }

  /** Starts the HTTP endpoint, when metrics are on; returns this. */
  public ProgramMetrics serve(HealthCheck health) {
    if (port != null && server == null) {
      server = MetricsServer.start(port, (PrometheusMeterRegistry) registry, health);
    }
    return this;
  }

  /** The port served, or -1 when metrics are off or not served yet. */
  public int port() {
    MetricsServer s = server;
    return s == null ? -1 : s.port();
  }

  @Override
  public void close() {
    MetricsServer s = server;
    if (s != null) {
      s.close();
    }
    if (gc != null) {
      gc.close();
    }
    registry.close();
  }
}
