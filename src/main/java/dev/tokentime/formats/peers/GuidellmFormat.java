package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GuideLLM's benchmark report ({@code benchmarks.json}, vllm-project/guidellm 0.2 to 0.7 and
 * later): one object whose {@code benchmarks} list holds a benchmark per load level of the run
 * (a sweep's strategies, a list of rates), each with its per-request records under
 * {@code requests.successful / errored / incomplete} and GuideLLM's own statistics under
 * {@code metrics}. Read as a stream: a benchmark's requests are read one at a time.
 *
 * <p>Each benchmark is a run (the first named like any file's run, the k-th {@code <name>#k}), at
 * the level its strategy states: concurrent {@code streams} and synchronous (1) as concurrency,
 * constant and poisson {@code rate} as a request rate; throughput and trace state none. Its
 * requests keep the client's epoch-second times: request start, first and last token, end.
 * Two record layouts: 0.2–0.3 write {@code start_time}, {@code first_token_time},
 * {@code last_token_time}, {@code end_time} on the record; 0.4 and later write
 * {@code info.timings.request_start}, {@code first_token_iteration} ({@code first_iteration} on
 * main of October 2025), {@code last_token_iteration}, {@code request_end}. From 0.4 a record may
 * lie outside the benchmark's measured window ({@code scheduler_metrics.measure_start_time} to
 * {@code measure_end_time}: warm-up, cool-down), which GuideLLM's metrics leave out: such a
 * request's phase is warmup. The metrics' successful statistics become reported_metrics.
 *
 * <p>The same report saved as YAML ({@code --output-path benchmarks.yaml}: PyYAML's
 * {@code yaml.dump} of the same model, its keys sorted, so a benchmark's {@code requests} come
 * before its {@code scheduler_metrics}) is read by the same reader from Jackson's YAML parser.
 * Records read before their benchmark's window are held (up to {@link #HELD_MAX}) until the window
 * or the benchmark's end, so key order does not change what is measured.
 *
 * <p>Counted in records: one per benchmark (its level and statistics) and one per request record.
 * GuideLLM 0.1's report (2024: {@code benchmarks[].benchmarks[].results}) is rejected as such.
 */
public final class GuidellmFormat extends NamedFormat {
  private static final String[] STATUSES = {"successful", "errored", "incomplete"};
  /**
   * Request records held per benchmark while its measured window is not known yet (a few hundred
   * bytes each); past this many they are stored as read, and a reject says the window came late.
   */
  static final int HELD_MAX = 200_000;
  /** A YAML report's top-level keys (sorted, or in the model's order). */
  private static final Pattern YAML_TOP = Pattern.compile("(?m)^(?:args|benchmarks|config|metadata):\\s*$");
  /**
   * What YAML allows before a document's first key: blank and comment lines, directives
   * ({@code %YAML 1.2}) and the document start {@code ---}, which a report re-saved by another
   * YAML writer (GuideLLM's own test asset of its YAML form) begins with.
   */
  private static final Pattern YAML_PREAMBLE = Pattern.compile("\\A(?:(?:[ \\t]*|#.*|%.*|---[ \\t]*(?:#.*)?)\\r?\\n)*");
  /** Keys and values only GuideLLM's reports have, as PyYAML writes them. */
  private static final Pattern YAML_GUIDELLM = Pattern.compile("(?m)^\\s*(?:-\\s+)?(?:guidellm_version:"
      + "|type_: (?:generative_benchmark|synchronous|concurrent|throughput|constant|poisson|async_constant|async_poisson)\\s*$"
      + "|time_to_first_token_ms:|first_token_iteration:|measure_start_time:|strategy_type: )");

  public GuidellmFormat() {
    super("guidellm-json",
        "runs, requests, reported_metrics",
        "GuideLLM benchmarks.json or .yaml (0.2 to 0.7+): a run per benchmark (strategy, rate or streams), its request records and statistics");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (!text.startsWith("{")) {
      // the YAML form: a top-level key of the report and a key or strategy only GuideLLM writes
      Matcher preamble = YAML_PREAMBLE.matcher(text);
      String body = preamble.lookingAt() ? text.substring(preamble.end()) : text;
      return YAML_TOP.matcher(body).lookingAt() && YAML_GUIDELLM.matcher(body).find() ? 85 : 0;
    }
    boolean guidellm = text.contains("\"guidellm_version\"") || text.contains("\"generative_benchmark\"")
        || text.contains("\"generative_request_stats\"") || text.contains("\"generative_text_response\"")
        || text.contains("\"first_token_set\"") && text.contains("\"decode_times\"");
    if (guidellm) {
      return 90;
    }
    // 0.4.0 wrote no metadata and its arguments first, BenchmarkGenerativeTextArgs' target then
    // data as given, which can fill the head
    return text.matches("(?s)^\\{\\s*\"args\":\\s*\\{\\s*\"target\":\\s*\"[^\"]*\",\\s*\"data\":.*") ? 60 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    BufferedInputStream b = new BufferedInputStream(in);
    boolean yaml = !startsWithBrace(b);
    CutMark cut = yaml ? new CutMark(b) : null;
    try (JsonParser p = yaml ? PeerJson.YAML.createParser(cut) : PeerJson.JSON.createParser(b)) {
      Reader r = new Reader(p, ctx, sink);
      try {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          sink.reject(1, "not a GuideLLM report: expected " + (yaml ? "a YAML mapping" : "a JSON object")
              + " with a benchmarks list", null, 0, 0);
          return 1;
        }
        r.report();
        if (cut != null && cut.marked) {
          // the mark did not break the parse (the cut fell where text is free): still a cut file
          r.units++;
          sink.reject(Math.max(1, PeerJson.line(p)), "truncated YAML: the file ends inside a line", null, 0, 0);
        }
      } catch (IOException e) {
        if (!r.pending) {
          r.units++; // the break is outside a record: a unit of its own
        }
        r.flushHeld(null); // what was read before the break is kept, as a JSON file's records are
        String reason = cut == null ? PeerJson.reason(e)
            : cut.marked ? "truncated YAML: the file ends inside a line" : PeerJson.reason(e).replace("JSON", "YAML");
        sink.reject(Math.max(1, PeerJson.line(p)), reason + (r.where == null ? "" : " (in " + r.where + ")")
            + "; nothing after this point could be read", null, 0, 0);
      }
      return r.units;
    }
  }

  /** A strategy's level as the report states it (streams, 1 for synchronous, rate), or null. */
  static Double strategyLevel(JsonNode strategy) {
    return Reader.levelOf(strategy);
  }

  /** A strategy's kind of level: request_rate (constant, poisson) or concurrency. */
  static String strategyKind(JsonNode strategy) {
    return Reader.kindOf(strategy);
  }

  /** The unit of one of GuideLLM's metrics, by its name. */
  static String metricUnit(String metric) {
    return Reader.unit(metric);
  }

  /**
   * A YAML file cut inside a line (PyYAML ends every file with a newline) still parses: YAML closes
   * what is open at the end, and a number cut short is another number. So where the input ends
   * without a newline, text that no YAML line can continue with is appended ({@code " x: y: z"}, a
   * mapping value where none is allowed, or more text in a quoted scalar left open): the parser
   * then fails inside the cut record, which is rejected as a cut JSON record is, and the complete
   * records before it are kept.
   */
  private static final class CutMark extends java.io.FilterInputStream {
    private static final byte[] MARK = " x: y: z\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private int last = '\n';
    private int markAt = -1;
    boolean marked;

    CutMark(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (markAt < 0) {
        int n = in.read(b, off, len);
        if (n > 0) {
          last = b[off + n - 1];
          return n;
        }
        if (n == 0) {
          return 0;
        }
        if (last == '\n' || last == '\r') {
          markAt = MARK.length; // a whole last line: nothing to add
        } else {
          markAt = 0;
          marked = true;
        }
      }
      if (markAt >= MARK.length) {
        return -1;
      }
      int n = Math.min(len, MARK.length - markAt);
      System.arraycopy(MARK, markAt, b, off, n);
      markAt += n;
      return n;
    }

    @Override
    public boolean markSupported() {
      return false;
    }
  }

  /** Whether the first byte that is not white space (nor a BOM) is '{'; the stream is left unread. */
  private static boolean startsWithBrace(BufferedInputStream b) throws IOException {
    b.mark(4096);
    try {
      for (int i = 0; i < 4096; i++) {
        int c = b.read();
        if (c < 0) {
          return true; // empty: the JSON reader says so, as before
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0xEF || c == 0xBB || c == 0xBF) {
          continue;
        }
        return c == '{';
      }
      return true;
    } finally {
      b.reset();
    }
  }

  /** The state of one file's reading. */
  private static final class Reader {
    private final JsonParser p;
    private final ParseContext ctx;
    private final RecordSink sink;
    private final RunNames runs;
    private final RequestRecord req = new RequestRecord();
    private int clockId = -1;
    long units;
    /** A record counted whose outcome is not yet given (the break of a file cut inside it is its reject). */
    boolean pending;
    /** Where the reader is, for a break's reason: "benchmark 2, requests.errored[3]". */
    String where;
    /** The benchmark's records read before its window was known, in file order. */
    private final List<Held> held = new ArrayList<>();

    /** A record waiting for its benchmark's window: its start and end in seconds (NaN: none). */
    private record Held(RequestRecord rec, double start, double end) {}

    Reader(JsonParser p, ParseContext ctx, RecordSink sink) {
      this.p = p;
      this.ctx = ctx;
      this.sink = sink;
      this.runs = new RunNames(ctx.defaultRun());
    }

    void report() throws IOException {
      boolean benchmarks = false;
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        if (field.equals("benchmarks") && v == JsonToken.START_ARRAY) {
          benchmarks = true;
          int index = 0;
          for (JsonToken b = p.nextToken(); b != JsonToken.END_ARRAY; b = p.nextToken()) {
            index++;
            where = "benchmark " + index;
            long line = PeerJson.line(p);
            if (b != JsonToken.START_OBJECT) {
              units++;
              p.skipChildren();
              sink.reject(line, "benchmark " + index + ": expected an object", null, 0, 0);
              continue;
            }
            benchmark(index, line);
          }
          where = null;
        } else {
          p.skipChildren(); // metadata, args or config of the whole run: the benchmarks restate what counts
        }
      }
      if (!benchmarks) {
        units++;
        sink.reject(1, "not a GuideLLM report: the object has no benchmarks list", null, 0, 0);
      }
      units += PeerJson.trailing(p, sink, "object", "a GuideLLM report holds one");
    }

    /** One benchmark: the parser on its START_OBJECT. */
    private void benchmark(int index, long line) throws IOException {
      String run = runs.nth(index);
      JsonNode strategy = null;
      JsonNode metrics = null;
      JsonNode totals = null;
      double[] window = null;
      long requestsRead = 0; // records read before the window came (a file whose keys were reordered)
      boolean known = false; // a key only a GuideLLM benchmark has
      boolean legacy = false; // GuideLLM 0.1's wrapper: {"benchmarks": [{"benchmarks": [...], "args"}]}
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        switch (field) {
          case "args", "config", "scheduler" -> {
            JsonNode n = PeerJson.TREE.readTree(p);
            if (n.path("strategy").isObject()) {
              strategy = n.get("strategy");
            }
            known = true;
          }
          case "scheduler_metrics" -> {
            long at = PeerJson.line(p);
            JsonNode n = PeerJson.TREE.readTree(p);
            double a = n.path("measure_start_time").asDouble(Double.NaN);
            double b = n.path("measure_end_time").asDouble(Double.NaN);
            window = a > 0 && b >= a ? new double[] {a, b} : null;
            flushHeld(window);
            if (window != null && requestsRead > 0) {
              // the records are stored as they stream by: the window cannot mark them any more
              units++;
              sink.reject(at, "benchmark " + index + ": its measured window (scheduler_metrics) comes after its "
                  + requestsRead + " request records (the file's keys were reordered?): not applied, so records"
                  + " outside it count as measured", null, 0, 0);
            }
            known = true;
          }
          case "metrics" -> {
            metrics = PeerJson.TREE.readTree(p);
            known = true;
          }
          case "request_totals" -> totals = PeerJson.TREE.readTree(p); // 0.2-0.3; 0.4+ keeps it in metrics
          case "benchmarks" -> {
            legacy = true;
            p.skipChildren();
          }
          case "requests" -> {
            known = true;
            if (v == JsonToken.START_OBJECT && !legacy) {
              requestsRead += requests(run, index, window);
            } else {
              p.skipChildren();
            }
          }
          default -> p.skipChildren();
        }
      }
      flushHeld(window); // no window came (0.2-0.3, a run without one): stored as read
      units++;
      if (legacy) {
        sink.reject(line, "benchmark " + index + ": a GuideLLM 0.1 report (benchmarks[].benchmarks[].results,"
            + " 2024): not read; GuideLLM 0.2 and later write benchmarks.json as tokentime reads it", null, 0, 0);
        return;
      }
      if (!known) {
        sink.reject(line, "benchmark " + index + ": not a GuideLLM benchmark (no args, config, metrics or requests)",
            null, 0, 0);
        return;
      }
      // stated at the end, wherever the strategy stood among the keys
      Double level = levelOf(strategy);
      String conflict = sink.runLevel(run, level == null ? null : kindOf(strategy), level, null,
          "GuideLLM strategy " + (strategy == null ? "(none)" : strategy.path("type_").asText("?")));
      if (conflict != null) {
        sink.reject(line, "benchmark " + index + " (run " + run + "): " + conflict + "; its requests are kept", null, 0, 0);
        return;
      }
      if (metrics != null) {
        reported(run, level, metrics);
        if (totals == null) {
          totals = metrics.get("request_totals");
        }
      }
      totals(run, level, totals);
      sink.record();
    }

    private static String kindOf(JsonNode strategy) {
      String type = strategy.path("type_").asText("");
      return type.equals("constant") || type.equals("poisson") ? "request_rate" : "concurrency";
    }

    /** The strategy's level: streams (concurrent), 1 (synchronous), rate (constant, poisson). */
    private static Double levelOf(JsonNode strategy) {
      if (strategy == null) {
        return null;
      }
      JsonNode v = switch (strategy.path("type_").asText("")) {
        case "synchronous" -> PeerJson.TREE.getNodeFactory().numberNode(1);
        case "concurrent" -> strategy.get("streams");
        case "constant", "poisson" -> strategy.get("rate");
        default -> null;
      };
      return v != null && v.isNumber() && v.asDouble() > 0 && Double.isFinite(v.asDouble()) ? v.asDouble() : null;
    }

    /**
     * requests: {successful: […], errored: […], incomplete: […], total: null}; the parser on its
     * START_OBJECT. Returns the records read.
     */
    private long requests(String run, int index, double[] window) throws IOException {
      long read = 0; // stored before the window was known (past HELD_MAX)
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String status = p.currentName();
        JsonToken v = p.nextToken();
        if (v != JsonToken.START_ARRAY || !java.util.Arrays.asList(STATUSES).contains(status)) {
          p.skipChildren(); // total: null, or a status GuideLLM does not write
          continue;
        }
        int i = 0;
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
          where = "benchmark " + index + ", requests." + status + "[" + i + "]";
          long line = PeerJson.line(p);
          units++;
          pending = true;
          JsonNode r = PeerJson.TREE.readTree(p);
          pending = false;
          try {
            boolean hold = window == null && held.size() < HELD_MAX;
            RequestRecord into = hold ? new RequestRecord() : req;
            double[] times = request(r, run, status, window, line, into);
            if (hold) {
              held.add(new Held(into, times[0], times[1]));
            } else {
              if (window == null) {
                read++;
              }
              store(into);
            }
          } catch (PeerJson.Bad | NumberFormatException x) {
            sink.reject(line, "benchmark " + index + ", requests." + status + "[" + i + "]: " + x.getMessage(), null, 0, 0);
          }
          i++;
        }
      }
      return read;
    }

    private void store(RequestRecord rec) {
      if (sink.request(rec, null, 0, 0) >= 0) {
        sink.record();
      }
    }

    /**
     * Stores the held records in file order, those outside {@code window} (when given) as
     * warm-up, as GuideLLM's metrics leave them out.
     */
    void flushHeld(double[] window) {
      for (Held h : held) {
        if (window != null && !Double.isNaN(h.end) && (h.end < window[0] || h.start > window[1])) {
          h.rec.phase = "warmup";
        }
        store(h.rec);
      }
      held.clear();
    }

    /** Fills {@code req} from the record; returns its start and end in seconds (NaN: none). */
    private double[] request(JsonNode r, String run, String list, double[] window, long line, RequestRecord req)
        throws PeerJson.Bad {
      if (!r.isObject()) {
        throw new PeerJson.Bad("expected an object");
      }
      req.reset();
      req.lineNo = line;
      req.run = run;
      req.engine = "guidellm";
      if (clockId < 0) {
        clockId = sink.clock(new ClockSpec("client", "GuideLLM wall clock, Unix epoch s (" + ctx.sourceName() + ")",
            1_000, null, false));
      }
      req.clockId = clockId;
      JsonNode info = r.path("info");
      JsonNode timings = info.path("timings");
      boolean v04 = timings.isObject(); // 0.4 and later: info.timings; 0.2–0.3: times on the record
      String id = text(r.get("request_id"));
      req.requestId = id != null ? id : text(info.get("request_id"));
      if (req.requestId == null) {
        throw new PeerJson.Bad("no request_id");
      }
      // times as the decimals written (a double's shortest form): exact nanoseconds, where
      // seconds times 1e9 in a double would round them to 256 ns
      // a failed record that never started its request has its resolve times (as GuideLLM keeps it)
      String startName = v04 ? "info.timings.request_start" : "start_time";
      BigDecimal start = v04 ? seconds(timings, "request_start", "resolve_start") : seconds(r, "start_time");
      if (start == null) {
        throw new PeerJson.Bad("no request start time (" + startName + ")");
      }
      req.arrivalNs = Checked.secondsToNs(startName, start);
      BigDecimal first = v04 ? seconds(timings, "first_token_iteration", "first_iteration") : seconds(r, "first_token_time");
      if (first != null) {
        req.firstTokenNs = Checked.secondsToNs(v04 ? "info.timings.first_token_iteration" : "first_token_time", first);
      }
      BigDecimal last = v04 ? seconds(timings, "last_token_iteration", "last_iteration") : seconds(r, "last_token_time");
      if (last != null) {
        req.lastTokenNs = Checked.secondsToNs(v04 ? "info.timings.last_token_iteration" : "last_token_time", last);
      }
      BigDecimal end = v04 ? seconds(timings, "request_end", "resolve_end") : seconds(r, "end_time");
      if (end != null) {
        req.finishedNs = Checked.secondsToNs(v04 ? "info.timings.request_end" : "end_time", end);
      }
      req.promptTokens = count(r, "prompt_tokens");
      req.outputTokens = count(r, "output_tokens");
      String status = v04 ? info.path("status").asText("") : "";
      req.status = switch (status.isEmpty() ? list : status) {
        case "completed", "successful" -> "ok";
        case "cancelled", "incomplete" -> "cancelled";
        default -> "error";
      };
      if (!req.status.equals("ok")) {
        String error = text(v04 ? info.get("error") : r.get("error"));
        req.error = error != null ? error : list.equals("incomplete") ? "incomplete at the benchmark's end" : null;
      }
      // GuideLLM's own per-request figures, as it wrote them; one that is no duration (0.2-0.3's
      // TTFT of a record without a content token is 1000 x (-1 - start), a NaN of a record with
      // no tokens) is no figure, and the record's times stand
      req.ttftMs = req.firstTokenNs == RequestRecord.NONE ? null : derived(r, "time_to_first_token_ms");
      Double latency = derived(r, "request_latency");
      req.e2eMs = latency == null ? null : latency * 1e3;
      req.tpotMs = derived(r, "time_per_output_token_ms");
      Double itl = req.firstTokenNs == RequestRecord.NONE ? null : derived(r, "inter_token_latency_ms");
      if (itl != null) {
        req.extras.put("inter_token_latency_ms", Double.toString(itl));
      }
      // its TPOT's definition changed with the 0.4 layout (guidellm_metrics)
      req.extras.put("guidellm_layout", v04 ? "0.4" : "0.2");
      String response = text(r.get("response_id"));
      if (response != null) {
        req.extras.put("response_id", response);
      }
      if (window != null && end != null && (end.doubleValue() < window[0] || start.doubleValue() > window[1])) {
        req.phase = "warmup"; // outside the measured window: GuideLLM's metrics leave it out
      }
      return new double[] {start.doubleValue(), end == null ? Double.NaN : end.doubleValue()};
    }

    /**
     * The benchmark's request counts as GuideLLM kept them ({successful, errored, incomplete,
     * total}), as reported_metrics {@code requests_successful} … with stat {@code value}: its
     * records are a sample of these (0.4+ keeps a few per status by default), so the counts are the
     * only word on how many failed (tool_request_counts).
     */
    private void totals(String run, Double level, JsonNode totals) {
      if (totals == null || !totals.isObject()) {
        return;
      }
      for (String k : new String[] {"successful", "errored", "incomplete", "total"}) {
        JsonNode n = totals.get(k);
        if (n != null && n.isIntegralNumber() && n.asLong() >= 0) {
          sink.reportedMetric(run, level, "requests_" + k, "value", n.asDouble(), "requests");
        }
      }
    }

    /**
     * GuideLLM's statistics of the benchmark's successful requests, as reported_metrics:
     * metrics.NAME.successful.{mean, median, std_dev, min, max, percentiles.pNN}.
     */
    private void reported(String run, Double lv, JsonNode metrics) {
      for (Iterator<Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> m = it.next();
        JsonNode s = m.getValue().path("successful");
        if (!s.isObject() || !s.path("mean").isNumber()) {
          continue; // request_totals, the modality groups (text, image, …)
        }
        String unit = unit(m.getKey());
        for (String stat : new String[] {"mean", "median", "mode", "std_dev", "min", "max"}) {
          if (s.path(stat).isNumber() && Double.isFinite(s.get(stat).asDouble())) {
            sink.reportedMetric(run, lv, m.getKey(), stat, s.get(stat).asDouble(), unit);
          }
        }
        if (s.path("count").isNumber()) {
          sink.reportedMetric(run, lv, m.getKey(), "count", s.get("count").asDouble(), "count");
        }
        for (Iterator<Map.Entry<String, JsonNode>> q = s.path("percentiles").fields(); q.hasNext(); ) {
          Map.Entry<String, JsonNode> e = q.next();
          if (e.getValue().isNumber() && Double.isFinite(e.getValue().asDouble())) {
            sink.reportedMetric(run, lv, m.getKey(), e.getKey(), e.getValue().asDouble(), unit);
          }
        }
      }
    }

    static String unit(String metric) {
      if (metric.endsWith("_ms")) {
        return "ms";
      }
      if (metric.equals("request_latency")) {
        return "s";
      }
      if (metric.equals("requests_per_second")) {
        return "requests/s";
      }
      if (metric.endsWith("tokens_per_second")) {
        return "tokens/s";
      }
      if (metric.equals("request_concurrency")) {
        return "requests";
      }
      if (metric.contains("iterations")) {
        return "count";
      }
      return metric.endsWith("_count") || metric.endsWith("_per_iteration") ? "tokens" : "value";
    }

    private static String text(JsonNode n) {
      return n == null || n.isNull() || n.isContainerNode() || n.asText().isEmpty() ? null : n.asText();
    }

    /** A time in epoch seconds, null when absent (null, or GuideLLM's -1 placeholder). */
    private static BigDecimal seconds(JsonNode o, String... names) throws PeerJson.Bad {
      for (String name : names) {
        JsonNode v = o.get(name);
        if (v == null || v.isNull()) {
          continue;
        }
        if (!v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < 0 && v.asDouble() != -1.0) {
          throw new PeerJson.Bad(name + ": " + v + " is not a time in seconds");
        }
        return v.asDouble() == -1.0 ? null : v.decimalValue();
      }
      return null;
    }

    /** A figure GuideLLM derived for the record: null unless a duration Checked accepts. */
    private static Double derived(JsonNode o, String name) {
      JsonNode v = o.get(name);
      if (v == null || !v.isNumber()) {
        return null;
      }
      double d = v.asDouble();
      double ms = name.endsWith("_ms") ? d : d * 1e3;
      return Double.isFinite(d) && d >= 0 && Checked.durationProblem(name, ms) == null ? d : null;
    }

    private static Double number(JsonNode o, String name) throws PeerJson.Bad {
      JsonNode v = o.get(name);
      if (v == null || v.isNull()) {
        return null;
      }
      if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
        throw new PeerJson.Bad(name + ": " + v + " is not a number");
      }
      return v.asDouble();
    }

    private static Integer count(JsonNode o, String name) throws PeerJson.Bad {
      Double d = number(o, name);
      if (d == null) {
        return null;
      }
      String problem = Checked.countProblem(name, d);
      if (problem != null || d != Math.rint(d)) {
        throw new PeerJson.Bad(problem != null ? problem : name + ": " + d + " is not a whole number");
      }
      return d.intValue();
    }
  }
}
