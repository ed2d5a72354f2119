package io.cdccompare.core.stream;

/**
 * The default names of a pipeline's parts that several programs must agree on, defined once (as
 * {@link CompareTopics} defines the topics): the capture creates the slot and publication, {@code
 * status} reads the slot, the verifier runs under its group and {@code compare repair} checks that
 * group is running. Each configuration file may name another ({@code slot.name}, {@code
 * publication.name}, {@code application.id}, {@code --verifier-group}).
 */
public final class PipelineNames {
  private PipelineNames() {}

  /** The replication slot (and publication) of a capture with this topic prefix. */
  public static String slot(String topicPrefix) {
    return "cdc_compare_" + topicPrefix.replaceAll("[^a-zA-Z0-9_]", "_").toLowerCase();
  }

  /** The Kafka Streams application id (consumer group) of the verifier of this target. */
  public static String verifierGroup(String target) {
    return "cdc-compare-verify-" + target;
  }
}
