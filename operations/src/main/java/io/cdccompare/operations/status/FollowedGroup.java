package io.cdccompare.operations.status;

import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.verifier.stream.VerifierSettings;
import java.util.Optional;

/**
 * The consumer group a verify-only target follows ({@code target.<name>.follow.group}), as the
 * target's verifier settings give it, so that {@code status} shows the same group the verifier
 * waits for.
 */
final class FollowedGroup {
  private FollowedGroup() {}

  /** The group target {@code target} follows, empty when its verifier applies the changes. */
  static Optional<String> of(TargetsConfig config, String target) {
    VerifierSettings settings = config.verifierSettings(target);
    return settings.verifyOnly() ? Optional.of(settings.follow().group()) : Optional.empty();
  }
}
