package io.cdccompare.verifier.stream;

import java.util.Map;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Builds one {@link TargetStore} per stream task. The store is the target database: it has no
 * changelog and no cache of Streams' own, whatever is asked.
 */
final class TargetStoreBuilder implements StoreBuilder<TargetStore> {
  private final String targetName;
  private final Target.Opener opener;
  private final VerifierMeters meters;

  TargetStoreBuilder(String targetName, Target.Opener opener, VerifierMeters meters) {
    this.targetName = targetName;
    this.opener = opener;
    this.meters = meters;
  }

  @Override
  public StoreBuilder<TargetStore> withCachingEnabled() {
    return this;
  }

  @Override
  public StoreBuilder<TargetStore> withCachingDisabled() {
    return this;
  }

  @Override
  public StoreBuilder<TargetStore> withLoggingEnabled(Map<String, String> config) {
    return this;
  }

  @Override
  public StoreBuilder<TargetStore> withLoggingDisabled() {
    return this;
  }

  @Override
  public TargetStore build() {
    return new TargetStore(targetName, opener, meters);
  }

  @Override
  public Map<String, String> logConfig() {
    return Map.of();
  }

  @Override
  public boolean loggingEnabled() {
    return false;
  }

  @Override
  public String name() {
    return TargetStore.NAME;
  }
}
