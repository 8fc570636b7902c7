package dev.tokentime.formats.spec;

import dev.tokentime.ingest.NamedFormat;
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
 * kinds come from the spec. A spec alone is a format ({@link #of}, registered for every spec in
 * {@code parsers/} by {@link SpecFormats}): its {@code requests} kinds name lifecycle events that
 * {@link SpecRequests} follows. A subclass may supply its own {@link SpecParser.Handler} for
 * lifecycles that need real logic (vLLM's access-line adjacency, restarts).
 */
public class SpecFormat extends NamedFormat {
  /**
   * How many of a file's first lines the sniff rules look at; the rest of the sample (64 KiB) only
   * when no format was sure of them ({@link #sniffFurther}): a container's own start-up (pip
   * installs, a patch script, a banner) may print many lines before the server's first.
   */
  static final int SNIFF_LINES = 40;
  /** A terminal's control sequence (CSI: colours, erases, cursor modes), which shows nothing. */
  static final Pattern ANSI = Pattern.compile("\\x1b\\[[?0-9;]*[A-Za-z]");
  /** A JSON number (Airflow's "[2025-05-12, 07:54:39 UTC] " is no array of numbers). */
  private static final String NUMBER = "-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?";
  /**
   * How JSON starts: an object, or an array of objects, arrays, strings or numbers. A bracketed
   * log header is not JSON: "[2025-07-29T16:48:56Z] ", "[vllm-rbln] ", SGLang's
   * "[2026-04-08 14:05:21 TP0] ", TensorRT-LLM's "[10/02/2025-11:00:00] ", nor colour codes whose
   * ESC a paste turned into "[" ("[[36m(VLLMActor pid=50643) "): an array in an array starts
   * with a value too. Nor is a number in brackets with text after it: journalctl -o
   * short-monotonic's seconds since boot, "[ 1234.567890] gpu-1 vllm[2107]: ".
   */
  private static final Pattern JSON_START = Pattern.compile(
      "\\{|\\[\\s*(?:[{\"\\]]|" + NUMBER + "\\s*(?:,|\\](?!\\s*[\\w(\\[<]))|\\[\\s*(?:[\\[{\"\\]]|" + NUMBER
      + "\\s*[,\\]]))");
  /** This format's matcher for sniffing, one per thread: building one costs more than a sample's lines. */
  private final ThreadLocal<LineMatcher> sniffMatcher = ThreadLocal.withInitial(() -> new LineMatcher(spec()));

  private final LineSpec spec;

  protected SpecFormat(LineSpec spec) {
    super(spec.format(), spec.fills(), spec.description());
    this.spec = spec;
  }

  /** A format that is its spec alone: request kinds name events of {@link SpecRequests#EVENTS}. */
  public static SpecFormat of(LineSpec spec) {
    for (LineSpec.Kind k : spec.kinds()) {
      if (k.table().equals("requests") && !SpecRequests.EVENTS.contains(k.event())) {
        throw new IllegalArgumentException(spec.format() + ": kind " + k.name() + " names request event "
            + k.event() + "; a spec without Java names one of " + SpecRequests.EVENTS);
      }
    }
    return new SpecFormat(spec);
  }

  public LineSpec spec() {
    return spec;
  }

  /** A line log's head may be start-up lines alone: a console block in its tail may be the file's. */
  @Override
  public boolean yieldsToATail() {
    return true;
  }

  /** The highest score of a sniff rule found in one of the first lines ({@link #SNIFF_LINES}). */
  @Override
  public int sniff(Sample sample) {
    return score(sample.firstLines(SNIFF_LINES));
  }

  /**
   * The highest score of a sniff rule found in any line of the sample (asked only when no format
   * was sure of the first lines); never for a program's source, whose strings may quote log lines.
   */
  @Override
  public int sniffFurther(Sample sample) {
    return SOURCE_CODE.matcher(sample.fileName()).find() ? 0 : score(sample.firstLines(Integer.MAX_VALUE));
  }

  private static final Pattern SOURCE_CODE =
      Pattern.compile("\\.(?:py|pyi|ipynb|sh|bash|zsh|ps1|js|mjs|ts|java|kt|scala|go|rs|c|cc|cpp|h|hpp|rb|pl|lua|r|sql|toml|ya?ml)$",
          Pattern.CASE_INSENSITIVE);

  private int score(List<String> lines) {
    if (lines.isEmpty()) {
      return 0;
    }
    String first = lines.get(0);
    boolean json = JSON_START.matcher(first).lookingAt();
    LineMatcher unwrap = json && !spec.envelopes().isEmpty() ? new LineMatcher(spec) : null;
    if (json && unwrap == null) {
      return 0; // JSON is a text log only inside an envelope (docker json-file, journalctl -o json)
    }
    MatchedLine matched = new MatchedLine();
    int best = 0;
    // a file may hold another program's JSON lines and then a log's text (an endpoint picker's
    // before the engine's, as `kubectl logs --all-containers` concatenates them): when the first
    // line is a whole JSON object, a later line that is no JSON is read as text; a file of JSON
    // lines only, and a document whose object spans lines, stay JSON data
    boolean jsonLines = json && first.strip().endsWith("}");
    boolean foreignJson = false;
    boolean text = false;
    for (String raw : lines) {
      String line;
      if (unwrap != null && jsonLines && !JSON_START.matcher(raw).lookingAt()) {
        text |= !raw.isBlank();
        line = ANSI.matcher(raw).replaceAll("");
      } else if (unwrap != null) {
        unwrap.match(0, raw, matched);
        if (matched.prefixes.isEmpty() || !spec.envelopes().stream()
            .anyMatch(e -> e.name().equals(matched.prefixes.get(0)))) {
          if (raw == lines.get(lines.size() - 1)) {
            continue; // the sample may end inside a line
          }
          // a JSON line no envelope holds is JSON data, not a log, unless a rule of this format
          // matches it from its first character (SGLang's --log-requests-format json events)
          boolean own = false;
          for (LineSpec.Sniff s : spec.sniffs()) {
            if (s.score() > best && s.pattern().matcher(raw).lookingAt()) {
              best = s.score();
              own = true;
            }
          }
          if (!own && best == 0) {
            if (!jsonLines) {
              return 0;
            }
            foreignJson = true;
          }
          continue;
        }
        line = matched.text;
      } else {
        line = ANSI.matcher(raw).replaceAll("");
      }
      // the rules are searched in the line and in what is left of it after the wrappers (known
      // or not, resync): a rule anchored at a message's start holds behind any wrapper
      // (and in the line without the wrapper layer's prefixes alone: a rule that names the
      // format's own header, Triton's glog "I0924 12:01:25.140624 1 model_lifecycle.cc:339] ",
      // which the format's prefixes peel off the message, holds behind "triton-server  | " or a
      // container's time too)
      String peeled = null;
      String unwrapped = null;
      for (LineSpec.Sniff s : spec.sniffs()) {
        if (s.score() > best) {
          if (s.pattern().matcher(line).find()) {
            best = s.score();
            continue;
          }
          if (peeled == null) {
            LineMatcher lm = sniffMatcher.get();
            lm.match(0, raw, matched);
            peeled = matched.message();
          }
          if (peeled != line && !peeled.equals(line) && s.pattern().matcher(peeled).find()) {
            best = s.score();
            continue;
          }
          if (unwrapped == null) {
            unwrapped = WrapperLayer.peelForSniffing(raw);
          }
          if (!unwrapped.equals(line) && !unwrapped.equals(peeled) && s.pattern().matcher(unwrapped).find()) {
            best = s.score();
          }
        }
      }
    }
    return foreignJson && !text ? 0 : best;
  }

  /**
   * The handler of one parse (it may hold per-file state): by default the spec's own request
   * events ({@link SpecRequests}); a subclass overrides it for lifecycles that need Java.
   */
  protected SpecParser.Handler handler(SpecParser parser, ParseContext ctx, RecordSink sink) {
    return new SpecRequests(ctx, sink, id(), clockScope(ctx), parser.times(), endsRequests());
  }

  /**
   * Whether a line of this format ends a request that went well (a finished kind): without one
   * (trtllm-log's Received and Response started, its aborts aside) no request ends in the log.
   */
  private boolean endsRequests() {
    return spec.kinds().stream().anyMatch(k -> k.table().equals("requests") && k.event().equals("finished"));
  }

  /** Scope of the clocks of this file's times (the spec's {@code scope}, else format and file). */
  protected String clockScope(ParseContext ctx) {
    return spec.clockScope(ctx.defaultRun(), ctx.sourceName());
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

  /** An input the format's Java reads without the spec (a JSON file of a format that also has lines). */
  protected interface OwnReader {
    /** Reads everything into the sink; returns the lines (or records) read. */
    long read(RecordSink sink) throws IOException;
  }

  /**
   * {@link #explain} of an input the format's Java reads itself: records, other lines and rejects
   * counted as the sink receives them, as for the spec's lines.
   */
  protected final ExplainStats explainOwn(RecordSink sink, OwnReader reader) throws IOException {
    ExplainStats stats = new ExplainStats(spec);
    stats.lines = reader.read(new CountingSink(sink, stats));
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
    // with --explain every record, other line and reject is counted where the sink receives it
    RecordSink counted = stats == null ? sink : new CountingSink(sink, stats);
    SpecParser p = new SpecParser(spec, ctx, counted, h, stats, clockScope(ctx));
    h.delegate = handler(p, ctx, counted);
    // the embedded format's lines are counted apart as well, for the file's report to say whose
    ExplainStats embedded = ctx.embedded() != null && ctx.embedded() != this ? new ExplainStats(spec) : null;
    if (embedded != null) {
      p.embed(ctx.embedded().embeddedReader(ctx, new CountingSink(counted, embedded)));
    }
    adjust.accept(p);
    // a dated line near the top dates the month-day lines before it (a file's copy has a new
    // modification date; the lines keep theirs)
    java.io.BufferedInputStream b = new java.io.BufferedInputStream(in, HEAD);
    b.mark(HEAD);
    byte[] head = b.readNBytes(HEAD);
    b.reset();
    p.headDate(LogTimes.firstLineDate(head));
    long lines = p.parse(b);
    if (embedded != null && embedded.records + embedded.other + embedded.rejected > 0) {
      sink.embedded(ctx.embedded().id(), embedded.records, embedded.rejected);
      if (stats != null) {
        stats.embeddedFormat = ctx.embedded().id();
        stats.embeddedRecords = embedded.records;
        stats.embeddedRejected = embedded.rejected;
      }
    }
    return lines;
  }

  /** How much of a file's start is searched for a dated line. */
  private static final int HEAD = 1 << 16;

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

    @Override
    public boolean continuation(MatchedLine m, byte[] raw, int off, int len) {
      return delegate.continuation(m, raw, off, len);
    }
  }
}
