package io.cdccompare.bench.e2e;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Verdict lag of one target over one compare run, in milliseconds: for each chunk result, from the
 * commit of its chunk's CLOSE note on the source (the note's {@code notedAt}, the {@code now()} of
 * the CLOSE transaction: a few ms before its commit; corrected by the measured offset of the
 * source's clock) to the result's arrival at this benchmark's consumer. Split in three stages by
 * what the result carries: <b>capture</b> (note → the CLOSE marker's record timestamp, set when the
 * capture sent it; the verifier forwards it as the result's timestamp), <b>verify</b> (marker →
 * {@code verifiedAt}: waiting behind earlier records of the partition, fetching the hash record,
 * reading and hashing the target's range, storing the verdict) and <b>publish</b> ({@code
 * verifiedAt} → arrival: the Streams producer's batching and the consumer's fetch).
 *
 * <p>The first and last deciles are the results of the first and last tenth of the run's chunks (at
 * least one chunk each): whether the lag grows over the run.
 */
public record VerdictLags(
    int results,
    double p50,
    double p99,
    double max,
    double firstDecileP50,
    double lastDecileP50,
    double captureP50,
    double verifyP50,
    double verifyP99,
    double publishP50,
    double chunkIntervalMs) {

  /**
   * @param notedAt the CLOSE note's {@code notedAt} of a chunk of the run
   * @param sourceClockAhead how far the source's clock is ahead of this machine's
   */
  static VerdictLags of(
      List<VerdictWatch.Verdict> verdicts,
      BiFunction<String, Long, Instant> notedAt,
      Duration sourceClockAhead,
      long chunks) {
    int n = verdicts.size();
    double[] total = new double[n];
    double[] capture = new double[n];
    double[] verify = new double[n];
    double[] publish = new double[n];
    long decile = Math.max(1, (chunks + 9) / 10);
    long lowest = verdicts.stream().mapToLong(VerdictWatch.Verdict::chunk).min().orElse(0);
    long highest = verdicts.stream().mapToLong(VerdictWatch.Verdict::chunk).max().orElse(0);
    double[] first = new double[n];
    double[] last = new double[n];
    int firstN = 0;
    int lastN = 0;
    for (int i = 0; i < n; i++) {
      VerdictWatch.Verdict v = verdicts.get(i);
      Instant noted = notedAt.apply(v.runId(), v.chunk());
      if (noted == null) {
        throw new IllegalStateException("no CLOSE marker read for chunk " + v.chunk());
      }
      double notedMs = micros(noted.minus(sourceClockAhead)) / 1000.0;
      double verifiedMs = micros(v.verifiedAt()) / 1000.0;
      total[i] = v.arrivedMs() - notedMs;
      capture[i] = v.markerTimestampMs() - notedMs;
      verify[i] = verifiedMs - v.markerTimestampMs();
      publish[i] = v.arrivedMs() - verifiedMs;
      if (v.chunk() < lowest + decile) {
        first[firstN++] = total[i];
      }
      if (v.chunk() > highest - decile) {
        last[lastN++] = total[i];
      }
    }
    return new VerdictLags(
        n,
        percentile(total, 50),
        percentile(total, 99),
        percentile(total, 100),
        percentile(Arrays.copyOf(first, firstN), 50),
        percentile(Arrays.copyOf(last, lastN), 50),
        percentile(capture, 50),
        percentile(verify, 50),
        percentile(verify, 99),
        percentile(publish, 50),
        chunkInterval(verdicts));
  }

  private static double chunkInterval(List<VerdictWatch.Verdict> verdicts) {
    long chunks = verdicts.stream().mapToLong(VerdictWatch.Verdict::chunk).distinct().count();
    if (chunks < 2) {
      return Double.NaN;
    }
    long first = verdicts.stream().mapToLong(v -> micros(v.verifiedAt())).min().orElseThrow();
    long last = verdicts.stream().mapToLong(v -> micros(v.verifiedAt())).max().orElseThrow();
    return (last - first) / 1000.0 / (chunks - 1);
  }

  private static long micros(Instant t) {
    return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
  }

  /** Nearest-rank percentile; NaN for no values. */
  static double percentile(double[] values, double p) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p / 100 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
