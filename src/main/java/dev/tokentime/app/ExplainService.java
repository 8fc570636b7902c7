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
   * What one file gave; {@code stats} null for a file found in a folder that no format claims, or
   * one the ingest leaves out or rejects whole ({@code format} then names its format), {@code note}
   * then why it is not read (as the ingest says it).
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
    List<InputResolver.Input> inputs = InputResolver.resolve(o.inputs());
    // the files beside each, as the ingest of the same arguments sees them (InputFormat.leaveOut)
    Map<Path, java.util.Set<String>> neighbours = IngestService.neighbours(inputs);
    for (InputResolver.Input in : inputs) {
      if (in.stdin()) {
        throw new BadInputException("--explain reads files, not stdin");
      }
      if (in.problem() != null) {
        continue; // a folder it cannot open: the ingest names it as skipped
      }
      try {
        Result r = explain(in, o, neighbours);
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

  private Result explain(InputResolver.Input in, IngestOptions o, Map<Path, java.util.Set<String>> neighbours)
      throws IOException {
    InputFormat format;
    String unknown = null;
    try (OpenedInput probe = OpenedInput.open(in.path())) {
      format = o.from() != null ? formats.byId(o.from()) : probe.sniffed(formats);
      if (format != null && !in.explicit() && Documents.isDocument(in.path())) {
        format = Documents.formatOf(format, o.from() != null, probe, formats);
        if (format == null) {
          // as the ingest of the folder leaves it out
          return new Result(in.display(), null, 0, null, IngestResult.Skipped.LEFT_OUT + Documents.WHY);
        }
      }
      if (format == null && o.from() == null) {
        unknown = unrecognised(probe.sample());
      }
    }
    if (o.from() != null && format == null) {
      throw new BadInputException("unknown format " + o.from() + " (tokentime formats lists them)");
    }
    if (!(format instanceof SpecFormat spec)) {
      // a file the ingest leaves out on purpose (a tool's side export): what it is and what to read
      // instead, in the ingest's words; "not spec-driven" told neither
      String leftOut = format == null ? null : IngestService.leaveOut(format, in.path(), neighbours);
      if (leftOut != null) {
        return new Result(in.display(), format.id(), 0, null, IngestResult.Skipped.LEFT_OUT + leftOut);
      }
      String rejected = format == null || !in.explicit() ? null
          : wholeFileRejected(IngestService.inFolder(format, in.path(), neighbours), in, o);
      if (rejected != null) {
        return new Result(in.display(), format.id(), 0, null, rejected);
      }
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
   * Why the ingest of a file alone stores no record of it, when it rejects the whole file as what
   * it is (AIPerf's steady-state export ingested alone, genai-bench's experiment_metadata.json):
   * the first rejected line's reason; null when the file gives a record. Reads until the first
   * record, storing nothing.
   */
  private static String wholeFileRejected(InputFormat format, InputResolver.Input in, IngestOptions o)
      throws IOException {
    String run = o.run() != null ? o.run() : IngestService.defaultRun(in, in.path());
    ParseContext ctx = new ParseContext(in.display(), run, false, o.zone(), o.year(),
        Files.getLastModifiedTime(in.path()).toInstant(), o.at());
    CountingSink sink = new CountingSink();
    sink.stopAtFirstRecord = true;
    try (OpenedInput input = OpenedInput.open(in.path())) {
      format.parse(input.content(), ctx, new dev.tokentime.ingest.CheckedSink(sink));
    } catch (CountingSink.FirstRecord e) {
      return null;
    } catch (RuntimeException e) {
      return null; // the parser's own failure is the ingest's to report, with its line
    }
    if (sink.records > 0 || sink.firstReject == null) {
      return null;
    }
    return "no record: the ingest rejects line " + sink.firstRejectLine + ": " + sink.firstReject
        + (sink.rejects > 1 ? " (and " + (sink.rejects - 1) + " more lines)" : "");
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
    /** Stop the parse at the first record (wholeFileRejected asks only whether there is one). */
    boolean stopAtFirstRecord;
    long rejects;
    String firstReject;
    long firstRejectLine;

    /** Thrown out of the parser at its first record, when a caller wants to know no more. */
    static final class FirstRecord extends RuntimeException {
      FirstRecord() {
        super(null, null, false, false);
      }
    }

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
      if (stopAtFirstRecord) {
        throw new FirstRecord();
      }
    }

    @Override
    public void otherLine() {}

    @Override
    public void reject(long lineNo, String reason, byte[] line, int off, int len) {
      if (rejects++ == 0) {
        firstReject = reason;
        firstRejectLine = lineNo;
      }
    }
  }
}
