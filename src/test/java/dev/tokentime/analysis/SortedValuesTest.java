package dev.tokentime.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare's one pass over a side's sorted values gives the figures a full sort in Java gives. */
class SortedValuesTest {
  @TempDir
  Path tmp;

  /** 1,000 values, in an order that is not theirs, with repeats: x = (i * 7919 mod 1000) / 8. */
  private static double[] expected() {
    double[] v = new double[1000];
    for (int i = 0; i < 1000; i++) {
      v[i] = ((i * 7919L) % 1000) / 8.0 + (i % 3 == 0 ? 0.5 : 0);
    }
    Arrays.sort(v);
    return v;
  }

  @Test
  void aSampledPassGivesTheExactMeanAndPercentilesOfEveryValue() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.db.execute("CREATE TABLE v AS SELECT ((i * 7919) % 1000) / 8.0 + CASE WHEN i % 3 = 0 THEN 0.5 ELSE 0 END AS x,"
          + " CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS side FROM range(1000) r(i)");
      double[] all = expected();
      SortedValues s = SortedValues.read(t.db, "SELECT x FROM v WHERE side IN (?, ?)", List.of("a", "b"), 50, 11, 50, 95, 99);
      assertEquals(1000, s.n);
      assertFalse(s.complete);
      assertEquals(Bootstrap.mean().of(all), s.mean(), 1e-12);
      for (double p : new double[] {50, 95, 99}) {
        assertEquals(Bootstrap.percentile(p).of(all), s.percentile(p), 0.0, "p" + p);
      }
      assertEquals(50, s.sample.length);
      long[] ranks = SortedValues.sampleRanks(1000, 50, 11);
      for (int i = 0; i < 50; i++) {
        assertEquals(all[(int) ranks[i]], s.sample[i], 0.0, "the sample is the values at the sampled ranks");
      }
      assertEquals(false, t.rows("SELECT current_setting('jdbc_stream_results')").get(0).get(0),
          "the connection's result streaming is put back");

      SortedValues whole = SortedValues.read(t.db, "SELECT x FROM v", List.of(), 5000, 11, 50, 95, 99);
      assertTrue(whole.complete);
      assertArrayEquals(all, whole.sample, 0.0);
      assertEquals(Bootstrap.percentile(95).of(all), whole.percentile(95), 0.0);

      SortedValues none = SortedValues.read(t.db, "SELECT x FROM v WHERE side = ?", List.of("c"), 50, 11, 50);
      assertEquals(0, none.n);
      assertEquals(0, none.sample.length);
    }
  }

  @Test
  void sampledRanksAreDistinctAscendingAndReproducible() {
    long[] r = SortedValues.sampleRanks(100, 10, 3);
    assertEquals(10, r.length);
    assertEquals(10, Arrays.stream(r).distinct().count());
    for (int i = 0; i < r.length; i++) {
      assertTrue(r[i] >= 0 && r[i] < 100);
      assertTrue(i == 0 || r[i] > r[i - 1]);
    }
    assertArrayEquals(r, SortedValues.sampleRanks(100, 10, 3));
    assertArrayEquals(new long[] {0, 1, 2, 3, 4}, SortedValues.sampleRanks(5, 5, 3), "every rank when max = n");
    // uniform: over many seeds every rank of 0..9 is drawn about as often (5 of 10 each time)
    int[] hits = new int[10];
    for (long seed = 0; seed < 2000; seed++) {
      for (long k : SortedValues.sampleRanks(10, 5, seed)) {
        hits[(int) k]++;
      }
    }
    for (int h : hits) {
      assertTrue(h > 900 && h < 1100, Arrays.toString(hits));
    }
  }
}
