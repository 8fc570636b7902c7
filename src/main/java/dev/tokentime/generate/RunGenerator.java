package dev.tokentime.generate;

import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A deterministic synthetic load test, for samples, tests and benchmarks: closed-loop clients at
 * a concurrency level send requests to a server with a fixed number of batch slots. A request
 * waits in the queue until a slot frees, prefills in time proportional to its prompt, then streams
 * tokens whose gaps grow with the batch. How the tokens are timed is a {@link TokenTiming}. The
 * same seed always gives the same requests, byte for byte.
 */
public final class RunGenerator {

  /** How token timestamps are made. */
  public enum TokenTiming {
    /**
     * Engine iterations ({@link EngineSteps}): the requests in the batch get their tokens together
     * at the end of each iteration, and a prefill stalls everyone decoding. What servers do.
     */
    STEPS,
    /**
     * Each request on its own: lognormal gaps around a mean that grows with the level, and a
     * random 2 % of gaps stalled by 40-120 ms; tokens of different requests are not aligned. The
     * model the bundled samples were written with.
     */
    INDEPENDENT
  }

  /** One generated request, with its per-token timestamps. */
  public static final class Request {
    public String id;
    public String run;
    public int level;
    public long arrivalNs;
    public long queuedNs;
    public long scheduledNs;
    public long firstTokenNs;
    public long lastTokenNs;
    public long finishedNs;
    public int promptTokens;
    public int outputTokens;
    public String status;
    public String finishReason;
    public String phase;
    public long[] tokensNs;
  }

  /** Receives requests in arrival order. */
  public interface Sink extends AutoCloseable {
    void accept(Request r) throws java.io.IOException;

    @Override
    default void close() throws java.io.IOException {}
  }

  private final long seed;
  private final int slots;
  private final long startNs;
  private final TokenTiming timing;

  /**
   * @param seed random seed
   * @param slots server batch slots (requests beyond it queue)
   * @param startNs wall time of the first request
   * @param timing how token timestamps are made
   */
  public RunGenerator(long seed, int slots, long startNs, TokenTiming timing) {
    this.seed = seed;
    this.slots = slots;
    this.startNs = startNs;
    this.timing = timing;
  }

  /**
   * Generates one run: {@code warmup} warm-up requests then {@code requests} measured ones.
   *
   * @param errorEvery every n-th measured request fails (0 = none)
   * @param meanOutput mean output length in tokens
   * @return the number of tokens generated
   */
  public long run(String run, int concurrency, int warmup, int requests, int meanOutput,
      int errorEvery, long offsetNs, Sink sink) throws java.io.IOException {
    if (timing == TokenTiming.STEPS) {
      return EngineSteps.run(run, seed, slots, startNs + offsetNs, concurrency, warmup, requests,
          meanOutput, errorEvery, sink);
    }
    SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + concurrency);
    PriorityQueue<long[]> clients = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
    for (int c = 0; c < concurrency; c++) {
      clients.add(new long[] {startNs + offsetNs + c * 1_000_000L, c});
    }
    PriorityQueue<Long> slotFree = new PriorityQueue<>();
    for (int s = 0; s < slots; s++) {
      slotFree.add(0L);
    }
    long tokens = 0;
    int total = warmup + requests;
    for (int i = 0; i < total; i++) {
      long[] client = clients.poll();
      Request r = new Request();
      r.run = run;
      r.level = concurrency;
      r.id = run + "-" + (i + 1);
      r.phase = i < warmup ? "warmup" : "measure";
      r.arrivalNs = client[0];
      r.queuedNs = r.arrivalNs + 100_000 + rnd.nextLong(400_000); // frontend: 0.1-0.5 ms
      long free = slotFree.poll();
      r.scheduledNs = Math.max(r.queuedNs, free);
      r.promptTokens = 64 + rnd.nextInt(960);
      long prefillNs = 8_000_000L + r.promptTokens * 40_000L + rnd.nextLong(2_000_000);
      r.firstTokenNs = r.scheduledNs + prefillNs;
      boolean failed = errorEvery > 0 && i >= warmup && (i - warmup + 1) % errorEvery == 0;
      int n = failed ? 0 : Math.max(2, (int) Math.round(meanOutput * (0.4 + 1.2 * rnd.nextDouble())));
      double baseItlMs = 12.0 + 1.5 * Math.min(concurrency, slots);
      r.tokensNs = new long[n];
      long t = r.firstTokenNs;
      for (int k = 0; k < n; k++) {
        if (k > 0) {
          double gapMs = baseItlMs * Math.exp(0.25 * gaussian(rnd));
          if (rnd.nextInt(50) == 0) {
            gapMs += 40 + rnd.nextInt(80); // a stall: another request's prefill
          }
          t += (long) (gapMs * 1_000_000);
        }
        r.tokensNs[k] = t;
      }
      if (failed) {
        r.status = "error";
        r.firstTokenNs = 0;
        r.lastTokenNs = 0;
        r.finishedNs = r.scheduledNs + prefillNs / 2;
        r.outputTokens = 0;
        r.finishReason = null;
      } else {
        r.status = "ok";
        r.lastTokenNs = t;
        r.finishedNs = t + 200_000 + rnd.nextLong(300_000);
        r.outputTokens = n;
        r.finishReason = rnd.nextInt(4) == 0 ? "stop" : "length";
      }
      tokens += n;
      slotFree.add(r.finishedNs);
      client[0] = r.finishedNs + 1_000_000 + rnd.nextLong(4_000_000); // client turnaround
      clients.add(client);
      sink.accept(r);
    }
    return tokens;
  }

  static double gaussian(SplittableRandom rnd) {
    // Box-Muller; SplittableRandom has no nextGaussian on Java 17
    double u = 1.0 - rnd.nextDouble();
    double v = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
