package io.cdccompare.verifier.stream;

import java.time.Duration;

/** A clock that moves only when the code under test pauses: no test waits for real. */
final class FakeTicker implements Ticker {
  long nanos = 1_000_000_000L;
  int pauses;

  @Override
  public long nanos() {
    return nanos;
  }

  @Override
  public void pause(Duration pause) {
    pauses++;
    nanos += pause.toNanos();
  }
}
