package dev.tokentime.analysis;

import dev.tokentime.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * What {@code compare} needs of one side's values of a metric, read in one pass over them in
 * ascending order, in memory that does not grow with their number: their count, exact mean and
 * percentiles (numpy's linear interpolation), and at most {@code max} of them for the bootstrap —
 * all of them when there are no more, else a seeded uniform sample of ranks. DuckDB sorts them
 * (spilling under its memory limit) and streams them: the pooled chunk gaps of a 50 M-token run
 * held as a Java list ran out of the 512 MB heap.
 */
final class SortedValues {
  /** How many values there are. */
  final long n;
  /** All values, ascending, when {@link #complete}; else the sampled ranks' values, ascending. */
  final double[] sample;
  /** Whether {@link #sample} holds every value. */
  final boolean complete;
  private final double mean;
  /** The ranks the percentiles need, ascending and distinct, and the values at them. */
  private final long[] ranks;
  private final double[] atRanks;

  private SortedValues(long n, double[] sample, boolean complete, double mean, long[] ranks, double[] atRanks) {
    this.n = n;
    this.sample = sample;
    this.complete = complete;
    this.mean = mean;
    this.ranks = ranks;
    this.atRanks = atRanks;
  }

  /**
   * Reads the one column of {@code sql} (no ORDER BY: one is added), with {@code params} bound in
   * order; {@code percentiles} (0..100) are the ones {@link #percentile} will be asked for.
   */
  static SortedValues read(Database db, String sql, List<String> params, int max, long seed,
      double... percentiles) throws SQLException {
    long n;
    try (PreparedStatement ps = prepare(db, "SELECT count(*) FROM (" + sql + ")", params);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      n = rs.getLong(1);
    }
    boolean complete = n <= max;
    long[] wanted = Arrays.stream(percentiles)
        .flatMap(p -> java.util.stream.DoubleStream.of(Math.floor((n - 1) * p / 100.0), Math.ceil((n - 1) * p / 100.0)))
        .mapToLong(r -> (long) r).distinct().sorted().toArray();
    double[] atWanted = new double[wanted.length];
    int w = 0;
    long[] sampled = complete ? null : sampleRanks(n, max, seed);
    double[] sample = new double[(int) Math.min(n, max)];
    // compensated (Kahan) sum, as DoubleStream.average adds
    double sum = 0;
    double compensation = 0;
    long rank = 0;
    int s = 0;
    db.streamResults(true);
    try (PreparedStatement ps = prepare(db, "SELECT * FROM (" + sql + ") ORDER BY 1", params);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        double v = rs.getDouble(1);
        double y = v - compensation;
        double t = sum + y;
        compensation = (t - sum) - y;
        sum = t;
        if (complete) {
          sample[s++] = v;
        } else if (s < sampled.length && sampled[s] == rank) {
          sample[s++] = v;
        }
        while (w < wanted.length && wanted[w] == rank) {
          atWanted[w++] = v;
        }
        rank++;
      }
    } finally {
      db.streamResults(false);
    }
    if (rank != n) {
      throw new SQLException("compare: the values changed while they were read (" + n + " counted, " + rank + " read)");
    }
    return new SortedValues(n, sample, complete, n == 0 ? Double.NaN : sum / n, wanted, atWanted);
  }

  /** The mean of every value (NaN when there are none). */
  double mean() {
    return complete ? Bootstrap.mean().of(sample) : mean;
  }

  /** numpy's linear percentile of every value; p must be one given to {@link #read}. */
  double percentile(double p) {
    if (complete || n == 0) {
      return Bootstrap.percentile(p).of(sample);
    }
    double pos = (n - 1) * p / 100.0;
    long lo = (long) Math.floor(pos);
    long hi = (long) Math.ceil(pos);
    double vlo = atRanks[Arrays.binarySearch(ranks, lo)];
    double vhi = atRanks[Arrays.binarySearch(ranks, hi)];
    return vlo + (vhi - vlo) * (pos - lo);
  }

  /** {@code max} distinct ranks of 0..n-1 drawn uniformly (Floyd's algorithm), ascending. */
  static long[] sampleRanks(long n, int max, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Set<Long> chosen = new HashSet<>(max * 2);
    for (long j = n - max; j < n; j++) {
      long t = rnd.nextLong(j + 1);
      chosen.add(chosen.contains(t) ? j : t);
    }
    long[] out = chosen.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(out);
    return out;
  }

  private static PreparedStatement prepare(Database db, String sql, List<String> params) throws SQLException {
    PreparedStatement ps = db.connection().prepareStatement(sql);
    for (int i = 0; i < params.size(); i++) {
      ps.setString(i + 1, params.get(i));
    }
    return ps;
  }
}
