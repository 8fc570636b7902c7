package dev.tokentime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * _gap_quantiles and _gap_quantiles_live (exact percentiles in bounded memory: counts per bucket of 65 µs, then counts
 * per value inside the buckets the percentiles fall in; the moments from the
 * same scan) gives what DuckDB's quantile_cont, avg, stddev_pop, min and max give over the same
 * values — quantile_cont holds every value in memory: on ties, a single gap, values at the
 * buckets' edges, zero gaps, chunks of several tokens (per_token) and a seeded random mix.
 */
class GapQuantilesTest {
  @TempDir
  Path tmp;

  static final String PS = "[0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99]";

  @Test
  void sameAsQuantileContOnEveryShapeOfData() throws Exception {
    StringBuilder jsonl = new StringBuilder();
    // ties: a 1 ms clock, most gaps exactly equal
    request(jsonl, "ties", "t1", gaps(1_000_000L, 1_000_000L, 1_000_000L, 2_000_000L, 1_000_000L, 1_000_000L));
    request(jsonl, "ties", "t2", gaps(1_000_000L, 1_000_000L, 3_000_000L));
    // one gap only
    request(jsonl, "one", "o1", gaps(42_123_457L));
    // the buckets' edges: 65,536 ns wide below 2^30 ns, 2^20 ns wide above
    request(jsonl, "edges", "e1", gaps(0, 1, 65_535, 65_536, 65_537, 131_071, 131_072,
        1_073_741_823L, 1_073_741_824L, 1_074_790_400L, 10_000_000_000_000L));
    request(jsonl, "edges", "e2", gaps(0, 0, 5, 65_535, 65_536, 1_073_741_823L));
    // a seeded random mix at ns resolution: a body around 30 ms and a tail of stalls
    Random rnd = new Random(7);
    for (int r = 0; r < 4; r++) {
      long[] g = new long[5_000];
      for (int i = 0; i < g.length; i++) {
        g[i] = rnd.nextInt(50) == 0 ? 200_000_000L + rnd.nextInt(2_000_000_000)
            : (long) (30_000_000 * Math.exp(rnd.nextGaussian() * 0.3));
      }
      request(jsonl, "random", "r" + r, g);
    }
    // chunks of several tokens: per_token divides the gap by the chunk's tokens
    jsonl.append("{\"request_id\":\"m1\",\"run\":\"multi\",\"arrival_ns\":0,"
        + "\"tokens_ns\":[1000000,4000000,4100000,9000000,9000001],\"tokens_n\":[1,3,1,7,2]}\n");

    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("gaps.jsonl", jsonl.toString()));
      // _gap_quantiles reads chunk_gap from what the derive step kept (_gap_stats);
      // _gap_quantiles_live computes both from the gaps
      for (String source : List.of("_gap_quantiles", "_gap_quantiles_live")) {
        for (String variant : List.of("chunk_gap", "per_token")) {
          String value = variant.equals("chunk_gap") ? "gap_ns" : "gap_per_token_ms";
          String scale = variant.equals("chunk_gap") ? " / 1e6" : "";
          Map<String, List<Double>> expected = byRun(t, "SELECT run, count(*), list_transform([avg(" + value + "), stddev_pop(" + value + "), min("
              + value + "), max(" + value + ")] || quantile_cont(" + value
              + ", " + PS + "), x -> x" + scale + ") FROM token_gaps WHERE measured AND ok GROUP BY run ORDER BY run");
          Map<String, List<Double>> actual = byRun(t,
              "SELECT run, n, [mean_ms, std_ms, min_ms, max_ms] || q FROM " + source + "('" + variant
                  + "') ORDER BY run");
          assertEquals(expected.keySet(), actual.keySet(), variant + ": runs");
          assertEquals(List.of("edges", "multi", "one", "random", "ties"), List.copyOf(expected.keySet()));
          for (String run : expected.keySet()) {
            List<Double> e = expected.get(run);
            List<Double> a = actual.get(run);
            assertEquals(e.get(0), a.get(0), source + " " + variant + " " + run + ": count");
            assertEquals(14, a.size(), "count, mean, std, min, max and 9 percentiles");
            for (int i = 1; i < e.size(); i++) {
              double tol = 1e-12 * Math.max(1, Math.abs(e.get(i)));
              assertEquals(e.get(i), a.get(i), tol, variant + " " + run + " figure #" + i + ": " + e + " vs " + a);
            }
          }
        }
      }
      // hand-checked: the ties run's gaps are 1,1,1,2,1,1 and 1,1,3 ms → sorted 1×7, 2, 3;
      // p75 is rank 6 of 0..8 (1 ms), p90 rank 7.2: 2 + 0.2 × (3 − 2) = 2.2 ms, p95 2.6, p99 2.92
      Map<String, List<Double>> ties = byRun(t, "SELECT run, n, q FROM _gap_quantiles('chunk_gap') WHERE run = 'ties'");
      assertEquals(List.of(9.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.2, 2.6, 2.92), ties.get("ties"));
      assertTrue(t.rows("SELECT * FROM _gap_quantiles('per_token') WHERE run = 'nothing'").isEmpty());
    }
  }

  private static long[] gaps(long... g) {
    return g;
  }

  /** One request of the run whose tokens are spaced by the gaps, starting at 1 ms. */
  private static void request(StringBuilder out, String run, String id, long[] gaps) {
    StringBuilder ts = new StringBuilder();
    long t = 1_000_000;
    ts.append(t);
    for (long g : gaps) {
      t += g;
      ts.append(',').append(t);
    }
    out.append("{\"request_id\":\"").append(id).append("\",\"run\":\"").append(run)
        .append("\",\"arrival_ns\":0,\"tokens_ns\":[").append(ts).append("]}\n");
  }

  /** run → [count, q1, q2, ...] as doubles. */
  private static Map<String, List<Double>> byRun(TestDb t, String sql) throws Exception {
    Map<String, List<Double>> out = new LinkedHashMap<>();
    for (List<Object> row : t.rows(sql)) {
      List<Double> v = new ArrayList<>();
      v.add(((Number) row.get(1)).doubleValue());
      for (Object x : toList(row.get(2))) {
        v.add(((Number) x).doubleValue());
      }
      out.put((String) row.get(0), v);
    }
    return out;
  }

  private static List<?> toList(Object array) throws Exception {
    if (array instanceof java.sql.Array a) {
      return List.of((Object[]) a.getArray());
    }
    return (List<?>) array;
  }
}
