package io.cdccompare.operations.status;

import io.cdccompare.operations.config.TargetsConfig;
import java.util.Map;
import java.util.Optional;

/**
 * The consumer group a verify-only target follows: {@code target.<name>.follow.group} when {@code
 * target.<name>.mode} is {@code verify-only}. Read from the targets file's keys as written, after
 * {@link TargetsConfig} has checked them, so that {@code status} needs nothing of the verifier's
 * settings but the group's name.
 */
final class FollowedGroup {
  static final String MODE = "mode";
  static final String VERIFY_ONLY = "verify-only";
  static final String FOLLOW_GROUP = "follow.group";

  private FollowedGroup() {}

  /** The group target {@code target} follows, empty when its verifier applies the changes. */
  static Optional<String> of(TargetsConfig config, String target) {
    return of(config.withPrefix("target." + target + "."));
  }

  /** The same from a target's keys, {@code target.<name>.} taken off. */
  static Optional<String> of(Map<String, Object> section) {
    if (!VERIFY_ONLY.equals(text(section.get(MODE)))) {
      return Optional.empty();
    }
    return Optional.ofNullable(text(section.get(FOLLOW_GROUP))).filter(g -> !g.isEmpty());
  }

  private static String text(Object value) {
    return value == null ? null : value.toString().strip();
  }
}
