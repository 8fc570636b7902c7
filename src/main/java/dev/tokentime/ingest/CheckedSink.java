package dev.tokentime.ingest;

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
public final class CheckedSink extends ForwardingSink {

  public CheckedSink(RecordSink out) {
    super(out);
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
  public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {
    String p = Checked.tokenProblem(seq, tsNs, nTokens);
    if (p != null) {
      throw new Checked.OutOfRange(p);
    }
    out.token(requestKey, seq, tsNs, nTokens, kind);
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
}
