package dev.tokentime.generate;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Token timing the way a continuous-batching engine (vLLM, TensorRT-LLM) produces it: the engine
 * runs one iteration after another; each iteration admits waiting requests into free batch slots
 * and prefills them, and every request in the batch gets one token when the iteration ends. So
 * the tokens of different requests come in lock-step, a bigger batch makes every iteration
 * longer, and an iteration with a prefill in it is a stall for every request already decoding.
 * Timestamps carry up to {@link #RECEIVE_JITTER_NS} of per-token receive jitter, as a client on
 * the same network sees them.
 */
final class EngineSteps {
  /** Per-token receive jitter: well inside the 1 ms step tolerance of the token batch method. */
  static final long RECEIVE_JITTER_NS = 200_000;

  /** A request between its arrival and the moment it is handed to the sink. */
  private static final class Live {
    final RunGenerator.Request r;
    final int client;
    final int n;
    final boolean failed;
    int k;
    boolean done;

    Live(RunGenerator.Request r, int client, int n, boolean failed) {
      this.r = r;
      this.client = client;
      this.n = n;
      this.failed = failed;
    }
  }

  private EngineSteps() {}

  /** One run; parameters as {@link RunGenerator#run}. */
  static long run(String run, long seed, int slots, long startNs, int concurrency, int warmup,
      int requests, int meanOutput, int errorEvery, RunGenerator.Sink sink)
      throws java.io.IOException {
    SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + concurrency);
    PriorityQueue<long[]> clients = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
    for (int c = 0; c < concurrency; c++) {
      clients.add(new long[] {startNs + c * 1_000_000L, c});
    }
    PriorityQueue<Live> entering = new PriorityQueue<>((a, b) -> Long.compare(a.r.queuedNs, b.r.queuedNs));
    ArrayDeque<Live> waiting = new ArrayDeque<>();
    List<Live> running = new ArrayList<>();
    ArrayDeque<Live> unsent = new ArrayDeque<>(); // arrival order; sent once finished
    int total = warmup + requests;
    int created = 0;
    long tokens = 0;
    long now = startNs;
    while (created < total || !entering.isEmpty() || !waiting.isEmpty() || !running.isEmpty()) {
      // a client with a request out is not in the queue; it comes back when the request finishes
      while (created < total && !clients.isEmpty() && clients.peek()[0] <= now) {
        long[] client = clients.poll();
        Live l = arrive(run, concurrency, created++, (int) client[1], warmup, client[0], meanOutput,
            errorEvery, rnd);
        entering.add(l);
        unsent.add(l);
      }
      while (!entering.isEmpty() && entering.peek().r.queuedNs <= now) {
        waiting.add(entering.poll());
      }
      if (running.isEmpty() && waiting.isEmpty()) {
        long next = entering.isEmpty() ? Long.MAX_VALUE : entering.peek().r.queuedNs;
        if (created < total && !clients.isEmpty()) {
          next = Math.min(next, clients.peek()[0]);
        }
        if (next == Long.MAX_VALUE) {
          break;
        }
        now = Math.max(now, next);
        continue;
      }
      // one iteration: admit into free slots and prefill them, decode one token for the rest
      long prefillNs = 0;
      int admitted = 0;
      while (running.size() < slots && !waiting.isEmpty()) {
        Live l = waiting.poll();
        l.r.scheduledNs = now;
        prefillNs += l.r.promptTokens * 40_000L;
        admitted++;
        running.add(l);
      }
      double decodeMs = (12.0 + 1.5 * running.size()) * Math.exp(0.1 * RunGenerator.gaussian(rnd));
      long stepNs = (long) (decodeMs * 1_000_000)
          + (admitted > 0 ? 8_000_000L + prefillNs + rnd.nextLong(2_000_000) : 0);
      long start = now;
      now += stepNs;
      for (int j = 0; j < running.size(); j++) {
        Live l = running.get(j);
        RunGenerator.Request r = l.r;
        if (l.failed) {
          r.finishedNs = start + stepNs / 2; // fails during its prefill
        } else {
          long t = now + rnd.nextLong(RECEIVE_JITTER_NS);
          if (l.k == 0) {
            r.firstTokenNs = t;
          }
          r.tokensNs[l.k++] = t;
          tokens++;
          if (l.k < l.n) {
            continue;
          }
          r.lastTokenNs = t;
          r.finishedNs = t + 200_000 + rnd.nextLong(300_000);
        }
        l.done = true;
        running.remove(j--);
        clients.add(new long[] {r.finishedNs + 1_000_000 + rnd.nextLong(4_000_000), l.client}); // turnaround
      }
      while (!unsent.isEmpty() && unsent.peek().done) {
        sink.accept(unsent.poll().r);
      }
    }
    return tokens;
  }

  private static Live arrive(String run, int level, int i, int client, int warmup, long arrivalNs,
      int meanOutput, int errorEvery, SplittableRandom rnd) {
    RunGenerator.Request r = new RunGenerator.Request();
    r.run = run;
    r.level = level;
    r.id = run + "-" + (i + 1);
    r.phase = i < warmup ? "warmup" : "measure";
    r.arrivalNs = arrivalNs;
    r.queuedNs = arrivalNs + 100_000 + rnd.nextLong(400_000); // frontend: 0.1-0.5 ms
    r.promptTokens = 64 + rnd.nextInt(960);
    boolean failed = errorEvery > 0 && i >= warmup && (i - warmup + 1) % errorEvery == 0;
    int n = failed ? 0 : Math.max(2, (int) Math.round(meanOutput * (0.4 + 1.2 * rnd.nextDouble())));
    r.tokensNs = new long[n];
    if (failed) {
      r.status = "error";
      r.outputTokens = 0;
    } else {
      r.status = "ok";
      r.outputTokens = n;
      r.finishReason = rnd.nextInt(4) == 0 ? "stop" : "length";
    }
    return new Live(r, client, n, failed);
  }
}
