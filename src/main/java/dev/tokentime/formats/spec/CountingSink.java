package dev.tokentime.formats.spec;

import dev.tokentime.ingest.ForwardingSink;
import dev.tokentime.ingest.RecordSink;

/**
 * The sink of a spec-driven parse with {@code --explain}: passes everything on and counts records,
 * other lines and rejects as the sink receives them, so the explain header and an ingest count
 * every line through the same calls (the parser's and the format's Java alike).
 */
final class CountingSink extends ForwardingSink {
  private final ExplainStats stats;

  CountingSink(RecordSink out, ExplainStats stats) {
    super(out);
    this.stats = stats;
  }

  @Override
  public void record() {
    stats.records++;
    out.record();
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
}
