package dev.tokentime.app;

import dev.tokentime.BadInputException;
import dev.tokentime.formats.spec.ExplainStats;
import dev.tokentime.formats.spec.SpecFormat;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.StepRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code ingest --explain}: reads files with their spec-driven format without storing anything,
 * and reports per line kind how many lines matched, which came close and the first lines no kind
 * claimed, so a user with a new engine version sees what changed.
 */
public final class ExplainService {

  /**
   * What one file gave; {@code stats} null for a file found in a folder that no format claims,
   * {@code note} then why it is not read (as the ingest skips it).
   */
  public record Result(String path, String format, long records, ExplainStats stats, String note) {
    public Result(String path, String format, long records, ExplainStats stats) {
      this(path, format, records, stats, null);
    }
  }

  private final FormatRegistry formats;

  public ExplainService(FormatRegistry formats) {
    this.formats = formats;
  }

  public List<Result> explain(IngestOptions o) {
    List<Result> out = new ArrayList<>();
    for (InputResolver.Input in : InputResolver.resolve(o.inputs())) {
      if (in.stdin()) {
        throw new BadInputException("--explain reads files, not stdin");
      }
      if (in.problem() != null) {
        continue; // a folder it cannot open: the ingest names it as skipped
      }
      try {
        Result r = explain(in, o);
        if (r != null) {
          out.add(r);
        }
      } catch (IOException e) {
        throw new BadInputException("cannot read " + in.display() + ": " + e.getMessage(), e);
      }
    }
    if (out.isEmpty()) {
      throw new BadInputException("no file in a spec-driven format to explain (formats with parsers/*.spec: "
          + String.join(", ", specFormats()) + ")");
    }
    return out;
  }

  private Result explain(InputResolver.Input in, IngestOptions o) throws IOException {
    InputFormat format;
    String unknown = null;
    try (OpenedInput probe = OpenedInput.open(in.path())) {
      format = o.from() != null ? formats.byId(o.from()) : probe.sniffed(formats);
      if (format == null && o.from() == null) {
        unknown = unrecognised(probe.sample());
      }
    }
    if (o.from() != null && format == null) {
      throw new BadInputException("unknown format " + o.from() + " (tokentime formats lists them)");
    }
    if (!(format instanceof SpecFormat spec)) {
      if (in.explicit()) {
        throw new BadInputException(in.display() + ": " + (format == null ? unknown
            : format.id() + " is not spec-driven") + "; --explain works for "
            + String.join(", ", specFormats()) + " (name one with --from)");
      }
      // a file the ingest of its folder skips: said here too, with why, instead of passed over
      return unknown == null ? null : new Result(in.display(), null, 0, null, unknown);
    }
    String run = o.run() != null ? o.run() : IngestService.defaultRun(in, in.path());
    ParseContext ctx = new ParseContext(in.display(), run, false, o.zone(), o.year(),
        Files.getLastModifiedTime(in.path()).toInstant(), o.at());
    CountingSink sink = new CountingSink();
    try (OpenedInput input = OpenedInput.open(in.path())) {
      // the ingest's reading: a tool's block among the log's lines is read as the ingest reads it
      ExplainStats stats = spec.explain(input.content(), ctx.withEmbedded(input.embeddedIn(format, formats)),
          new dev.tokentime.ingest.CheckedSink(sink));
      if (input.damage() != null) {
        stats.endsDamaged(input.damage()); // as the ingest counts it (IngestService)
      }
      return new Result(in.display(), spec.id(), stats.records, stats);
    }
  }

  /**
   * Why no format claims a file: what it looks like (UnknownContent), else its first line, which
   * no format's sniffing recognises.
   */
  static String unrecognised(dev.tokentime.ingest.Sample sample) {
    String looks = UnknownContent.describe(sample);
    if (looks != null) {
      return "format not recognised: " + looks;
    }
    List<String> first = sample.firstLines(1);
    if (first.isEmpty()) {
      return "format not recognised: it holds only blank lines";
    }
    String line = first.get(0).replaceAll("\\p{Cntrl}", "?");
    return "format not recognised: no format knows its first lines (the first: \""
        + (line.length() > 80 ? line.substring(0, 80) + "…" : line) + "\"); tokentime formats lists the formats read";
  }

  private List<String> specFormats() {
    return formats.all().stream().filter(f -> f instanceof SpecFormat).map(InputFormat::id).toList();
  }

  /** Stores nothing; counts records (the parser's stats count the rest). */
  static final class CountingSink implements RecordSink {
    long records;
    private int clocks;

    @Override
    public int clock(ClockSpec spec) {
      return ++clocks;
    }

    @Override
    public String runLevel(String run, String levelKind, Double level, Integer repeat, String how) {
      return null;
    }

    @Override
    public long request(RequestRecord r, byte[] line, int off, int len) {
      return 1;
    }

    @Override
    public long requestKeyFor(String run, String requestId, int clockId, long lineNo) {
      return 1;
    }

    @Override
    public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {}

    @Override
    public void step(StepRecord s) {}

    @Override
    public void engineStats(EngineStatsRecord s) {}

    @Override
    public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind, String detail) {}

    @Override
    public void histogramBucket(String metric, Map<String, String> labels, long t0Ns, long t1Ns,
        int clockId, double le, double count) {}

    @Override
    public void reportedMetric(String run, Double level, String metric, String stat, double value, String unit) {}

    @Override
    public void clockAnchor(int clockA, long nsA, int clockB, long nsB, String method) {}

    @Override
    public void record() {
      records++;
    }

    @Override
    public void otherLine() {}

    @Override
    public void reject(long lineNo, String reason, byte[] line, int off, int len) {}
  }
}
