package io.cdccompare.producer.compare;

import java.nio.file.Path;

/**
 * A compare task in its own JVM, so a test can kill it like a crash: {@code CompareProcess <task
 * file>}. It exits with 0 once the task ran to its end; a failpoint or a signal ends it otherwise.
 */
public final class CompareProcess {
  private CompareProcess() {}

  public static void main(String[] args) throws Exception {
    CompareRun.Summary summary = new CompareRun(CompareConfig.load(Path.of(args[0])), false).run();
    System.exit(summary.complete() ? 0 : 1);
  }
}
