package io.cdccompare.producer.compare;

import io.cdccompare.core.chunk.ChunkWindow;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.HashRecordWriter.ChunkId;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.source.Failpoint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The second half of a chunk, on a thread of its own: its hash records written and acknowledged,
 * then its CLOSE note committed (with the position after it) on a notes connection of its own. The
 * run's thread meanwhile opens and reads the next chunk, and waits for this close before it hands
 * the next chunk over: one chunk is being closed while one is read, never more ({@link
 * ChunkWindow#OPEN_CHUNKS} open at once).
 *
 * <p>Used by one run's thread only.
 */
final class ChunkCloser implements AutoCloseable {
  private final ExecutorService thread;
  private final HashRecordWriter writer;
  private final ChunkNotes notes;
  private final String hashesTopic;
  private Future<Closed> pending;

  /** A closed chunk: what was read, and how long its close took on the closer's thread. */
  record Closed(ChunkRead read, long nanos) {}

  /**
   * @param thread a thread of its own, shut down on {@link #close()}
   * @param notes the connection the CLOSE notes are committed on, not the one of the OPEN notes
   *     (those are committed meanwhile)
   */
  ChunkCloser(
      ExecutorService thread, HashRecordWriter writer, ChunkNotes notes, String hashesTopic) {
    this.thread = thread;
    this.writer = writer;
    this.notes = notes;
    this.hashesTopic = hashesTopic;
  }

  /**
   * Hands a read chunk over to be closed; the chunk handed over before must be closed already
   * ({@link #awaitClosed}).
   *
   * @param hashed the chunk's keys and hashes, maybe still in the making
   * @param saved the table's position after the chunk
   */
  void close(
      ChunkId id,
      TableName table,
      ScanPlan plan,
      CompletableFuture<ChunkRead> hashed,
      String saved) {
    if (pending != null) {
      throw new IllegalStateException("chunk handed over before it was awaited");
    }
    pending =
        thread.submit(
            () -> {
              ChunkRead read = hashed.get();
              long start = System.nanoTime();
              List<HashRecordLocation> locations = writer.write(id, plan, read);
              Failpoint.hit(Failpoint.COMPARE_HASHES_WRITTEN);
              notes.closeChunk(table, id.runId(), id.chunk(), read, hashesTopic, locations, saved);
              if (plan.externalCapture()) {
                notes.tick(table);
              }
              return new Closed(read, System.nanoTime() - start);
            });
  }

  /** Whether a chunk is handed over and not yet awaited. */
  boolean closing() {
    return pending != null;
  }

  /**
   * Waits until the chunk handed over last is closed: its hash records acknowledged and its CLOSE
   * note committed.
   *
   * @return the chunk, and how long its close took once its hashes were there
   * @throws Exception what stopped the close (a failed read or hash, a refused hash record, a
   *     failed note)
   */
  Closed awaitClosed() throws Exception {
    Future<Closed> closing = pending;
    pending = null;
    try {
      return closing.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ExecutionException hashing) {
        cause = hashing.getCause(); // the hashing's failure, through the closer
      }
      if (cause instanceof Exception failure) {
        throw failure;
      }
      throw e;
    }
  }

  /**
   * Lets a chunk handed over finish its close after the run failed, for at most {@code timeout}:
   * its records are written already, so closing it spares a re-read. What stops it is added to
   * {@code failure}.
   */
  void finishAfter(Throwable failure, Duration timeout) {
    Future<Closed> closing = pending;
    pending = null;
    if (closing == null) {
      return;
    }
    try {
      closing.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure.addSuppressed(e);
    } catch (ExecutionException | TimeoutException e) {
      failure.addSuppressed(e);
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
