package io.cdccompare.bench.e2e;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The run's configuration files, written into the work directory as a user writes them for a
 * deployment (like the demo's {@code DemoFiles}): the capture's ({@code snapshot=never}), the
 * targets' (each target's URL, application id and table mapping; the verifiers load it as {@code
 * cdc-compare verify} does) and one compare task per table ({@code deep=100}). Every other key
 * keeps the product's default. Files are readable by their owner only: they hold passwords.
 */
final class ConfigFiles {
  private final Servers servers;
  private final Pipeline pipeline;
  private final List<BenchTable> tables;

  ConfigFiles(Servers servers, Pipeline pipeline, List<BenchTable> tables) {
    this.servers = servers;
    this.pipeline = pipeline;
    this.tables = List.copyOf(tables);
  }

  /** {@code capture.properties}; returns its settings. */
  Map<String, String> capture() throws IOException {
    Map<String, String> settings = connection();
    settings.put("tables", sourceTables());
    settings.put("snapshot", "never");
    write("capture.properties", settings);
    return settings;
  }

  /** {@code targets.properties}, with {@code extra} keys on top; returns the file. */
  Path targets(Map<String, String> extra) throws IOException {
    Map<String, String> settings = connection();
    settings.keySet().removeIf(k -> k.startsWith("source."));
    settings.put("tables", sourceTables());
    settings.put("targets", targetNames());
    settings.put("state.dir", servers.workDir().resolve("streams").toString());
    for (Servers.Target target : servers.targets()) {
      String section = "target." + target.name() + ".";
      settings.put(section + "url", target.url());
      settings.put(section + "user", target.user());
      settings.put(section + "password", target.password());
      settings.put(section + "application.id", pipeline.applicationId(target));
      for (BenchTable table : tables) {
        settings.put(
            section + "table." + pipeline.sourceName(table),
            pipeline.targetSchema(target) + "." + table.name(servers.tablePrefix()));
      }
    }
    settings.putAll(extra);
    return write("targets.properties", settings);
  }

  /**
   * {@code task-<table>.properties}: every row compared, verified by every target, {@code extra} on
   * top.
   */
  Map<String, String> task(BenchTable table, Integer chunk, Map<String, String> extra)
      throws IOException {
    Map<String, String> settings = connection();
    settings.put("task.name", servers.topicPrefix() + "-" + table.option());
    settings.put("tables", pipeline.sourceName(table));
    settings.put("deep", "100");
    settings.put("progress", "off");
    settings.put("targets", targetNames());
    if (chunk != null) {
      settings.put("chunk", Integer.toString(chunk));
    }
    settings.putAll(extra);
    write("task-" + table.option() + ".properties", settings);
    return settings;
  }

  private String sourceTables() {
    return tables.stream().map(pipeline::sourceName).collect(Collectors.joining(","));
  }

  private String targetNames() {
    return servers.targets().stream().map(Servers.Target::name).collect(Collectors.joining(","));
  }

  private Map<String, String> connection() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("topic.prefix", servers.topicPrefix());
    settings.put("bootstrap.servers", servers.bootstrapServers());
    settings.put("schema.registry.url", servers.registryUrl());
    Servers.Source source = servers.source();
    settings.put("source.hostname", source.host());
    settings.put("source.port", Integer.toString(source.port()));
    settings.put("source.database", source.database());
    settings.put("source.user", source.user());
    settings.put("source.password", source.password());
    return settings;
  }

  private Path write(String name, Map<String, String> settings) throws IOException {
    Path file = servers.workDir().resolve(name);
    Files.deleteIfExists(file);
    Files.createFile(file);
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: the work directory is a private temporary directory anyway
    }
    Properties props = new Properties();
    props.putAll(settings);
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      props.store(w, "written by EndToEndThroughput");
    }
    return file;
  }
}
