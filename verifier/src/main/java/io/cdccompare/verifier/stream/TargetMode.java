package io.cdccompare.verifier.stream;

import java.util.Arrays;

/**
 * How a verifier treats its target (docs/design.md, "Verify-only targets"): it applies the changes
 * and verifies each chunk ({@code apply-verify}, the default), or another program applies them and
 * the verifier only verifies, once that program's consumer group has passed each CLOSE marker
 * ({@code verify-only}).
 */
public enum TargetMode {
  APPLY_VERIFY("apply-verify"),
  VERIFY_ONLY("verify-only");

  private final String text;

  TargetMode(String text) {
    this.text = text;
  }

  /** The value of {@code target.<name>.mode}. */
  public String text() {
    return text;
  }

  /**
   * The mode of a {@code target.<name>.mode} value.
   *
   * @throws IllegalArgumentException naming the values allowed
   */
  public static TargetMode parse(String text) {
    return Arrays.stream(values())
        .filter(m -> m.text.equals(text))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "must be apply-verify or verify-only, was '" + text + "'"));
  }

  @Override
  public String toString() {
    return text;
  }
}
