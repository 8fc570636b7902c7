package dev.tokentime.formats.spec;

import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.StepRecord;
import java.util.Map;

/**
 * The sink of a spec-driven parse with {@code --explain}: passes everything on and counts records,
 * other lines and rejects as the sink receives them, so the explain header and an ingest count
 * every line through the same calls (the parser's and the format's Java alike).
 */
final class CountingSink implements RecordSink {
  private final RecordSink out;
  private final ExplainStats stats;

  CountingSink(RecordSink out, ExplainStats stats) {
    this.out = out;
    this.stats = stats;
  }

  @Override
  public void record() {
    stats.records++;
    out.record();
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
  public void otherLine() {
    stats.other++;
    out.otherLine();
  }

  @Override
  public void reject(long lineNo, String reason, byte[] line, int off, int len) {
    stats.rejected(lineNo, reason);
    out.reject(lineNo, reason, line, off, len);
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
}
