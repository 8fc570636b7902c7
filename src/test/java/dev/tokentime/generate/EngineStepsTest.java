package dev.tokentime.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The engine-iteration token model of the generator: lock-step tokens, slots, order, failures. */
class EngineStepsTest {
  private static final long START = 1_767_225_600_000_000_000L;

  private static List<RunGenerator.Request> generate(RunGenerator.TokenTiming timing, int concurrency,
      int slots, int errorEvery) throws Exception {
    List<RunGenerator.Request> out = new ArrayList<>();
    new RunGenerator(5, slots, START, timing).run("r", concurrency, 2, 60, 40, errorEvery, 0, out::add);
    return out;
  }

  /** Every token instant, bucketed to the iteration it came from (tokens within the jitter). */
  private static TreeMap<Long, Integer> iterations(List<RunGenerator.Request> rs) {
    List<Long> all = new ArrayList<>();
    for (RunGenerator.Request r : rs) {
      for (long t : r.tokensNs) {
        all.add(t);
      }
    }
    all.sort(null);
    TreeMap<Long, Integer> batches = new TreeMap<>();
    long start = 0;
    for (long t : all) {
      if (batches.isEmpty() || t - start >= EngineSteps.RECEIVE_JITTER_NS) {
        start = t;
      }
      batches.merge(start, 1, Integer::sum);
    }
    return batches;
  }

  @Test
  void tokensOfTheBatchComeTogetherAndTheBatchNeverExceedsTheSlots() throws Exception {
    List<RunGenerator.Request> rs = generate(RunGenerator.TokenTiming.STEPS, 8, 4, 0);
    TreeMap<Long, Integer> batches = iterations(rs);
    int max = batches.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    assertEquals(4, max, "a full batch of 4 slots");
    long full = batches.values().stream().filter(b -> b == 4).count();
    assertTrue(full > 0.8 * batches.size(), full + " of " + batches.size() + " iterations full at 8 clients");
    // iterations are at least 12 ms apart, so no two batches blur into one
    Long prev = null;
    for (long t : batches.keySet()) {
      if (prev != null) {
        assertTrue(t - prev > 12_000_000L - EngineSteps.RECEIVE_JITTER_NS, (t - prev) + " ns between iterations");
      }
      prev = t;
    }
  }

  @Test
  void aSingleClientDecodesAloneWithGapsOfABatchOfOne() throws Exception {
    List<RunGenerator.Request> rs = generate(RunGenerator.TokenTiming.STEPS, 1, 4, 0);
    assertEquals(1, iterations(rs).values().stream().mapToInt(Integer::intValue).max().orElseThrow());
    RunGenerator.Request r = rs.get(5);
    // decode iteration of a batch of one: (12 + 1.5) ms with lognormal jitter sigma 0.1
    long[] t = r.tokensNs;
    double mean = (t[t.length - 1] - t[1]) / (double) (t.length - 2) / 1e6;
    assertTrue(mean > 12.5 && mean < 14.5, mean + " ms");
    assertEquals(r.scheduledNs, r.queuedNs, "an idle engine takes the request at once");
  }

  @Test
  void requestsBeyondTheSlotsQueueAndArePassedOnInArrivalOrder() throws Exception {
    List<RunGenerator.Request> rs = generate(RunGenerator.TokenTiming.STEPS, 8, 4, 0);
    assertEquals(62, rs.size());
    long queued = 0;
    for (int i = 0; i < rs.size(); i++) {
      RunGenerator.Request r = rs.get(i);
      assertEquals("r-" + (i + 1), r.id);
      assertEquals(i < 2 ? "warmup" : "measure", r.phase);
      if (i > 0) {
        assertTrue(r.arrivalNs >= rs.get(i - 1).arrivalNs, "arrival order at " + i);
      }
      assertTrue(r.arrivalNs < r.queuedNs && r.queuedNs <= r.scheduledNs && r.scheduledNs < r.firstTokenNs);
      assertEquals(r.firstTokenNs, r.tokensNs[0]);
      assertEquals(r.lastTokenNs, r.tokensNs[r.tokensNs.length - 1]);
      assertTrue(r.finishedNs > r.lastTokenNs);
      assertEquals(r.outputTokens, r.tokensNs.length);
      for (int k = 1; k < r.tokensNs.length; k++) {
        assertTrue(r.tokensNs[k] > r.tokensNs[k - 1]);
      }
      queued += r.scheduledNs - r.queuedNs;
    }
    // 8 clients on 4 slots: each request waits about one request's decode for a slot
    double meanQueueMs = queued / 1e6 / rs.size();
    assertTrue(meanQueueMs > 300, meanQueueMs + " ms");
  }

  @Test
  void failedRequestsEndInTheirPrefillWithoutTokens() throws Exception {
    List<RunGenerator.Request> rs = generate(RunGenerator.TokenTiming.STEPS, 4, 4, 7);
    long failed = rs.stream().filter(r -> r.status.equals("error")).count();
    assertEquals(60 / 7, failed);
    for (RunGenerator.Request r : rs) {
      if (r.status.equals("error")) {
        assertEquals(0, r.tokensNs.length);
        assertTrue(r.finishedNs > r.scheduledNs);
      }
    }
  }

  @Test
  void theSameSeedGivesTheSameRun() throws Exception {
    List<RunGenerator.Request> a = generate(RunGenerator.TokenTiming.STEPS, 6, 4, 5);
    List<RunGenerator.Request> b = generate(RunGenerator.TokenTiming.STEPS, 6, 4, 5);
    assertEquals(a.size(), b.size());
    for (int i = 0; i < a.size(); i++) {
      assertArrayEquals(a.get(i).tokensNs, b.get(i).tokensNs);
      assertEquals(a.get(i).finishedNs, b.get(i).finishedNs);
    }
  }

  @Test
  void independentTimingDoesNotAlignTokens() throws Exception {
    TreeMap<Long, Integer> batches = iterations(generate(RunGenerator.TokenTiming.INDEPENDENT, 8, 4, 0));
    long alone = batches.values().stream().filter(b -> b == 1).count();
    assertTrue(alone > 0.8 * batches.size(), alone + " of " + batches.size() + " token instants alone");
  }
}
