package dev.tokentime.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare's figures of a side, computed in DuckDB: exact over every value, as a full sort in Java
 * gives them, and a sample of the values that is reproducible, uniform and the same for the same
 * rows.
 */
class SideValuesTest {
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

  private static final String VALUES = "SELECT 'side' AS run, 'x' AS metric, x AS v, i AS k FROM v WHERE side IN (?, ?)";

  @Test
  void figuresAreOverEveryValueAndTheSampleIsReproducibleAndUniform() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.db.execute("CREATE TABLE v AS SELECT i, ((i * 7919) % 1000) / 8.0 + CASE WHEN i % 3 = 0 THEN 0.5 ELSE 0 END AS x,"
          + " CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS side FROM range(1000) r(i)");
      double[] all = expected();
      SideValues s = SideValues.read(t.db, VALUES, List.of("a", "b"), 50, 11).get("x");
      assertEquals(1000, s.n());
      assertEquals(Bootstrap.mean().of(all), s.mean(), 1e-12);
      for (double p : new double[] {50, 95, 99}) {
        assertEquals(Bootstrap.percentile(p).of(all), s.valueOf(p), 1e-12, "p" + p);
      }

      // at most 50 of the values, ascending, and the same 50 each time
      assertEquals(50, s.sample().length);
      Map<Double, Integer> left = new HashMap<>();
      for (double x : all) {
        left.merge(x, 1, Integer::sum);
      }
      for (int i = 0; i < 50; i++) {
        assertTrue(i == 0 || s.sample()[i] >= s.sample()[i - 1], "ascending");
        assertTrue(left.merge(s.sample()[i], -1, Integer::sum) >= 0, "a value of the side: " + s.sample()[i]);
      }
      assertArrayEquals(s.sample(), SideValues.read(t.db, VALUES, List.of("a", "b"), 50, 11).get("x").sample(), 0.0);
      // the same rows under another name are the same sample: the key chooses, not the query
      t.db.execute("CREATE TABLE w AS SELECT * FROM v ORDER BY x DESC");
      assertArrayEquals(s.sample(),
          SideValues.read(t.db, VALUES.replace("FROM v", "FROM w"), List.of("a", "b"), 50, 11).get("x").sample(), 0.0);
      assertFalse(Arrays.equals(s.sample(), SideValues.read(t.db, VALUES, List.of("a", "b"), 50, 12).get("x").sample()),
          "another seed draws another sample");

      // uniform over the values: half of them, drawn under 40 seeds, average to the mean of all
      // (the 500 smallest would average 31 below it); its standard error is about 1.2 / sqrt(40)
      double sum = 0;
      for (long seed = 0; seed < 40; seed++) {
        sum += Bootstrap.mean().of(SideValues.read(t.db, VALUES, List.of("a", "b"), 500, seed).get("x").sample());
      }
      assertEquals(s.mean(), sum / 40, 1.0);

      SideValues whole = SideValues.read(t.db, VALUES, List.of("a", "b"), 5000, 11).get("x");
      assertArrayEquals(all, whole.sample(), 0.0, "every value when there are no more than the sample's size");

      assertTrue(SideValues.read(t.db, VALUES, List.of("c", "d"), 50, 11).isEmpty());
    }
  }
}
