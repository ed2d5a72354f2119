package io.cdccompare.capture;

import java.nio.file.Path;

/**
 * A capture in its own JVM, so a test can kill it like a crash: {@code CaptureProcess <config>}.
 */
public final class CaptureProcess {
  private CaptureProcess() {}

  public static void main(String[] args) throws Exception {
    Capture capture = new Capture(CaptureConfig.load(Path.of(args[0])));
    Runtime.getRuntime().addShutdownHook(new Thread(capture::stop));
    capture.run();
  }
}
