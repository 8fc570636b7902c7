package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.formats.json.ToolMetricNames;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.TextLines;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The summary a tool wrote about its own run: genai-perf's {@code profile_export_genai_perf.json}
 * / {@code .csv} and AIPerf's {@code profile_export_aiperf.json} / {@code .csv}. Every figure
 * becomes a reported_metrics row (metric as the JSON key, stat avg/min/max/pNN/std, the tool's
 * unit), kept so tokentime's figures and the tool's own can be put side by side. The JSON counts
 * as one record; the CSV is line-oriented (header and blank lines are other lines).
 */
public final class ToolSummaryFormat extends NamedFormat {
  /** Which tool's summary, with what tells its files apart. */
  public enum Tool {
    GENAI_PERF("genai-perf-summary", "genai_perf"),
    AIPERF("aiperf-summary", "aiperf");

    final String id;
    final String fileTag;

    Tool(String id, String fileTag) {
      this.id = id;
      this.fileTag = fileTag;
    }
  }

  private final Tool tool;

  public ToolSummaryFormat(Tool tool) {
    super(tool.id, "runs, reported_metrics", tool == Tool.GENAI_PERF
        ? "genai-perf profile_export_genai_perf.json / .csv: the tool's own run statistics"
        : "AIPerf profile_export_aiperf.json / .csv: the tool's own run statistics");
    this.tool = tool;
  }

  @Override
  public int sniff(Sample sample) {
    String name = sample.fileName() == null ? "" : sample.fileName().toLowerCase(Locale.ROOT);
    String text = sample.text().stripLeading();
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    boolean named = name.contains("_" + tool.fileTag + ".") || name.contains("_" + tool.fileTag + "_");
    if (text.startsWith("{")) {
      boolean shaped = text.contains("\"unit\"") && text.contains("\"avg\"");
      if (!shaped) {
        return 0;
      }
      if (named) {
        return 92;
      }
      boolean mine = tool == Tool.GENAI_PERF ? text.contains("\"perf_analyzer\"")
          : text.contains("\"error_summary\"") || text.contains("\"benchmark_duration\"");
      return mine ? 70 : 0;
    }
    if (tool == Tool.AIPERF && text.startsWith(STEADY_CSV_HEAD)) {
      return 92; // claimed to be said what it is (not read)
    }
    if (text.startsWith("Metric,avg,")) {
      // the columns are read by name; their order moved between versions (AIPerf 0.8's
      // avg,min,max,sum,p1,…, a 2026 build's avg,sum,min,max,p1,…): AIPerf's has a sum or lists
      // its percentiles up from p1, genai-perf's down from p99 (…,p99,p95,…,p5,p1)
      List<String> columns = List.of(text.split("[\r\n]", 2)[0].split(","));
      if (!columns.contains("min") || !columns.contains("max")) {
        return 0;
      }
      int p1 = columns.indexOf("p1");
      int p99 = columns.indexOf("p99");
      boolean aiperf = columns.contains("sum") || p1 >= 0 && (p99 < 0 || p1 < p99);
      boolean mine = tool == Tool.AIPERF ? aiperf : !aiperf && columns.contains("p99");
      return mine ? (named ? 92 : 75) : 0;
    }
    return 0;
  }

  @Override
  public long parse(InputStream raw, ParseContext ctx, RecordSink sink) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw);
    in.mark(1 << 16);
    int c;
    do {
      c = in.read();
    } while (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0xEF || c == 0xBB || c == 0xBF);
    in.reset();
    return c == '{' ? json(in, ctx, sink) : csv(in, ctx, sink);
  }

  // ---- JSON ----

  private long json(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    PeerJson.OneDocument one = PeerJson.one(in, sink, "metrics object", "a summary file holds one");
    if (one.broken()) {
      return 1;
    }
    JsonNode doc = one.doc();
    long extra = one.extra();
    return extra + document(doc, ctx, sink);
  }

  /** AIPerf's --slice-duration export: profile_export_aiperf_timeslices.json / .csv. */
  private static final java.util.regex.Pattern TIMESLICES =
      java.util.regex.Pattern.compile("(?i).*_timeslices\\.(?:json|csv)(?:\\.gz|\\.zst)?");
  private static final String TIMESLICES_NOT_READ = "AIPerf's time-slice export (--slice-duration): the run's"
      + " figures per slice, which tokentime does not read; the run's own are in profile_export_aiperf.json";

  /** AIPerf's steady-state window export (2026): profile_export_aiperf_steady_state.json / .csv. */
  private static final java.util.regex.Pattern STEADY =
      java.util.regex.Pattern.compile("(?i).*_steady_state\\.(?:json|csv)(?:\\.gz|\\.zst)?");
  private static final String STEADY_CSV_HEAD = "# Steady-State Window Metadata";
  private static final String STEADY_NOT_READ = "AIPerf's steady-state export: the run's figures over its"
      + " detected steady window (ramp-up and ramp-down left out), which tokentime does not read; the run's"
      + " own are in profile_export_aiperf.json";

  @Override
  public String leaveOut(String fileName, java.util.Set<String> folder) {
    // ingested alone it is read, and rejected as what it is
    if (tool != Tool.AIPERF || folder.size() <= 1) {
      return null;
    }
    return TIMESLICES.matcher(fileName).matches() ? TIMESLICES_NOT_READ
        : STEADY.matcher(fileName).matches() ? STEADY_NOT_READ : null;
  }

  private long document(JsonNode doc, ParseContext ctx, RecordSink sink) {
    if (doc == null || !doc.isObject()) {
      sink.reject(1, "expected a JSON object of metrics", null, 0, 0);
      return 1;
    }
    if (tool == Tool.AIPERF && doc.path("timeslices").isArray()) {
      sink.reject(1, TIMESLICES_NOT_READ, null, 0, 0);
      return 1;
    }
    if (tool == Tool.AIPERF && doc.path("window_metadata").isObject() && doc.path("metrics").isObject()) {
      sink.reject(1, STEADY_NOT_READ, null, 0, 0);
      return 1;
    }
    JsonNode combinations = doc.get("per_combination_metrics");
    if (tool == Tool.AIPERF && combinations != null && combinations.isArray()) {
      return sweep(combinations, ctx, sink);
    }
    String run = ctx.defaultRun();
    Figures figures = new Figures(true);
    Double level = figures.level(run, level(doc.get("input_config")));
    int n = metrics(doc, run, level, figures, true);
    JsonNode records = doc.get("records"); // AIPerf's early-October-2025 layout
    if (records != null && records.isArray()) {
      for (JsonNode r : records) {
        if (r.isObject() && r.hasNonNull("tag")) {
          n += metric(r.get("tag").asText(), r, run, level, figures, true);
        }
      }
    } else if (records != null && records.isObject()) {
      n += metrics(records, run, level, figures, true);
    }
    if (tool == Tool.AIPERF) {
      n += errorSummary(doc.get("error_summary"), run, level, figures);
    }
    if (figures.problem != null) {
      sink.reject(1, figures.problem, null, 0, 0);
    } else if (n == 0) {
      sink.reject(1, "no metric of the form {\"unit\": ..., \"avg\": ...} found", null, 0, 0);
    } else {
      figures.emit(sink);
      sink.record();
    }
    return 1;
  }

  /**
   * AIPerf's {@code error_summary}: how many requests failed with each error ({@code [{"error_details":
   * {"code": 500, "type": "TimeoutError", "message": …}, "count": 5}]}), as reported_metrics
   * {@code error_count} with the error as its stat ({@code TimeoutError}, {@code 500 InternalServerError}):
   * for a run whose requests all failed, what they failed with (a summary file alone has no rows).
   */
  private static int errorSummary(JsonNode errors, String run, Double level, Figures sink) {
    if (errors == null || !errors.isArray()) {
      return 0;
    }
    java.util.Map<String, Double> counts = new java.util.LinkedHashMap<>();
    for (JsonNode e : errors) {
      JsonNode d = e.path("error_details");
      JsonNode count = e.get("count");
      if (count == null || !count.isIntegralNumber() || count.asLong() < 0) {
        continue;
      }
      String code = d.path("code").isIntegralNumber() ? d.get("code").asText() : null;
      String type = d.path("type").isTextual() && !d.get("type").asText().isBlank() ? d.get("type").asText() : null;
      String key = code == null && type == null ? "unknown" : code == null ? type : type == null ? code : code + " " + type;
      counts.merge(key, count.asDouble(), Double::sum);
    }
    counts.forEach((k, v) -> sink.reportedMetric(run, level, "error_count", k, v, "requests"));
    return counts.size();
  }

  /**
   * AIPerf's sweep aggregate ({@code profile_export_aiperf_sweep.json}: {@code aggregation_type}
   * sweep, one {@code per_combination_metrics} entry per swept value): each combination is a run
   * of its own (the file's run, then {@code #2}, {@code #3} …) at the level its {@code parameters}
   * name. Its {@code std}, {@code cv} and confidence bounds are across the trials of a value, not
   * across requests as a run's export has them: they are not kept under a run's statistics.
   */
  private long sweep(JsonNode combinations, ParseContext ctx, RecordSink sink) {
    int i = 0;
    int n = 0;
    // a sweep's statistics are across the trials of a value: a request count's mean may be 2044.5
    Figures figures = new Figures(false);
    for (JsonNode c : combinations) {
      i++;
      String run = i == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + i;
      Double level = figures.level(run, sweepLevel(c.path("parameters")));
      JsonNode m = c.get("metrics");
      if (m != null && m.isObject()) {
        n += metrics(m, run, level, figures, false);
      }
    }
    if (figures.problem != null) {
      sink.reject(1, figures.problem, null, 0, 0);
    } else if (n == 0) {
      sink.reject(1, "a sweep aggregate without a metric of the form {\"unit\": ..., \"avg\": ...}", null, 0, 0);
    } else {
      figures.emit(sink);
      sink.record();
    }
    return 1;
  }

  /** A combination's level: its concurrency, else its request rate. */
  private static Level sweepLevel(JsonNode parameters) {
    for (String kind : new String[] {"concurrency", "request_rate"}) {
      JsonNode v = parameters.get(kind);
      if (v != null && v.isNumber() && v.asDouble() > 0) {
        return new Level(kind, v.asDouble(), "AIPerf sweep aggregate parameters");
      }
    }
    return null;
  }

  /** Every {@code {"unit": …, stat: …}} member of {@code obj}; {@code withStd} as {@link #metric}. */
  private static int metrics(JsonNode obj, String run, Double level, Figures sink, boolean withStd) {
    int n = 0;
    Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
    while (it.hasNext()) {
      var e = it.next();
      if (e.getValue().isObject() && e.getValue().has("unit")) {
        n += metric(e.getKey(), e.getValue(), run, level, sink, withStd);
      }
    }
    return n;
  }

  /** {@code withStd}: the object's std is across requests (a run's export), not across trials. */
  private static int metric(String tag, JsonNode m, String run, Double level, Figures sink, boolean withStd) {
    String name = canonicalTag(tag);
    String unit = m.path("unit").asText("");
    int n = 0;
    Iterator<Map.Entry<String, JsonNode>> it = m.fields();
    while (it.hasNext()) {
      var s = it.next();
      String stat = s.getKey();
      if (isStat(stat) && (withStd || !stat.equals("std")) && s.getValue().isNumber()) {
        // count is how many values the statistics are of, not a figure in the metric's unit
        sink.reportedMetric(run, level, name, stat, s.getValue().asDouble(), stat.equals("count") ? "count" : unit);
        n++;
      }
    }
    return n;
  }

  /**
   * AIPerf's early-October-2025 tags, under the names every later version (and the CSV) uses; a
   * 2025 pre-release keyed its records by display name ("Time to First Token"): its tag.
   */
  static String canonicalTag(String tag) {
    return switch (tag) {
      case "ttft" -> "time_to_first_token";
      case "ttst" -> "time_to_second_token";
      default -> tag.chars().anyMatch(c -> c == ' ' || Character.isUpperCase(c)) ? ToolMetricNames.tagged(tag)[0] : tag;
    };
  }

  private static boolean isStat(String s) {
    return s.equals("avg") || s.equals("min") || s.equals("max") || s.equals("std") || s.equals("sum")
        || s.equals("count") || s.matches("p\\d+(\\.\\d+)?");
  }

  /** The run's level from the tool's recorded configuration (concurrency or request rate). */
  private static Level level(JsonNode config) {
    if (config == null) {
      return null;
    }
    Double conc = null;
    Double rate = null;
    // AIPerf 0.10+: the load is set per phase; the phase whose results count (not a warm-up) is the
    // run's. 0.10 names a rate phase's requests per second "rate" ({"type": "poisson", "rate": 1.0})
    JsonNode phases = config.get("phases");
    if (phases != null && phases.isArray()) {
      for (JsonNode ph : phases) {
        if (ph.isObject() && !ph.path("exclude_from_results").asBoolean(false)) {
          conc = positive(ph.get("concurrency"));
          Double requestRate = positive(ph.get("request_rate"));
          rate = conc != null ? null : requestRate != null ? requestRate : positive(ph.get("rate"));
          if (conc != null || rate != null) {
            break;
          }
        }
      }
    }
    if (conc == null && rate == null) {
      conc = find(config, "concurrency");
      rate = conc == null ? find(config, "request_rate") : null;
    }
    String kind = conc != null ? "concurrency" : rate != null ? "request_rate" : null;
    Double level = conc != null ? conc : rate;
    return kind == null ? null : new Level(kind, level, "tool summary input_config");
  }

  private static Double positive(JsonNode v) {
    return v != null && v.isNumber() && v.asDouble() > 0 ? v.asDouble() : null;
  }

  private static Double find(JsonNode n, String key) {
    if (n.isObject()) {
      JsonNode v = n.get(key);
      if (v != null && v.isNumber() && v.asDouble() > 0) {
        return v.asDouble();
      }
      Iterator<JsonNode> it = n.elements();
      while (it.hasNext()) {
        Double d = find(it.next(), key);
        if (d != null) {
          return d;
        }
      }
    }
    return null;
  }

  // ---- CSV ----

  private static final java.util.regex.Pattern PLAIN_NUMBER =
      java.util.regex.Pattern.compile("-?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?");

  /**
   * A document's (or a CSV row's) figures, range-checked (Checked.signedFigureProblem: genai-perf's
   * and AIPerf's summaries hold real negative figures) and held until all are read: one bad figure
   * rejects the whole, and nothing of it is stored.
   */
  private static final class Figures {
    private final List<Figure> held = new java.util.ArrayList<>();
    private final Map<String, Level> levels = new java.util.LinkedHashMap<>();
    private final boolean wholeCounts;
    String problem;

    /** {@code wholeCounts}: a count is a whole number (a run's own figures; not means across trials). */
    Figures(boolean wholeCounts) {
      this.wholeCounts = wholeCounts;
    }

    /** The run's level, registered with the figures (only when they are stored); its value or null. */
    Double level(String run, Level level) {
      if (level == null) {
        return null;
      }
      levels.put(run, level);
      return level.value();
    }

    void reportedMetric(String run, Double level, String metric, String stat, double v, String unit) {
      String p = dev.tokentime.ingest.Checked.signedFigureProblem(metric, stat, v, unit, wholeCounts);
      if (p != null && problem == null) {
        problem = p;
      }
      held.add(new Figure(run, level != null, metric, stat, v, unit));
    }

    /** The runs' levels, then the figures (a level the sink refuses leaves its run's figures without one). */
    void emit(RecordSink sink) {
      Map<String, Double> accepted = new java.util.HashMap<>();
      levels.forEach((run, l) -> {
        if (sink.runLevel(run, l.kind(), l.value(), null, l.source()) == null) {
          accepted.put(run, l.value());
        }
      });
      for (Figure f : held) {
        sink.reportedMetric(f.run(), f.leveled() ? accepted.get(f.run()) : null, f.metric(), f.stat(), f.value(), f.unit());
      }
    }
  }

  /** A figure held until its document or row is known good; {@code leveled}: read with its run's level. */
  private record Figure(String run, boolean leveled, String metric, String stat, double value, String unit) {}

  /** A run's level as the tool's file states it: its kind (concurrency, request_rate), value and where it was read. */
  private record Level(String kind, double value, String source) {}

  private long csv(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    String run = ctx.defaultRun();
    String[][] header = {null};
    boolean[] steady = {false};
    return TextLines.read(in, sink, "a summary row", (lineNo, text) -> {
      String line = text;
      if (line.startsWith("\uFEFF")) {
        line = line.substring(1);
      }
      if (steady[0]) {
        sink.otherLine();
        return null;
      }
      if (lineNo == 1 && tool == Tool.AIPERF && line.startsWith(STEADY_CSV_HEAD)) {
        steady[0] = true; // the file's first line stands for it
        return STEADY_NOT_READ;
      }
      if (line.isBlank()) {
        header[0] = null; // a blank line ends a table
        sink.otherLine();
        return null;
      }
      List<String> cells = cells(line);
      if (cells == null) {
        return "not a CSV row (unbalanced quotes)";
      }
      if (header[0] == null) {
        header[0] = cells.toArray(new String[0]);
        sink.otherLine();
        return null;
      }
      if (!header[0][0].equals("Metric")) {
        sink.otherLine(); // a table of another kind (GPU telemetry)
        return null;
      }
      if (cells.size() != header[0].length) {
        return "row has " + cells.size() + " fields but the header has " + header[0].length;
      }
      String[] name = ToolMetricNames.tagged(cells.get(0));
      int n = 0;
      Figures row = new Figures(true);
      for (int i = 1; i < cells.size(); i++) {
        String v = cells.get(i).strip().replace(",", "");
        if (v.isEmpty() || v.equalsIgnoreCase("N/A")) {
          continue;
        }
        if (v.equals("inf") && name[0].startsWith("adj_")) {
          // AIPerf's error-adjusted statistics count each failed request as an unbounded latency:
          // Python writes such a statistic "inf" (the JSON null); no figure, the row's others kept
          continue;
        }
        if (!PLAIN_NUMBER.matcher(v).matches()) {
          // Java's parser takes "NaN", "Infinity", "0x1p3" and "5f"; none is a figure the tool writes
          return header[0][i] + ": expected a number, got " + PeerJson.quote(cells.get(i));
        }
        double d = Double.parseDouble(v);
        String stat = header[0][i].equalsIgnoreCase("Value") ? "avg" : header[0][i];
        row.reportedMetric(run, null, name[0], stat, d, stat.equalsIgnoreCase("count") ? "count" : name[1]);
        n++;
      }
      if (row.problem != null) {
        return row.problem; // nothing of the row stored
      }
      if (n == 0) {
        sink.otherLine();
      } else {
        row.emit(sink);
        sink.record();
      }
      return null;
    });
  }

  private static List<String> cells(String line) {
    return CsvCells.of(line);
  }
}
