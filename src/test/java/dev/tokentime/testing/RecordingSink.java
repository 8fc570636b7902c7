package dev.tokentime.testing;

import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.StepRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link CollectingSink} that also keeps whole copies of the request, step and engine-stats
 * records (parsers reuse one mutable record per kind), the engine events, the token rows and the
 * end-of-stream calls, so parser tests can check every column a parser fills.
 */
public final class RecordingSink implements RecordSink {
  public final CollectingSink c = new CollectingSink();
  public final List<RequestRecord> requests = new ArrayList<>();
  public final List<StepRecord> steps = new ArrayList<>();
  public final List<EngineStatsRecord> stats = new ArrayList<>();
  /** {lineNo, kind, detail, instance, tsNs} per engine event. */
  public final List<String[]> events = new ArrayList<>();
  /** {requestKey, seq, tsNs, nTokens} per token row. */
  public final List<long[]> tokens = new ArrayList<>();
  /** Request keys whose stream ended, in call order. */
  public final List<Long> ended = new ArrayList<>();

  /** The recorded request with this id; fails the test when there is none. */
  public RequestRecord request(String id) {
    for (RequestRecord r : requests) {
      if (r.requestId.equals(id)) {
        return r;
      }
    }
    throw new AssertionError("no request " + id + " in " + requests.stream().map(r -> r.requestId).toList());
  }

  /** Token times of the request with this key, in seq order. */
  public List<Long> tokenTimes(long key) {
    List<Long> out = new ArrayList<>();
    for (long[] t : tokens) {
      if (t[0] == key) {
        out.add(t[2]);
      }
    }
    return out;
  }

  @Override
  public int clock(ClockSpec spec) {
    return c.clock(spec);
  }

  @Override
  public String runLevel(String run, String levelKind, Double level, Integer repeat, String how) {
    return c.runLevel(run, levelKind, level, repeat, how);
  }

  @Override
  public long request(RequestRecord r, byte[] line, int off, int len) {
    long key = c.request(r, line, off, len);
    if (key >= 0) {
      requests.add(copy(r));
    }
    return key;
  }

  @Override
  public long requestKeyFor(String run, String requestId, int clockId, long lineNo) {
    return c.requestKeyFor(run, requestId, clockId, lineNo);
  }

  @Override
  public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {
    c.token(requestKey, seq, tsNs, nTokens, kind);
    tokens.add(new long[] {requestKey, seq, tsNs, nTokens});
  }

  @Override
  public void endOfStream(long requestKey) {
    ended.add(requestKey);
  }

  @Override
  public void step(StepRecord s) {
    c.step(s);
    StepRecord k = new StepRecord();
    k.lineNo = s.lineNo;
    k.instance = s.instance;
    k.rank = s.rank;
    k.epoch = s.epoch;
    k.iter = s.iter;
    k.tsNs = s.tsNs;
    k.clockId = s.clockId;
    k.durationMs = s.durationMs;
    k.running = s.running;
    k.waiting = s.waiting;
    k.ctxRequests = s.ctxRequests;
    k.ctxTokens = s.ctxTokens;
    k.genRequests = s.genRequests;
    k.genTokens = s.genTokens;
    k.paused = s.paused;
    k.kvUsage = s.kvUsage;
    k.extras.putAll(s.extras);
    steps.add(k);
  }

  @Override
  public void engineStats(EngineStatsRecord s) {
    c.engineStats(s);
    EngineStatsRecord k = new EngineStatsRecord();
    k.lineNo = s.lineNo;
    k.instance = s.instance;
    k.tsNs = s.tsNs;
    k.clockId = s.clockId;
    k.promptTokensPerS = s.promptTokensPerS;
    k.genTokensPerS = s.genTokensPerS;
    k.running = s.running;
    k.waiting = s.waiting;
    k.swapped = s.swapped;
    k.preemptions = s.preemptions;
    k.kvUsage = s.kvUsage;
    k.prefixHitRate = s.prefixHitRate;
    k.extras.putAll(s.extras);
    stats.add(k);
  }

  @Override
  public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind, String detail) {
    c.engineEvent(lineNo, instance, tsNs, clockId, kind, detail);
    events.add(new String[] {Long.toString(lineNo), kind, detail, instance, Long.toString(tsNs)});
  }

  @Override
  public void histogramBucket(String metric, Map<String, String> labels, long t0Ns, long t1Ns,
      int clockId, double le, double count) {
    c.histogramBucket(metric, labels, t0Ns, t1Ns, clockId, le, count);
  }

  @Override
  public void reportedMetric(String run, Double level, String metric, String stat, double value, String unit) {
    c.reportedMetric(run, level, metric, stat, value, unit);
  }

  @Override
  public void clockAnchor(int clockA, long nsA, int clockB, long nsB, String method) {
    c.clockAnchor(clockA, nsA, clockB, nsB, method);
  }

  @Override
  public void record() {
    c.record();
  }

  @Override
  public void otherLine() {
    c.otherLine();
  }

  @Override
  public void reject(long lineNo, String reason, byte[] line, int off, int len) {
    c.reject(lineNo, reason, line, off, len);
  }

  private static RequestRecord copy(RequestRecord r) {
    RequestRecord k = new RequestRecord();
    k.lineNo = r.lineNo;
    k.run = r.run;
    k.requestId = r.requestId;
    k.engine = r.engine;
    k.instance = r.instance;
    k.clockId = r.clockId;
    k.arrivalNs = r.arrivalNs;
    k.queuedNs = r.queuedNs;
    k.scheduledNs = r.scheduledNs;
    k.firstTokenNs = r.firstTokenNs;
    k.lastTokenNs = r.lastTokenNs;
    k.finishedNs = r.finishedNs;
    k.preQueueMs = r.preQueueMs;
    k.queueMs = r.queueMs;
    k.prefillMs = r.prefillMs;
    k.ttftMs = r.ttftMs;
    k.decodeMs = r.decodeMs;
    k.e2eMs = r.e2eMs;
    k.tpotMs = r.tpotMs;
    k.promptTokens = r.promptTokens;
    k.outputTokens = r.outputTokens;
    k.cachedTokens = r.cachedTokens;
    k.status = r.status;
    k.finishReason = r.finishReason;
    k.httpStatus = r.httpStatus;
    k.error = r.error;
    k.phase = r.phase;
    k.firstIter = r.firstIter;
    k.lastIter = r.lastIter;
    k.extras.putAll(r.extras);
    return k;
  }
}
