package io.cdccompare.source.config;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;

/**
 * What one kind of configuration file accepts, as its class checks it: the declared keys, the
 * prefixes passed through to a client or library, and the keys of its per-name sections (such as
 * {@code table.<schema.table>.chunk}). The configuration reference page is generated from it.
 *
 * @param definition every declared key with its type, default, validator and documentation
 * @param prefixes the pass-through prefixes, sorted
 * @param sectionKeys the keys of the per-name sections, with the name as {@code <...>}, sorted
 */
public record FileKeys(ConfigDef definition, Set<String> prefixes, List<String> sectionKeys) {
  public FileKeys {
    prefixes = Set.copyOf(new TreeSet<>(prefixes));
    sectionKeys = List.copyOf(new TreeSet<>(sectionKeys));
  }

  /** The sorted prefixes, for rendering. */
  public List<String> sortedPrefixes() {
    return List.copyOf(new TreeSet<>(prefixes));
  }
}
