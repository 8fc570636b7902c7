package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.formats.spec.ExplainStats;
import dev.tokentime.formats.spec.IterationLanes;
import dev.tokentime.formats.spec.LineMatcher;
import dev.tokentime.formats.spec.MatchedLine;
import dev.tokentime.formats.spec.SpecFormat;
import dev.tokentime.formats.spec.SpecParser;
import dev.tokentime.formats.spec.SpecReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.StepRecord;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * TensorRT-LLM's per-iteration statistics as steps: the executor's {@code IterationStats} JSON
 * ({@code /metrics} arrays, one poll or many; JSON lines), the same logged after
 * {@code [TensorRT-LLM][INFO]} by gptManagerBenchmark, trtllm-bench's {@code --iteration_log} (one
 * Python dict per line), the legacy key set of Triton verbose logs (plain, glog-prefixed, or as a
 * quoted and escaped string), and the PyTorch executor's {@code print_iter_log} lines.
 *
 * <p>A log is read by {@code parsers/trtllm-iter-stats.spec}: its prefixes, and print_iter_log
 * lines as items (no Java). This class reads what is JSON: a JSON file (its first character is a
 * bracket or brace and a double quote follows) counts records (objects); a stats object on a log
 * line, the spec's {@code stats_object} kind, is handed here, and one wrapped over several lines
 * counts once, its continuation lines being other lines. It also sniffs: stats lines follow a
 * long start-up log, so it looks further than a spec's sniff rules do.
 */
public final class IterStatsFormat extends SpecFormat {

  public IterStatsFormat() {
    super(SpecReader.load("trtllm-iter-stats.spec"));
  }

  /**
   * A server's log whose first 64 KiB are start-up lines alone (trtllm-serve's model load, CUDA
   * graph capture and autotuning; Triton's model load) is still this format's when its last
   * 64 KiB hold iteration stats: it reads every line trtllm-log reads too, so the head's lines keep
   * their meaning, and the iteration lines are steps instead of other lines.
   */
  @Override
  public boolean readsFromAnywhere() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    List<String> lines = sample.firstLines(10_000); // the whole 64 KiB: stats lines follow the start-up log
    LineMatcher matcher = new LineMatcher(spec());
    MatchedLine m = new MatchedLine();
    int hits = 0;
    for (String l : lines) {
      matcher.match(0, l, m);
      String p = m.message().stripLeading();
      if (p.startsWith("{") || p.startsWith("[{") || p.startsWith("\"{")) {
        boolean executor = p.contains("\"iterLatencyMS\"") || p.contains("'iterLatencyMS'")
            || (p.contains("\"iter\"") || p.contains("'iter'")) && (p.contains("inflightBatchingStats")
            || p.contains("kvCacheStats") || p.contains("numActiveRequests"));
        boolean legacy = p.contains("\"Active Request Count") || p.contains("\"Iteration Counter");
        if (executor || legacy) {
          return 95;
        }
      } else if (m.kind != null && m.kind.table().equals("steps")
          && (p.contains("states =") || p.contains("global_rank"))) {
        hits++; // print_iter_log
      }
    }
    if (hits > 0) {
      // above trtllm-log's request lines (95): this spec reads every kind of that one too
      return 96;
    }
    String text = sample.text().stripLeading();
    if ((text.startsWith("[") || text.startsWith("{")) && text.contains("\"iterLatencyMS\"")) {
      return 95; // a pretty-printed /metrics array
    }
    return 0;
  }

  @Override
  public long parse(InputStream raw, ParseContext ctx, RecordSink sink) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
    return isJsonFile(in) ? jsonFile(in, ctx, sink) : super.parse(in, ctx, sink);
  }

  @Override
  public ExplainStats explain(InputStream raw, ParseContext ctx, RecordSink sink) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
    return isJsonFile(in) ? explainOwn(sink, s -> jsonFile(in, ctx, s)) : super.explain(in, ctx, sink);
  }

  /** A JSON file: its objects, each a record, on lanes of their own. */
  private long jsonFile(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    IterationLanes lanes = new IterationLanes();
    Steps steps = new Steps(ctx, sink, clockScope(ctx), s -> {
      lanes.assign(s, sink, true);
      sink.step(s);
    });
    return new JsonRecordReader("expected an iteration-stats object").read(in, sink,
        (node, lineNo, buf, off, len) -> steps.json(node, lineNo, buf, off, len));
  }

  /**
   * A log's stats objects, stored on the lanes of the spec's own steps (print_iter_log); the
   * request lines the spec takes from trtllm-log (a trtllm-serve log with its iteration log on)
   * follow {@link SpecFormat}'s request events.
   */
  @Override
  protected SpecParser.Handler handler(SpecParser parser, ParseContext ctx, RecordSink sink) {
    SpecParser.Handler requests = super.handler(parser, ctx, sink);
    LoggedObjects objects = new LoggedObjects(new Steps(ctx, sink, clockScope(ctx), s -> parser.step(s, true)), sink);
    return new SpecParser.Handler() {
      @Override
      public SpecParser.Outcome line(MatchedLine m, long tsNs, int clockId, byte[] raw, int off, int len)
          throws SpecParser.BadLine {
        return m.kind.table().equals("requests") ? requests.line(m, tsNs, clockId, raw, off, len)
            : objects.line(m, tsNs, clockId, raw, off, len);
      }

      @Override
      public void event(MatchedLine m, String kind, long tsNs, int clockId) {
        requests.event(m, kind, tsNs, clockId);
      }

      @Override
      public boolean continuation(MatchedLine m, byte[] raw, int off, int len) {
        return objects.continuation(m, raw, off, len) || requests.continuation(m, raw, off, len);
      }

      @Override
      public void end() {
        objects.end();
        requests.end();
      }
    };
  }

  /** The longest first line looked at to tell a wrapped log from a JSON file. */
  private static final int FIRST_LINE_LIMIT = 1 << 20;

  /**
   * Whether the file is JSON (objects or an array of them) rather than a log: it starts as JSON
   * does, and its first line is not a collector's envelope around a log line (docker json-file's
   * {@code {"log": …}}, journalctl's {@code {"MESSAGE": …}}: parsers/wrappers.spec), which the
   * spec reads as the log it holds.
   */
  private boolean isJsonFile(BufferedInputStream in) throws IOException {
    if (!startsWithJson(in)) {
      return false;
    }
    in.mark(FIRST_LINE_LIMIT + 1);
    try {
      byte[] head = in.readNBytes(FIRST_LINE_LIMIT);
      int end = 0;
      while (end < head.length && head[end] != '\n') {
        end++;
      }
      MatchedLine m = new MatchedLine();
      new LineMatcher(spec()).match(1, new String(head, 0, end, java.nio.charset.StandardCharsets.UTF_8), m);
      return spec().envelopes().stream().noneMatch(e -> m.prefixes.contains(e.name()));
    } finally {
      in.reset();
    }
  }

  /**
   * Whether the file starts as JSON does: {@code [} followed by a value (not a log prefix such as
   * {@code [TensorRT-LLM]} or {@code [04/28/2025-...]}), or <code>{"</code> (not a Python dict).
   */
  private static boolean startsWithJson(BufferedInputStream in) throws IOException {
    in.mark(4096);
    try {
      int c = skipSpace(in);
      if (c != '[' && c != '{') {
        return false;
      }
      int next = skipSpace(in);
      return c == '[' ? next == '{' || next == '[' || next == ']' : next == '"';
    } finally {
      in.reset();
    }
  }

  private static int skipSpace(BufferedInputStream in) throws IOException {
    int c;
    int read = 0;
    do {
      c = in.read();
      read++;
    } while (read < 2048 && (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0xEF
        || c == 0xBB || c == 0xBF));
    return c;
  }

  /**
   * The spec's {@code stats_object} lines: a stats object on one line, or opening one wrapped over
   * several (a terminal's wrap), joined here up to its close.
   */
  private static final class LoggedObjects implements SpecParser.Handler {
    static final int MAX_JOINED_LINES = 64;
    final Steps steps;
    final RecordSink sink;
    /** A stats object wrapped over several lines, being joined. */
    StringBuilder joined;
    final JsonDepth depth = new JsonDepth();
    long joinStart;
    int joinedLines;
    long joinTs;
    int joinClock;
    Integer joinRank;
    byte[] joinHead;

    LoggedObjects(Steps steps, RecordSink sink) {
      this.steps = steps;
      this.sink = sink;
    }

    @Override
    public SpecParser.Outcome line(MatchedLine m, long tsNs, int clockId, byte[] raw, int off, int len)
        throws SpecParser.BadLine {
      String p = m.message().stripLeading(); // trailing blanks may be inside a wrapped key
      Integer rank = rank(m);
      if (p.startsWith("{") && steps.looksLikeStats(p)) {
        depth.reset();
        byte[] bytes = p.getBytes(StandardCharsets.UTF_8);
        depth.feed(bytes, 0, bytes.length);
        if (depth.open()) {
          joined = new StringBuilder(p);
          joinStart = m.lineNo;
          joinedLines = 1;
          joinTs = tsNs;
          joinClock = clockId;
          joinRank = rank;
          joinHead = java.util.Arrays.copyOfRange(raw, off, off + Math.min(len, 256));
          return SpecParser.Outcome.DEFERRED;
        }
      }
      String reason = steps.payload(p.strip(), m.lineNo, tsNs, clockId, rank);
      if (reason != null) {
        throw new SpecParser.BadLine(reason);
      }
      return steps.kept ? SpecParser.Outcome.RECORD : SpecParser.Outcome.OTHER;
    }

    @Override
    public boolean continuation(MatchedLine m, byte[] raw, int off, int len) {
      if (joined == null) {
        return false;
      }
      String p = m.message().stripLeading();
      if (!m.prefixes.isEmpty() || p.startsWith("{\"") || p.startsWith("[{") || p.startsWith("{'")
          || p.startsWith("\"{") || joinedLines >= MAX_JOINED_LINES) {
        // a new log line or record: the object was cut off
        abandonJoin(joinedLines >= MAX_JOINED_LINES ? "it is not closed within "
            + MAX_JOINED_LINES + " lines" : "a new log line starts before it closes");
        return false;
      }
      joined.append(m.text);
      depth.feed(raw, off, len);
      joinedLines++;
      if (!depth.open()) {
        String text = joined.toString();
        joined = null;
        String reason = steps.payload(text, joinStart, joinTs, joinClock, joinRank);
        if (reason != null) {
          sink.reject(joinStart, reason, joinHead, 0, joinHead.length);
        } else if (steps.kept) {
          sink.record();
        } else {
          sink.otherLine();
        }
        for (int i = 1; i < joinedLines; i++) {
          sink.otherLine(); // the continuation lines, counted with the object's own
        }
      }
      return true;
    }

    @Override
    public void end() {
      if (joined != null) {
        abandonJoin("the file ends inside it");
      }
    }

    /** The joined object never closed: its first line is rejected, the others were fragments. */
    private void abandonJoin(String why) {
      sink.reject(joinStart, "truncated stats object: " + why, joinHead, 0, joinHead.length);
      for (int i = 1; i < joinedLines; i++) {
        sink.otherLine();
      }
      joined = null;
    }

    /** The 2026 PyTorch backend's {@code [_torch][RANK r]} prefix: the rank of a record without its own. */
    private static Integer rank(MatchedLine m) {
      String r = m.prefixValue("torchRank");
      return r == null ? null : Integer.valueOf(r);
    }
  }

  /** Turns stats objects into steps; the parse-wide state: clocks, and where steps go (their lanes). */
  static final class Steps {
    final RecordSink sink;
    final LocalTimes times;
    final Consumer<StepRecord> store;
    final StepRecord step = new StepRecord();
    /** Whether the last payload was a stats object (else an other line). */
    boolean kept;

    Steps(ParseContext ctx, RecordSink sink, String clockScope, Consumer<StepRecord> store) {
      this.sink = sink;
      this.times = new LocalTimes(ctx, sink, clockScope);
      this.store = store;
    }

    boolean looksLikeStats(String p) {
      return p.contains("Active Request Count") || p.contains("Iteration Counter")
          || p.contains("\"iter\"") || p.contains("iterLatencyMS") || p.contains("cpuMemUsage")
          || p.contains("inflightBatchingStats");
    }

    /**
     * One log payload: a stats object (JSON, Python dict, quoted) or an other line ({@link #kept}
     * says which); returns the reject reason of a payload that cannot be used, else null.
     *
     * @param tsNs the log prefix's time, for an object without its own (RequestRecord.NONE: none)
     * @param rank the log prefix's rank, for an object without its own, or null
     */
    String payload(String p, long lineNo, long tsNs, int clockId, Integer rank) {
      kept = false;
      try {
        if (p.startsWith("{'") || p.startsWith("[{'")) {
          jsonText(PythonLiteral.toJson(p), lineNo, tsNs, clockId, rank);
        } else if (p.startsWith("\"{")) {
          JsonNode s = PeerJson.TREE.readTree(p); // Triton 24.07+: the message as a JSON string
          if (s == null || !s.isTextual()) {
            throw new PeerJson.Bad("a quoted stats object that is not a JSON string");
          }
          jsonText(s.asText(), lineNo, tsNs, clockId, rank);
        } else if ((p.startsWith("{") || p.startsWith("[{")) && looksLikeStats(p)) {
          jsonText(p, lineNo, tsNs, clockId, rank);
        }
        return null;
      } catch (PeerJson.Bad e) {
        return e.getMessage();
      } catch (IOException e) {
        return PeerJson.reason(e);
      } catch (ArithmeticException e) {
        return "a count out of range";
      } catch (NumberFormatException e) {
        return e.getMessage(); // ingest.Checked: names the field
      }
    }

    /**
     * A line's JSON: one object, or an array of them (a /metrics poll logged on one line), all
     * checked before any is kept, since the line is one unit. An empty array is an other line.
     */
    private void jsonText(String text, long lineNo, long tsNs, int clockId, Integer rank)
        throws IOException, PeerJson.Bad {
      JsonNode n = PeerJson.TREE.readTree(text);
      if (n != null && n.isArray()) {
        if (n.isEmpty()) {
          return;
        }
        java.util.List<String> stamps = new java.util.ArrayList<>();
        int i = 0;
        for (JsonNode e : n) {
          try {
            stamps.add(fill(e, lineNo));
            String range = dev.tokentime.ingest.Checked.stepProblem(step); // before any object is kept
            if (range != null) {
              throw new PeerJson.Bad(range);
            }
          } catch (PeerJson.Bad bad) {
            throw new PeerJson.Bad("[" + i + "]: " + bad.getMessage());
          }
          i++;
        }
        i = 0;
        for (JsonNode e : n) {
          fill(e, lineNo);
          emit(stamps.get(i++), tsNs, clockId, rank);
        }
        kept = true;
        return;
      }
      emit(fill(n, lineNo), tsNs, clockId, rank);
      kept = true;
    }

    /** One object of a JSON file. */
    void json(JsonNode n, long lineNo, byte[] buf, int off, int len) {
      try {
        emit(fill(n, lineNo), dev.tokentime.ingest.RequestRecord.NONE, 0, null);
        sink.record();
      } catch (PeerJson.Bad e) {
        sink.reject(lineNo, e.getMessage(), buf, off, len);
      } catch (ArithmeticException e) {
        sink.reject(lineNo, "a count out of range", buf, off, len);
      } catch (NumberFormatException e) {
        sink.reject(lineNo, e.getMessage(), buf, off, len); // ingest.Checked: names the field
      }
    }

    /** Fills the step from an object; returns its own timestamp text, or null. */
    private String fill(JsonNode n, long lineNo) throws PeerJson.Bad {
      if (n == null || !n.isObject()) {
        throw new PeerJson.Bad("expected an iteration-stats object");
      }
      step.reset();
      step.lineNo = lineNo;
      if (LegacyIterStats.is(n)) {
        LegacyIterStats.fill(n, step);
        return text(n, "Timestamp");
      }
      if (ExecutorIterStats.is(n)) {
        ExecutorIterStats.fill(n, step);
        return text(n, "timestamp");
      }
      throw new PeerJson.Bad("not an iteration-stats object: no iter or \"Iteration Counter\"");
    }

    private static String text(JsonNode n, String field) throws PeerJson.Bad {
      JsonNode v = n.get(field);
      if (v == null || v.isNull()) {
        return null;
      }
      if (!v.isTextual()) {
        throw new PeerJson.Bad(field + ": expected a time as text, got " + PeerJson.quote(v.toString()));
      }
      // the executor's stats class of 2026 defaults its timestamp to "": no time, as without the key
      return v.asText().isBlank() ? null : v.asText();
    }

    /** Stamps the filled step with its time (its own, else the log prefix's) and rank, and stores it. */
    private void emit(String own, long tsNs, int clockId, Integer rank) throws PeerJson.Bad {
      if (own != null) {
        LocalTimes.Reading r = times.parse(own);
        if (r == null) {
          throw new PeerJson.Bad("timestamp: not a time of a known shape: " + PeerJson.quote(own));
        }
        step.tsNs = r.ns();
        step.clockId = r.clockId();
      } else if (tsNs != dev.tokentime.ingest.RequestRecord.NONE) {
        step.tsNs = tsNs;
        step.clockId = clockId;
      }
      if (step.rank == null) {
        step.rank = rank;
      }
      store.accept(step);
    }
  }
}
