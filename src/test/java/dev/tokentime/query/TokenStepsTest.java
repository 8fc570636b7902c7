package dev.tokentime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tokens method of the batch timeline (_level_segments, basis tokens) finds engine steps in
 * SQL by cells of one tolerance width and running counts. It must give the steps of the plain
 * definition: sort a run's content chunks by time, start a step wherever two neighbours are more
 * than the tolerance (1 ms) apart, count a chunk unless it is within the tolerance of its
 * request's previous chunk, and let each step run from the previous step's first chunk to its
 * own. Checked by hand on a small case and against that definition, written out in Java below,
 * on seeded random runs whose steps straddle cell edges and chain over several cells.
 */
class TokenStepsTest {
  static final long TOL = 1_000_000;

  @TempDir
  Path tmp;

  @Test
  void handCheckedSteps() throws Exception {
    // run r1, 1 ms tolerance:
    //   step at 0.9 ms: a 0.9, b 1.2, a 1.5 (a again 0.6 ms after its last chunk: counted once) -> 2
    //   step at 5.0 ms: a 5.0, b 5.9, c 6.8 (a chain over cells 5 and 6)                       -> 3
    //   step at 10 ms:  a 10.0                                                                -> 1
    // segments: [0.9, 5.0) ms batch 3, [5.0, 10.0) ms batch 1; run r2 has its own steps, its
    // last (d 4.0, e 4.5, f 5.2) a chain over cells 4 and 5: the last step of all ends in a cell
    // that starts no step, so its batch counts up to the last cell of all -> 3
    // (the steps are found in one ordered pass over every run, not per run)
    String jsonl = req("a", "r1", 900_000, 1_500_000, 5_000_000, 10_000_000)
        + req("b", "r1", 1_200_000, 5_900_000)
        + req("c", "r1", 6_800_000)
        + req("d", "r2", 2_000_000, 4_000_000)
        + req("e", "r2", 4_500_000)
        + req("f", "r2", 5_200_000);
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("steps.jsonl", jsonl));
      assertEquals(List.of(
              List.of("r1", 900_000L, 5_000_000L, 3.0),
              List.of("r1", 5_000_000L, 10_000_000L, 1.0),
              List.of("r2", 2_000_000L, 4_000_000L, 3.0)),
          segments(t));
      // a batch is a count of requests: an INTEGER, not the HUGEINT of a difference of running
      // sums (the report keeps every step in memory: 12.5 M at 200 M tokens)
      assertEquals(List.of(List.of("INTEGER", 3)),
          t.rows("SELECT typeof(level), max(level) FROM _token_steps_live GROUP BY 1"));
    }
  }

  @Test
  void sameStepsAsGroupingChunksOneByOne() throws Exception {
    Random rnd = new Random(11);
    StringBuilder jsonl = new StringBuilder();
    List<long[]> chunks = new ArrayList<>(); // run index, ts, gap or -1
    int[] periods = {7_000_000, 1_100_000, 2_500_000};
    for (int run = 0; run < periods.length; run++) {
      for (int r = 0; r < 12; r++) {
        long start = (long) rnd.nextInt(300) * periods[run];
        List<Long> ts = new ArrayList<>();
        for (int k = 0; k < 30 + rnd.nextInt(40); k++) {
          long step = start + (long) k * periods[run];
          // a chunk up to 1.5 ms after its step, sometimes a second one 0.1-1.2 ms after that
          long t = step + rnd.nextInt(1_500_000);
          if (!ts.isEmpty() && t <= ts.get(ts.size() - 1)) {
            t = ts.get(ts.size() - 1) + 1;
          }
          ts.add(t);
          if (rnd.nextInt(6) == 0) {
            ts.add(t + 100_000 + rnd.nextInt(1_100_000));
          }
        }
        long[] arr = ts.stream().mapToLong(Long::longValue).toArray();
        jsonl.append(req("q" + run + "-" + r, "run" + run, arr));
        for (int i = 0; i < arr.length; i++) {
          chunks.add(new long[] {run, arr[i], i == 0 ? -1 : arr[i] - arr[i - 1]});
        }
      }
    }
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("random.jsonl", jsonl.toString()));
      // the default tolerance, then a narrower one set by the variable (cells of 0.3 ms)
      for (long tol : new long[] {TOL, 300_000}) {
        if (tol != TOL) {
          t.db.execute("SET VARIABLE tt_step_tolerance_ns = " + tol);
        }
        List<List<Object>> expected = reference(chunks, tol);
        assertTrue(expected.size() > 500, "enough steps: " + expected.size());
        assertTrue(expected.stream().anyMatch(s -> (double) s.get(3) >= 3), "steps of several requests");
        List<List<Object>> actual = segments(t);
        assertEquals(expected.size(), actual.size(), "segments at tolerance " + tol);
        for (int i = 0; i < expected.size(); i++) {
          assertEquals(expected.get(i), actual.get(i), "segment #" + i + " at tolerance " + tol);
        }
      }
    }
  }

  /** The definition, chunk by chunk: segments [previous step start, step start) with the step's batch. */
  private static List<List<Object>> reference(List<long[]> chunks, long tol) {
    TreeMap<Long, List<long[]>> byRun = new TreeMap<>();
    for (long[] c : chunks) {
      byRun.computeIfAbsent(c[0], k -> new ArrayList<>()).add(c);
    }
    List<List<Object>> out = new ArrayList<>();
    for (var e : byRun.entrySet()) {
      List<long[]> cs = e.getValue();
      cs.sort(Comparator.comparingLong(c -> c[1]));
      List<long[]> steps = new ArrayList<>(); // start, batch
      long prev = Long.MIN_VALUE;
      for (long[] c : cs) {
        if (steps.isEmpty() || c[1] - prev > tol) {
          steps.add(new long[] {c[1], 0});
        }
        if (c[2] < 0 || c[2] > tol) {
          steps.get(steps.size() - 1)[1]++;
        }
        prev = c[1];
      }
      for (int i = 1; i < steps.size(); i++) {
        out.add(List.of("run" + e.getKey(), steps.get(i - 1)[0], steps.get(i)[0], (double) steps.get(i)[1]));
      }
    }
    return out;
  }

  private static List<List<Object>> segments(TestDb t) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> r : t.rows("SELECT run, t0_ns, t1_ns, level FROM _level_segments"
        + " WHERE basis = 'tokens' ORDER BY run, t0_ns")) {
      out.add(List.of(r.get(0), ((Number) r.get(1)).longValue(), ((Number) r.get(2)).longValue(),
          ((Number) r.get(3)).doubleValue()));
    }
    return out;
  }

  private static String req(String id, String run, long... ts) {
    StringBuilder s = new StringBuilder();
    for (long x : ts) {
      s.append(s.length() == 0 ? "" : ",").append(x);
    }
    return "{\"request_id\":\"" + id + "\",\"run\":\"" + run + "\",\"arrival_ns\":0,\"tokens_ns\":[" + s + "]}\n";
  }
}
