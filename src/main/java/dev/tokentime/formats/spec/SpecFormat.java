package dev.tokentime.formats.spec;

import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An input format driven by a spec in {@code parsers/}: id, description, sniff rule and line
 * kinds come from the spec; a subclass supplies the {@link SpecParser.Handler} for the kinds that
 * need Java (request lifecycles), or none.
 */
public abstract class SpecFormat implements InputFormat {
  /** How many of a file's first lines the sniff rules look at. */
  static final int SNIFF_LINES = 40;
  private static final Pattern ANSI = Pattern.compile("\\x1b\\[[0-9;]*[A-Za-z]");

  private final LineSpec spec;

  protected SpecFormat(LineSpec spec) {
    this.spec = spec;
  }

  public LineSpec spec() {
    return spec;
  }

  @Override
  public String id() {
    return spec.format();
  }

  @Override
  public String description() {
    return spec.description();
  }

  @Override
  public String fills() {
    return spec.fills();
  }

  /** The highest score of a sniff rule found in one of the first lines. */
  @Override
  public int sniff(Sample sample) {
    List<String> lines = sample.firstLines(SNIFF_LINES);
    if (lines.isEmpty() || lines.get(0).startsWith("{") || lines.get(0).startsWith("[")) {
      return 0; // JSON is never a text log
    }
    int best = 0;
    for (String raw : lines) {
      String line = ANSI.matcher(raw).replaceAll("");
      for (LineSpec.Sniff s : spec.sniffs()) {
        if (s.score() > best) {
          Matcher m = s.pattern().matcher(line);
          if (m.find()) {
            best = s.score();
          }
        }
      }
    }
    return best;
  }

  /** The handler of one parse (it may hold per-file state). */
  protected abstract SpecParser.Handler handler(SpecParser parser, ParseContext ctx, RecordSink sink);

  /** Scope of the clocks of this file's times. */
  protected String clockScope(ParseContext ctx) {
    return id() + " " + ctx.sourceName();
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    return run(in, ctx, sink, null);
  }

  /** Parses like {@link #parse} and says, per line kind, what matched and what came close. */
  public ExplainStats explain(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    ExplainStats stats = new ExplainStats(spec);
    run(in, ctx, sink, stats);
    return stats;
  }

  private long run(InputStream in, ParseContext ctx, RecordSink sink, ExplainStats stats)
      throws IOException {
    return run(in, ctx, sink, stats, p -> { });
  }

  /** As {@link #parse}, with the parser adjusted first (tests: sequential or small batches). */
  long run(InputStream in, ParseContext ctx, RecordSink sink, ExplainStats stats,
      java.util.function.Consumer<SpecParser> adjust) throws IOException {
    Handler h = new Handler();
    SpecParser p = new SpecParser(spec, ctx, sink, h, stats, clockScope(ctx));
    h.delegate = handler(p, ctx, sink);
    adjust.accept(p);
    return p.parse(in);
  }

  /** Lets the subclass's handler be built with the parser it belongs to. */
  private static final class Handler implements SpecParser.Handler {
    SpecParser.Handler delegate;

    @Override
    public SpecParser.Outcome line(MatchedLine m, long tsNs, int clockId, byte[] raw, int off, int len)
        throws SpecParser.BadLine {
      return delegate.line(m, tsNs, clockId, raw, off, len);
    }

    @Override
    public void event(MatchedLine m, String kind, long tsNs, int clockId) {
      delegate.event(m, kind, tsNs, clockId);
    }

    @Override
    public void end() {
      delegate.end();
    }
  }
}
