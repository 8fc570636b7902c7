package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * TensorRT-LLM's per-iteration statistics as steps: the executor's {@code IterationStats} JSON
 * ({@code /metrics} arrays, one poll or many; JSON lines), the same logged after
 * {@code [TensorRT-LLM][INFO]} by gptManagerBenchmark, trtllm-bench's {@code --iteration_log} (one
 * Python dict per line), the legacy key set of Triton verbose logs (plain, glog-prefixed, or as a
 * quoted and escaped string), and the PyTorch executor's {@code print_iter_log} lines.
 *
 * <p>A JSON file (its first character is a bracket or brace and a double quote follows) counts
 * records (objects); a log counts lines, where lines of other kinds are other lines and a stats
 * object wrapped over several lines counts once, its continuation lines being other lines.
 */
public final class IterStatsFormat implements InputFormat {

  @Override
  public String id() {
    return "trtllm-iter-stats";
  }

  @Override
  public String description() {
    return "TensorRT-LLM iteration stats: /metrics IterationStats, legacy batch-manager lines, trtllm-bench iteration log, print_iter_log";
  }

  @Override
  public String fills() {
    return "steps, engine_events";
  }

  @Override
  public int sniff(Sample sample) {
    List<String> lines = sample.firstLines(10_000); // the whole 64 KiB: stats lines follow the start-up log
    int hits = 0;
    for (String l : lines) {
      String p = LogPrefix.strip(l).payload();
      if (p.startsWith("{") || p.startsWith("[{") || p.startsWith("\"{")) {
        boolean executor = p.contains("\"iterLatencyMS\"") || p.contains("'iterLatencyMS'")
            || (p.contains("\"iter\"") || p.contains("'iter'")) && (p.contains("inflightBatchingStats")
            || p.contains("kvCacheStats") || p.contains("numActiveRequests"));
        boolean legacy = p.contains("\"Active Request Count") || p.contains("\"Iteration Counter");
        if (executor || legacy) {
          return 95;
        }
      } else if (PyExecutorIterLine.is(p) && (p.contains("states =") || p.contains("global_rank"))) {
        hits++;
      }
    }
    if (hits > 0) {
      return 92;
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
    Steps steps = new Steps(ctx, sink);
    if (startsWithJson(in)) {
      return new JsonRecordReader("expected an iteration-stats object").read(in, sink,
          (node, lineNo, buf, off, len) -> steps.json(node, lineNo, null, buf, off, len));
    }
    return new LogLines(steps, sink).read(in);
  }

  /**
   * Whether the file starts as JSON does: {@code [} followed by a value (not a log prefix such as
   * {@code [TensorRT-LLM]} or {@code [04/28/2025-...]}), or {@code {"} (not a Python dict).
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

  /** A log, line by line: each line's prefixes removed, its payload read by its shape. */
  private static final class LogLines implements LineReader.Handler {
    static final int MAX_JOINED_LINES = 64;
    final Steps steps;
    final RecordSink sink;
    final java.nio.charset.CharsetDecoder decoder =
        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
    /** A stats object wrapped over several lines, being joined. */
    StringBuilder joined;
    final JsonDepth depth = new JsonDepth();
    long joinStart;
    int joinedLines;
    LogPrefix.Stripped joinPrefix;
    byte[] joinHead;

    LogLines(Steps steps, RecordSink sink) {
      this.steps = steps;
      this.sink = sink;
    }

    long read(InputStream in) throws IOException {
      long lines = new LineReader(in).forEach(this);
      if (joined != null) {
        abandonJoin("the file ends inside it");
      }
      return lines;
    }

    @Override
    public void line(long lineNo, byte[] buf, int off, int len) {
      String line;
      try {
        line = decoder.decode(ByteBuffer.wrap(buf, off, len)).toString();
      } catch (CharacterCodingException e) {
        if (joined != null) {
          abandonJoin("a line inside it is not valid UTF-8");
        }
        sink.reject(lineNo, "invalid UTF-8", buf, off, len);
        return;
      }
      if (joined != null) {
        LogPrefix.Stripped s = LogPrefix.strip(line);
        String p = s.payload();
        if (!p.equals(line.stripLeading()) || p.startsWith("{\"") || p.startsWith("[{")
            || p.startsWith("{'") || p.startsWith("\"{") || joinedLines >= MAX_JOINED_LINES) {
          // a new log line or record: the object was cut off
          abandonJoin(joinedLines >= MAX_JOINED_LINES ? "it is not closed within "
              + MAX_JOINED_LINES + " lines" : "a new log line starts before it closes");
        } else {
          joined.append(line);
          depth.feed(buf, off, len);
          joinedLines++;
          if (!depth.open()) {
            String text = joined.toString();
            joined = null;
            steps.payload(text, joinPrefix, joinStart, joinHead, 0, joinHead.length);
            for (int i = 1; i < joinedLines; i++) {
              sink.otherLine(); // the continuation lines, counted with the object's own
            }
          }
          return;
        }
      }
      LogPrefix.Stripped s = LogPrefix.strip(line);
      String p = s.payload();
      if (p.startsWith("{") && steps.looksLikeStats(p)) {
        depth.reset();
        byte[] bytes = p.getBytes(StandardCharsets.UTF_8);
        depth.feed(bytes, 0, bytes.length);
        if (depth.open()) {
          joined = new StringBuilder(p);
          joinStart = lineNo;
          joinedLines = 1;
          joinPrefix = s;
          joinHead = java.util.Arrays.copyOfRange(buf, off, off + Math.min(len, 256));
          return;
        }
      }
      steps.payload(p.strip(), s, lineNo, buf, off, len);
    }

    /** The joined object never closed: its first line is rejected, the others were fragments. */
    private void abandonJoin(String why) {
      sink.reject(joinStart, "truncated stats object: " + why, joinHead, 0, joinHead.length);
      for (int i = 1; i < joinedLines; i++) {
        sink.otherLine();
      }
      joined = null;
    }

    @Override
    public void tooLong(long lineNo, long length, byte[] head, int headLen) {
      if (joined != null) {
        abandonJoin("a line inside it is too long");
      }
      sink.reject(lineNo, "line of " + length + " bytes is longer than the limit of "
          + LineReader.DEFAULT_MAX_LINE_BYTES + " bytes; skipped", head, 0, headLen);
    }
  }

  /** Turns payloads into steps; the parse-wide state: clocks and iteration lanes. */
  static final class Steps {
    final ParseContext ctx;
    final RecordSink sink;
    final LocalTimes times;
    final IterLanes lanes = new IterLanes();
    final dev.tokentime.ingest.StepRecord step = new dev.tokentime.ingest.StepRecord();

    Steps(ParseContext ctx, RecordSink sink) {
      this.ctx = ctx;
      this.sink = sink;
      this.times = new LocalTimes(ctx, sink);
    }

    boolean looksLikeStats(String p) {
      return p.contains("Active Request Count") || p.contains("Iteration Counter")
          || p.contains("\"iter\"") || p.contains("iterLatencyMS") || p.contains("cpuMemUsage")
          || p.contains("inflightBatchingStats");
    }

    /** One log payload: a stats object (JSON, Python dict, quoted), a print_iter_log line, or other. */
    void payload(String p, LogPrefix.Stripped prefix, long lineNo, byte[] buf, int off, int len) {
      try {
        if (p.startsWith("{'") || p.startsWith("[{'")) {
          jsonText(PythonLiteral.toJson(p), prefix, lineNo, buf, off, len);
        } else if (p.startsWith("\"{")) {
          JsonNode s = PeerJson.TREE.readTree(p); // Triton 24.07+: the message as a JSON string
          if (s == null || !s.isTextual()) {
            throw new PeerJson.Bad("a quoted stats object that is not a JSON string");
          }
          jsonText(s.asText(), prefix, lineNo, buf, off, len);
        } else if ((p.startsWith("{") || p.startsWith("[{")) && looksLikeStats(p)) {
          jsonText(p, prefix, lineNo, buf, off, len);
        } else if (PyExecutorIterLine.is(p)) {
          step.reset();
          step.lineNo = lineNo;
          emit(PyExecutorIterLine.fill(p, step), prefix);
          sink.record();
        } else {
          sink.otherLine();
        }
      } catch (PeerJson.Bad e) {
        sink.reject(lineNo, e.getMessage(), buf, off, len);
      } catch (IOException e) {
        sink.reject(lineNo, PeerJson.reason(e), buf, off, len);
      } catch (ArithmeticException e) {
        sink.reject(lineNo, "a count out of range", buf, off, len);
      } catch (NumberFormatException e) {
        sink.reject(lineNo, e.getMessage(), buf, off, len); // ingest.Checked: names the field
      }
    }

    /**
     * A line's JSON: one object, or an array of them (a /metrics poll logged on one line), all
     * checked before any is kept, since the line is one unit.
     */
    private void jsonText(String text, LogPrefix.Stripped prefix, long lineNo, byte[] buf, int off,
        int len) throws IOException, PeerJson.Bad {
      JsonNode n = PeerJson.TREE.readTree(text);
      if (n != null && n.isArray()) {
        if (n.isEmpty()) {
          sink.otherLine();
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
          emit(stamps.get(i++), prefix);
        }
        sink.record();
        return;
      }
      emit(fill(n, lineNo), prefix);
      sink.record();
    }

    /** One object of a JSON file. */
    void json(JsonNode n, long lineNo, LogPrefix.Stripped prefix, byte[] buf, int off, int len) {
      try {
        emit(fill(n, lineNo), prefix);
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
      return v.asText();
    }

    /** Stamps the filled step with its time (its own, else the log prefix's), lane and epoch. */
    private void emit(String own, LogPrefix.Stripped prefix) throws PeerJson.Bad {
      String ts = own != null ? own : prefix == null ? null : prefix.loggerTime();
      if (ts != null) {
        LocalTimes.Reading r = times.parse(ts);
        if (r == null) {
          throw new PeerJson.Bad("timestamp: not a time of a known shape: " + PeerJson.quote(ts));
        }
        step.tsNs = r.ns();
        step.clockId = r.clockId();
      }
      if (step.rank == null && prefix != null) {
        step.rank = prefix.rank();
      }
      lanes.assign(step, sink);
      sink.step(step);
    }
  }
}
