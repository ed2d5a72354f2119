package io.cdccompare.bench;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.RowHash;
import io.cdccompare.core.rowhash.RowHasher;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Canonicalise + hash of a typical 8-column row (bigint id, integer, decimal(12,2), double, varchar
 * name, varchar e-mail, timestamp, timestamptz), as the Java values a JDBC driver hands over: the
 * per-row cost of the row hash on top of reading the rows. The score is ns per row.
 *
 * <p>The rows cycle through 1024 pre-built random rows so that branch prediction and caches see
 * varied values, not one row hashed over and over.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RowHashBenchmark {

  private static final int ROWS = 1024;

  @Param({"COMPATIBLE", "STRICT"})
  public CanonicalFormat format;

  private RowHasher hasher;
  private Object[][] rows;
  private byte[][] texts;
  private HashFunction.Digest md5;
  private int next;

  @Setup(Level.Trial)
  public void buildRows() {
    hasher =
        new RowHasher(
            List.of(
                HashedColumn.of("id", LogicalType.BIGINT),
                HashedColumn.of("customer_id", LogicalType.INTEGER),
                HashedColumn.of("amount", LogicalType.DECIMAL),
                HashedColumn.of("ratio", LogicalType.DOUBLE),
                HashedColumn.of("name", LogicalType.VARCHAR),
                HashedColumn.of("email", LogicalType.VARCHAR),
                HashedColumn.of("created_at", LogicalType.TIMESTAMP),
                HashedColumn.of("updated_at", LogicalType.TIMESTAMP_TZ)),
            format,
            HashFunction.md5());
    SplittableRandom random = new SplittableRandom(42);
    rows = new Object[ROWS][];
    for (int i = 0; i < ROWS; i++) {
      LocalDateTime created =
          LocalDateTime.of(2024, 1, 1, 0, 0)
              .plusSeconds(random.nextInt(31_536_000))
              .plusNanos(random.nextInt(1_000_000) * 1_000L);
      rows[i] =
          new Object[] {
            1_000_000L + i,
            random.nextInt(100_000),
            BigDecimal.valueOf(random.nextLong(1_000_000_00L), 2),
            random.nextInt(10_000) / 100.0,
            "Customer " + UUID.randomUUID().toString().substring(0, 8),
            "user" + random.nextInt(1_000_000) + "@example.com",
            created,
            OffsetDateTime.of(created.plusHours(3), ZoneOffset.ofHours(2))
          };
    }
    texts = new byte[ROWS][];
    for (int i = 0; i < ROWS; i++) {
      texts[i] = hasher.canonicalText(rows[i]).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
    md5 = HashFunction.md5().newDigest();
  }

  @Benchmark
  public RowHash canonicaliseAndHash() {
    Object[] row = rows[next];
    next = (next + 1) & (ROWS - 1);
    return hasher.hash(row);
  }

  /** Breakdown: the canonical row text alone, without UTF-8 encoding and hashing. */
  @Benchmark
  public String canonicalTextOnly() {
    Object[] row = rows[next];
    next = (next + 1) & (ROWS - 1);
    return hasher.canonicalText(row);
  }

  /** Control: MD5 of a row text's UTF-8 bytes alone (what the JDK's digest costs per row). */
  @Benchmark
  public byte[] md5Only() {
    byte[] bytes = texts[next];
    next = (next + 1) & (ROWS - 1);
    return md5.digest(bytes, 0, bytes.length);
  }
}
