package dev.tokentime.ingest;

import java.util.Map;

/**
 * A sink that passes every call on to another: the base of a sink that checks, counts or keeps
 * something of what goes through and overrides only those calls. Every method of
 * {@link RecordSink} is forwarded here, the optional ones too, so a sink built on this never
 * swallows a call it does not know of.
 */
public abstract class ForwardingSink implements RecordSink {
  protected final RecordSink out;

  protected ForwardingSink(RecordSink out) {
    this.out = out;
  }

  @Override
  public int clock(ClockSpec spec) {
    return out.clock(spec);
  }

  @Override
  public String runLevel(String run, String levelKind, Double level, Integer repeat, String how) {
    return out.runLevel(run, levelKind, level, repeat, how);
  }

  @Override
  public long request(RequestRecord r, byte[] line, int off, int len) {
    return out.request(r, line, off, len);
  }

  @Override
  public long requestKeyFor(String run, String requestId, int clockId, long lineNo) {
    return out.requestKeyFor(run, requestId, clockId, lineNo);
  }

  @Override
  public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {
    out.token(requestKey, seq, tsNs, nTokens, kind);
  }

  @Override
  public void endOfStream(long requestKey) {
    out.endOfStream(requestKey);
  }

  @Override
  public void step(StepRecord s) {
    out.step(s);
  }

  @Override
  public void engineStats(EngineStatsRecord s) {
    out.engineStats(s);
  }

  @Override
  public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind, String detail) {
    out.engineEvent(lineNo, instance, tsNs, clockId, kind, detail);
  }

  @Override
  public void histogramBucket(String metric, Map<String, String> labels, long t0Ns, long t1Ns, int clockId,
      double le, double count) {
    out.histogramBucket(metric, labels, t0Ns, t1Ns, clockId, le, count);
  }

  @Override
  public void reportedMetric(String run, Double level, String metric, String stat, double value, String unit) {
    out.reportedMetric(run, level, metric, stat, value, unit);
  }

  @Override
  public void clockAnchor(int clockA, long nsA, int clockB, long nsB, String method) {
    out.clockAnchor(clockA, nsA, clockB, nsB, method);
  }

  @Override
  public void record() {
    out.record();
  }

  @Override
  public void otherLine() {
    out.otherLine();
  }

  @Override
  public void nearMiss(long lineNo, String kind) {
    out.nearMiss(lineNo, kind);
  }

  @Override
  public void embedded(String format, long records, long rejected) {
    out.embedded(format, records, rejected);
  }

  @Override
  public void reject(long lineNo, String reason, byte[] line, int off, int len) {
    out.reject(lineNo, reason, line, off, len);
  }
}
