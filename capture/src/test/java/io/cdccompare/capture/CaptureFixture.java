package io.cdccompare.capture;

import io.cdccompare.core.note.Note;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.testsupport.SourceFixture;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A fresh source database ({@link SourceFixture}) and a real capture of it in a background thread;
 * published in this module's test-jar for the compare and verifier tests.
 */
public final class CaptureFixture extends SourceFixture {

  public CaptureFixture(EmbeddedEnvironment env) {
    super(env, "cap");
  }

  /** Starts a capture of these tables ({@link #captureConfig}) and waits until it streams. */
  public Running start(String tables) throws Exception {
    return start(captureConfig(tables));
  }

  /** Runs a capture in a background thread until {@link Running#close()}. */
  public Running start(Map<String, String> config) throws Exception {
    Capture capture = new Capture(CaptureConfig.of(config));
    ExecutorService thread = Executors.newSingleThreadExecutor();
    Future<?> run =
        thread.submit(
            () -> {
              capture.run();
              return null;
            });
    while (!capture.awaitStreaming(Duration.ofMillis(200))) {
      if (run.isDone()) {
        run.get(); // throws what stopped it
      }
    }
    return new Running(capture, run, thread);
  }

  /** A capture running in its thread; closing stops it and waits for its end. */
  public record Running(Capture capture, Future<?> run, ExecutorService thread)
      implements AutoCloseable {
    @Override
    public void close() throws Exception {
      capture.stop();
      try {
        run.get();
      } finally {
        thread.shutdownNow();
      }
    }
  }

  public static boolean isMarker(ConsumerRecord<byte[], byte[]> r) {
    return header(r, Note.MARKER_HEADER) != null;
  }
}
