package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.table.TableName;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompareMetersTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final CompareMeters meters = new CompareMeters(registry, "nightly");

  private double gauge(String name, String target) {
    return registry.get(name).tags("task", "nightly", "target", target).gauge().value();
  }

  @Test
  void hashRecordsWaitUntilEachTargetPublishedTheirVerdict() {
    // Given two targets, and two partitions' records of chunk 1 written (100 and 50 bytes)
    meters.waitFor(List.of("a", "b"));
    meters.hashRecordWritten("r1", "s.t", 1, 0, 100);
    meters.hashRecordWritten("r1", "s.t", 1, 1, 50);
    assertThat(gauge("cdccompare.hashes.waiting", "a")).isEqualTo(2);
    assertThat(gauge("cdccompare.hashes.waiting.size", "b")).isEqualTo(150);

    // When target a publishes partition 0's verdict, and b a verdict of another run
    meters.verdictPublished("a", "r1", "s.t", 1, 0);
    meters.verdictPublished("b", "r0", "s.t", 1, 0);

    // Then only a's partition 0 is no longer waiting
    assertThat(gauge("cdccompare.hashes.waiting", "a")).isEqualTo(1);
    assertThat(gauge("cdccompare.hashes.waiting.size", "a")).isEqualTo(50);
    assertThat(gauge("cdccompare.hashes.waiting", "b")).isEqualTo(2);

    // and a replayed verdict changes nothing
    meters.verdictPublished("a", "r1", "s.t", 1, 0);
    assertThat(gauge("cdccompare.hashes.waiting", "a")).isEqualTo(1);
  }

  @Test
  void rowsCountOnlyWhatThisPartOfTheRunReadAndProgressEndsAtOne() {
    // Given a table of about 1 000 rows of which 200 were read by an earlier, stopped part
    TableName table = new TableName("s", "t");
    meters.tableStarted(table, 1_000, 200);

    // When chunks close at 700 rows read, then the table is done at 1 100
    meters.rowsDone(table, 700, false);
    double halfway =
        registry.get("cdccompare.compare.progress").tags("table", "s.t").gauge().value();
    meters.rowsDone(table, 1_100, true);

    // Then
    assertThat(halfway).isEqualTo(0.7);
    assertThat(registry.get("cdccompare.compare.rows").tags("table", "s.t").counter().count())
        .isEqualTo(900);
    assertThat(registry.get("cdccompare.compare.progress").tags("table", "s.t").gauge().value())
        .isEqualTo(1.0);
  }
}
