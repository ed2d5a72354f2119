package io.cdccompare.config;

import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Every key one configuration file accepts: its own keys, the prefixes whose settings it passes
 * through or parses apart, and the keys of its sections ({@code table.<schema.table>.<key>}, {@code
 * target.<name>.<key>}). What a file is checked against when it is loaded, and what the generated
 * configuration reference prints.
 *
 * @param what how errors name a configuration given as a map ({@code "capture configuration"})
 * @param keys the file's own keys
 * @param passThroughPrefixes the prefixes of settings passed through or parsed apart, in order
 * @param sectionPrefix how a section's keys are written, e.g. {@code table.<schema.table>.}
 * @param sectionKeys the keys of one section
 */
public record FileKeys(
    String what,
    ConfigDef keys,
    SortedSet<String> passThroughPrefixes,
    String sectionPrefix,
    ConfigDef sectionKeys) {

  public FileKeys {
    passThroughPrefixes = Collections.unmodifiableSortedSet(new TreeSet<>(passThroughPrefixes));
  }

  /** A file's keys; {@code passThroughPrefixes} in any order. */
  public static FileKeys of(
      String what,
      ConfigDef keys,
      Set<String> passThroughPrefixes,
      String sectionPrefix,
      ConfigDef sectionKeys) {
    return new FileKeys(what, keys, new TreeSet<>(passThroughPrefixes), sectionPrefix, sectionKeys);
  }
}
