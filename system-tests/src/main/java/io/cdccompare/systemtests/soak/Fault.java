package io.cdccompare.systemtests.soak;

/** The faults the soak injects at random (issue 19's catalogue, the parts a soak can repeat). */
enum Fault {
  CAPTURE_KILL("kill -9 capture"),
  VERIFIER_KILL("kill -9 a verifier"),
  COMPARE_KILL("kill -9 compare run"),
  BROKER_RESTART("broker stop/start"),
  BROKER_PAUSE("broker unreachable"),
  TARGET_RESTART("target DB restart"),
  SOURCE_RESTART("source DB restart");

  final String label;

  Fault(String label) {
    this.label = label;
  }

  /** One injected fault: when it began and when the harness had undone it. */
  record Injected(Fault kind, String detail, long startMs, long endMs) {}
}
