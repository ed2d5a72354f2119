package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.table.TableName;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {

  private final AtomicLong clock = new AtomicLong();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private Progress progress(Progress.Mode mode) {
    return new Progress(
        "t1",
        mode,
        Duration.ofSeconds(10),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        clock::get);
  }

  @Test
  void barShowsRowsChunksRateAndEta() {
    // Given a table of about 1 000 000 rows
    Progress progress = progress(Progress.Mode.BAR);
    progress.tableStarted(new TableName("public", "orders"), 1_000_000, 0);

    // When 250 000 rows in 25 chunks took 5 s
    clock.set(Duration.ofSeconds(5).toNanos());
    progress.chunkDone(250_000, 25);

    // Then the bar is a quarter full, the rate 50 000 rows/s and 15 s remain
    assertThat(out.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "\r[######..................] table=public.orders rows=250,000/~1,000,000 chunks=25"
                + " rate=50,000 rows/s eta=15s");
  }

  @Test
  void rateCountsOnlyRowsReadSinceThisProcessStarted() {
    // Given a resumed table with 600 000 of ~1 000 000 rows done before
    Progress progress = progress(Progress.Mode.LOG);
    progress.tableStarted(new TableName("public", "orders"), 1_000_000, 600_000);

    // When 100 000 more rows took 10 s
    clock.set(Duration.ofSeconds(10).toNanos());
    String line = progress.line(700_000, 70, clock.get());

    // Then the rate is 10 000 rows/s and the ETA 30 s
    assertThat(line).contains("rate=10,000 rows/s").endsWith("eta=30s");
  }

  @Test
  void etaIsReadable() {
    // Given rows left and a rate
    // When the ETA is written
    // Then it uses hours, minutes and seconds, and ? when the rate is unknown
    assertThat(Progress.eta(7_200, 1)).isEqualTo("2h00m");
    assertThat(Progress.eta(125, 1)).isEqualTo("2m05s");
    assertThat(Progress.eta(10, 0)).isEqualTo("?");
    assertThat(Progress.eta(0, 0)).isEqualTo("0s");
  }
}
