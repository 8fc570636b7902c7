package dev.tokentime.formats.vllm;

import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.StepRecord;
import dev.tokentime.testing.CollectingSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A CollectingSink that also keeps whole copies of request, stats and step records. */
final class FullSink implements RecordSink {
  final CollectingSink c = new CollectingSink();
  final List<RequestRecord> requests = new ArrayList<>();
  final List<EngineStatsRecord> stats = new ArrayList<>();
  final List<StepRecord> steps = new ArrayList<>();
  final List<String[]> events = new ArrayList<>();

  RequestRecord request(String id) {
    return requests.stream().filter(r -> r.requestId.equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no request " + id));
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
      RequestRecord copy = new RequestRecord();
      copy.lineNo = r.lineNo;
      copy.run = r.run;
      copy.requestId = r.requestId;
      copy.engine = r.engine;
      copy.instance = r.instance;
      copy.clockId = r.clockId;
      copy.arrivalNs = r.arrivalNs;
      copy.queuedNs = r.queuedNs;
      copy.scheduledNs = r.scheduledNs;
      copy.firstTokenNs = r.firstTokenNs;
      copy.lastTokenNs = r.lastTokenNs;
      copy.finishedNs = r.finishedNs;
      copy.preQueueMs = r.preQueueMs;
      copy.queueMs = r.queueMs;
      copy.prefillMs = r.prefillMs;
      copy.ttftMs = r.ttftMs;
      copy.decodeMs = r.decodeMs;
      copy.e2eMs = r.e2eMs;
      copy.tpotMs = r.tpotMs;
      copy.promptTokens = r.promptTokens;
      copy.outputTokens = r.outputTokens;
      copy.cachedTokens = r.cachedTokens;
      copy.status = r.status;
      copy.finishReason = r.finishReason;
      copy.httpStatus = r.httpStatus;
      copy.error = r.error;
      copy.extras.putAll(r.extras);
      requests.add(copy);
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
  }

  @Override
  public void step(StepRecord s) {
    c.step(s);
    StepRecord copy = new StepRecord();
    copy.lineNo = s.lineNo;
    copy.instance = s.instance;
    copy.epoch = s.epoch;
    copy.iter = s.iter;
    copy.tsNs = s.tsNs;
    copy.clockId = s.clockId;
    copy.durationMs = s.durationMs;
    copy.ctxRequests = s.ctxRequests;
    copy.ctxTokens = s.ctxTokens;
    copy.genRequests = s.genRequests;
    copy.genTokens = s.genTokens;
    copy.extras.putAll(s.extras);
    steps.add(copy);
  }

  @Override
  public void engineStats(EngineStatsRecord s) {
    c.engineStats(s);
    EngineStatsRecord copy = new EngineStatsRecord();
    copy.lineNo = s.lineNo;
    copy.instance = s.instance;
    copy.tsNs = s.tsNs;
    copy.clockId = s.clockId;
    copy.promptTokensPerS = s.promptTokensPerS;
    copy.genTokensPerS = s.genTokensPerS;
    copy.running = s.running;
    copy.waiting = s.waiting;
    copy.swapped = s.swapped;
    copy.preemptions = s.preemptions;
    copy.kvUsage = s.kvUsage;
    copy.prefixHitRate = s.prefixHitRate;
    copy.extras.putAll(s.extras);
    stats.add(copy);
  }

  @Override
  public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind, String detail) {
    c.engineEvent(lineNo, instance, tsNs, clockId, kind, detail);
    events.add(new String[] {Long.toString(lineNo), kind, detail, instance});
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
}
