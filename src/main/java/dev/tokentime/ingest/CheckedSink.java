package dev.tokentime.ingest;

import java.util.Map;

/**
 * The range checks of {@link Checked} in front of any sink, so that ingest and {@code --explain}
 * count a value out of range the same way and nothing out of range is stored, whatever the format.
 *
 * <p>A request out of range is rejected here (the parser sees {@code -1}, as for a duplicate id).
 * A step, a stats snapshot or a token chunk out of range throws {@link Checked.OutOfRange} (a
 * NumberFormatException) before anything of it is passed on: parsers take it as a bad number of
 * the line (a reject naming the field). Formats whose records carry many chunks check them with
 * {@link Checked#tokensProblem} before the request, so the line is rejected whole; a chunk that
 * still reaches this check ends the file (refused, nothing stored) rather than storing a wrapped
 * time.
 */
public final class CheckedSink implements RecordSink {
  private final RecordSink out;

  public CheckedSink(RecordSink out) {
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
    String p = Checked.requestProblem(r);
    if (p != null) {
      out.reject(r.lineNo, p, line, off, len);
      return -1;
    }
    return out.request(r, line, off, len);
  }

  @Override
  public long requestKeyFor(String run, String requestId, int clockId, long lineNo) {
    return out.requestKeyFor(run, requestId, clockId, lineNo);
  }

  @Override
  public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {
    String p = Checked.tokenProblem(seq, tsNs, nTokens);
    if (p != null) {
      throw new Checked.OutOfRange(p);
    }
    out.token(requestKey, seq, tsNs, nTokens, kind);
  }

  @Override
  public void endOfStream(long requestKey) {
    out.endOfStream(requestKey);
  }

  @Override
  public void step(StepRecord s) {
    String p = Checked.stepProblem(s);
    if (p != null) {
      throw new Checked.OutOfRange(p);
    }
    out.step(s);
  }

  @Override
  public void engineStats(EngineStatsRecord s) {
    String p = Checked.engineStatsProblem(s);
    if (p != null) {
      throw new Checked.OutOfRange(p);
    }
    out.engineStats(s);
  }

  @Override
  public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind, String detail) {
    if (tsNs != RequestRecord.NONE) {
      Checked.timestamp("engine_events ts_ns", tsNs);
    }
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
  public void embedded(String format, long records, long rejected) {
    out.embedded(format, records, rejected);
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
  public void reject(long lineNo, String reason, byte[] line, int off, int len) {
    out.reject(lineNo, reason, line, off, len);
  }
}
