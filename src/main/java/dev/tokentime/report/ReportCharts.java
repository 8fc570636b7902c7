package dev.tokentime.report;

import dev.tokentime.analysis.SloSpec;
import dev.tokentime.report.ChartSpec.Axis;
import dev.tokentime.report.ChartSpec.Kind;
import dev.tokentime.report.ChartSpec.Mark;
import dev.tokentime.report.ChartSpec.Point;
import dev.tokentime.report.ChartSpec.Series;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/** The charts of a report, as {@link ChartSpec}s built from {@link ReportData}'s tables. */
final class ReportCharts {
  private ReportCharts() {}

  /** Stalls marked per run on its timeline. */
  static final int STALL_MARKS = 30;

  // --- TTFT ---

  /**
   * TTFT at P50/P90/P95/P99 of every run, each bar split into pre-queue, queue and prefill; into
   * pre-queue and queue + prefill where the source has no scheduled times (ttft_breakdown's
   * parts_basis); whole where it has no part at all.
   */
  static ChartSpec ttft(ReportData d) {
    List<String> cats = new ArrayList<>();
    List<Point> pre = new ArrayList<>();
    List<Point> queue = new ArrayList<>();
    List<Point> prefill = new ArrayList<>();
    List<Point> both = new ArrayList<>();
    List<Point> whole = new ArrayList<>();
    for (Row r : d.breakdown()) {
      if (r.isMissing("ttft_ms")) {
        continue;
      }
      int i = cats.size();
      cats.add(r.getString("run") + " P" + r.getLong("percentile"));
      double ttft = r.getDouble("ttft_ms");
      boolean split = !r.isMissing("queue_share") && !r.isMissing("prefill_share");
      boolean coarse = !split && !r.isMissing("queue_prefill_share");
      pre.add(Point.of(i, split || coarse ? share(r, "pre_queue_share") * ttft : null));
      queue.add(Point.of(i, split ? share(r, "queue_share") * ttft : null));
      prefill.add(Point.of(i, split ? share(r, "prefill_share") * ttft : null));
      both.add(Point.of(i, coarse ? share(r, "queue_prefill_share") * ttft : null));
      whole.add(Point.of(i, split || coarse ? null : ttft));
    }
    // a linear axis from 0 to the slowest run's TTFT hides the fast runs' bars: past a span of
    // LOG_SPAN the axis is logarithmic (the parts' lengths are then not their shares: the table is)
    boolean log = spansDecades(whole, pre, queue, prefill, both);
    List<Series> series = new ArrayList<>();
    series.add(new Series("pre-queue", Kind.BAR, "ttft", false, pre));
    series.add(new Series("queue", Kind.BAR, "ttft", false, queue));
    series.add(new Series("prefill", Kind.BAR, "ttft", false, prefill));
    boolean anyBoth = both.stream().anyMatch(p -> p.y() != null);
    if (anyBoth) {
      series.add(new Series("queue + prefill (not split)", Kind.BAR, "ttft", false, both));
    }
    if (whole.stream().anyMatch(p -> p.y() != null)) {
      series.add(new Series("TTFT (no split)", Kind.BAR, "ttft", false, whole));
    }
    return new ChartSpec("ttft-split", "TTFT by run and percentile, split into pre-queue, queue and prefill",
        "Each bar is the run's TTFT at that percentile, divided by the parts' shares over the requests at or "
            + "above it (ttft_breakdown)."
            + (anyBoth ? " \"Queue + prefill (not split)\": the source logs when the engine took the request but not "
                + "when it was scheduled (vLLM's text log), so queue and prefill are one part." : "")
            + " \"No split\": the source has no queued time to split TTFT at."
            + (log ? " Logarithmic axis (the runs' TTFT spans more than " + (int) LOG_SPAN + "x): the parts' lengths "
                + "are not their shares; the table below has them." : ""),
        Axis.categories("run and percentile", cats), log ? Axis.log("TTFT", "ms") : Axis.value("TTFT", "ms"), null,
        series, sloMarks(d, Set.of("ttft_ms")));
  }

  /** Values spanning more than this factor get a logarithmic axis. */
  static final double LOG_SPAN = 30;

  /**
   * Whether the bars (stacked per x) or points of these series span more than LOG_SPAN: the
   * largest total over the smallest positive one.
   */
  @SafeVarargs
  static boolean spansDecades(List<Point>... series) {
    Map<Double, Double> totals = new LinkedHashMap<>();
    for (List<Point> s : series) {
      for (Point p : s) {
        if (p.y() != null) {
          totals.merge(p.x(), p.y(), Double::sum);
        }
      }
    }
    return spans(totals.values());
  }

  static boolean spans(java.util.Collection<Double> values) {
    double min = Double.MAX_VALUE;
    double max = 0;
    for (Double v : values) {
      if (v != null && v > 0) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
    return max > 0 && max / min > LOG_SPAN;
  }

  /** A latency axis, logarithmic when the lines' values span more than LOG_SPAN. */
  private static Axis latencyAxis(List<Series> lines) {
    List<Double> values = new ArrayList<>();
    lines.forEach(l -> l.points().forEach(p -> values.add(p.y())));
    return spans(values) ? Axis.log("latency", "ms") : Axis.value("latency", "ms");
  }

  private static double share(Row r, String col) {
    return r.isMissing(col) ? 0 : r.getDouble(col);
  }

  // --- ITL ---

  /** The CDF of the chunk gaps of every run; logarithmic when the runs span more than two decades. */
  static ChartSpec itlCdf(ReportData d) {
    Map<String, List<Point>> byRun = new LinkedHashMap<>();
    double min = Double.MAX_VALUE;
    double max = 0;
    for (Row r : d.histogram()) {
      double x = r.getDouble("hi_ms");
      byRun.computeIfAbsent(r.getString("run"), k -> new ArrayList<>())
          .add(Point.of(x, 100 * r.getDouble("cumulative_share")));
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    boolean log = max / min > 100;
    List<Series> series = new ArrayList<>();
    byRun.forEach((run, pts) -> series.add(new Series(run, Kind.LINE, null, false, pts)));
    List<Mark> marks = new ArrayList<>();
    for (SloSpec.Term t : terms(d)) {
      if (t.latency() && (t.metric().equals("itl_ms") || t.metric().equals("tpot_ms"))) {
        marks.add(Mark.vertical(t.bound(), "SLO " + t.describe()));
      }
    }
    marks.add(Mark.horizontal(50, "P50", false));
    marks.add(Mark.horizontal(95, "P95", false));
    return new ChartSpec("itl-cdf", "ITL: cumulative share of chunk gaps",
        "Share of each run's gaps between consecutive content chunks below x (itl_histogram; the last "
            + "bucket of a run holds everything past its cap).",
        log ? Axis.log("gap between chunks", "ms") : Axis.value("gap between chunks", "ms"),
        Axis.value("gaps below", "%"), null, series, marks);
  }

  /** One histogram per run (bucket widths differ between runs: a nice number near P99 / 25). */
  static List<ChartSpec> itlHistograms(ReportData d) {
    Map<String, List<Row>> byRun = new LinkedHashMap<>();
    for (Row r : d.histogram()) {
      byRun.computeIfAbsent(r.getString("run"), k -> new ArrayList<>());
    }
    List<ChartSpec> out = new ArrayList<>();
    for (String run : byRun.keySet()) {
      Table t = d.histogram().where(d.histogram().stringColumn("run").isEqualTo(run));
      List<String> cats = new ArrayList<>();
      List<Point> pts = new ArrayList<>();
      double width = 0;
      for (Row r : t) {
        width = r.getDouble("width_ms");
        cats.add((r.getBoolean("folded") ? "≥ " : "") + Fmt.num(r.getDouble("lo_ms")));
        pts.add(new Point(cats.size() - 1, 100 * r.getDouble("share"), r.getLong("count") + " gaps"));
      }
      out.add(new ChartSpec("itl-hist-" + slug(run), "ITL histogram: " + run,
          "Buckets of " + Fmt.num(width) + " ms by lower edge; share of the run's chunk gaps (itl_histogram).",
          Axis.categories("gap, bucket from (ms)", cats), Axis.value("gaps", "%"), null,
          List.of(new Series("share of gaps", Kind.BAR, null, false, pts)), List.of()));
    }
    return out;
  }

  // --- levels ---

  /** Latency, ITL and throughput against the level, per kind of sweep with at least two levels. */
  static List<ChartSpec> levels(ReportData d) {
    List<ChartSpec> out = new ArrayList<>();
    Set<String> kinds = new LinkedHashSet<>();
    for (Row r : d.levels()) {
      if (!r.isMissing("level_kind") && !r.getString("level_kind").isEmpty()) {
        kinds.add(r.getString("level_kind"));
      }
    }
    for (String kind : kinds) {
      Table t = d.levels().where(d.levels().stringColumn("level_kind").isEqualTo(kind));
      if (t.rowCount() < 2) {
        continue;
      }
      List<String> cats = new ArrayList<>();
      for (Row r : t) {
        cats.add(Fmt.level(r.getDouble("level")));
      }
      String axis = kind.replace('_', ' ');
      Axis x = Axis.categories(axis, cats);
      List<Mark> knee = kneeMarks(d, kind, cats);
      String slug = slug(kind);
      List<Mark> m1 = new ArrayList<>(knee);
      m1.addAll(sloMarks(d, Set.of("ttft_ms", "e2e_ms")));
      List<Series> latency = List.of(
          line(t, "TTFT P50", "ttft_p50_ms"), line(t, "TTFT P95", "ttft_p95_ms"), line(t, "TTFT P99", "ttft_p99_ms"),
          line(t, "E2E P50", "e2e_p50_ms"), line(t, "E2E P95", "e2e_p95_ms"), line(t, "E2E P99", "e2e_p99_ms"));
      out.add(new ChartSpec("latency-vs-" + slug, "TTFT and E2E percentiles vs " + axis,
          "Median over repeats per level (level_summary); the knee as level_knee finds it; SLO bounds when given.",
          x, latencyAxis(latency), null, latency, m1));
      List<Mark> m2 = new ArrayList<>(knee);
      m2.addAll(sloMarks(d, Set.of("itl_ms", "tpot_ms")));
      List<Series> itl = List.of(line(t, "ITL P50", "itl_p50_ms"), line(t, "ITL P95", "itl_p95_ms"),
          line(t, "ITL P99", "itl_p99_ms"), line(t, "TPOT P50", "tpot_p50_ms"), line(t, "TPOT P99", "tpot_p99_ms"));
      out.add(new ChartSpec("itl-vs-" + slug, "ITL and TPOT percentiles vs " + axis,
          "ITL pools the chunk gaps; TPOT is per request (level_summary).", x, latencyAxis(itl), null, itl, m2));
      List<Mark> m3 = new ArrayList<>(knee);
      for (SloSpec.Term term : terms(d)) {
        if (!term.latency()) {
          m3.add(Mark.threshold(term.bound(), "SLO " + term.describe(), term.metric().equals("requests_per_s")));
        }
      }
      List<Point> tokens = new ArrayList<>();
      List<Point> requests = new ArrayList<>();
      int i = 0;
      for (Row r : t) {
        tokens.add(new Point(i, val(r, "output_tokens_per_s"), r.isMissing("output_tokens_per_s_min") ? null
            : "repeats " + Fmt.num(r.getDouble("output_tokens_per_s_min")) + "–" + Fmt.num(r.getDouble("output_tokens_per_s_max"))));
        requests.add(Point.of(i, val(r, "requests_per_s")));
        i++;
      }
      out.add(new ChartSpec("throughput-vs-" + slug, "Throughput vs " + axis,
          "Output tokens/s and requests/s over the measured window, median over repeats (level_summary).", x,
          Axis.value("output throughput", "tokens/s"), Axis.value("request throughput", "requests/s"), List.of(
              new Series("output tokens/s", Kind.BAR, null, false, tokens),
              new Series("requests/s", Kind.LINE, null, true, requests)), m3));
    }
    return out;
  }

  private static Series line(Table t, String name, String col) {
    List<Point> pts = new ArrayList<>();
    int i = 0;
    for (Row r : t) {
      pts.add(Point.of(i++, val(r, col)));
    }
    return new Series(name, Kind.LINE, null, false, pts);
  }

  private static List<Mark> kneeMarks(ReportData d, String kind, List<String> cats) {
    List<Mark> out = new ArrayList<>();
    for (Row r : d.knee()) {
      if (kind.equals(r.getString("level_kind")) && !r.isMissing("is_knee") && r.getBoolean("is_knee")) {
        int i = cats.indexOf(Fmt.level(r.getDouble("level")));
        if (i >= 0) {
          out.add(Mark.vertical(i, "knee"));
        }
      }
    }
    return out;
  }

  private static List<Mark> sloMarks(ReportData d, Set<String> metrics) {
    List<Mark> out = new ArrayList<>();
    for (SloSpec.Term t : terms(d)) {
      if (t.latency() && metrics.contains(t.metric())) {
        out.add(Mark.threshold(t.bound(), "SLO " + t.describe(), false));
      }
    }
    return out;
  }

  private static List<SloSpec.Term> terms(ReportData d) {
    return d.sloSpec() == null ? List.of() : d.sloSpec().terms();
  }

  // --- over time ---

  /** Per run on its time axis (report_clocks): load (with slow requests) and batch size with tokens/s (with stalls). */
  static List<ChartSpec> timelines(ReportData d, String run) {
    List<ChartSpec> out = new ArrayList<>();
    Table t = d.timeline().where(d.timeline().stringColumn("run").isEqualTo(run));
    if (t.rowCount() == 0) {
      return out;
    }
    String slug = slug(run);
    Axis time = Axis.value("time since the run's " + origin(d, run), "s");
    List<Series> load = seriesOf(t, "load", false);
    List<Point> slowTtft = new ArrayList<>();
    List<Point> slowE2e = new ArrayList<>();
    for (Row r : d.outliers()) {
      if (!run.equals(r.getString("run")) || r.isMissing("arrival_ns")) {
        continue;
      }
      Double x = seconds(d, run, r.isMissing("clock_id") ? null : r.getLong("clock_id"), r.getLong("arrival_ns"));
      if (x == null) {
        continue;
      }
      if (r.getBoolean("slow_ttft") && !r.isMissing("ttft_ms")) {
        slowTtft.add(new Point(x, r.getDouble("ttft_ms"), "request " + r.getString("request_id")));
      }
      if (r.getBoolean("slow_e2e") && !r.isMissing("e2e_ms")) {
        slowE2e.add(new Point(x, r.getDouble("e2e_ms"), "request " + r.getString("request_id")));
      }
    }
    boolean outliers = !slowTtft.isEmpty() || !slowE2e.isEmpty();
    if (!slowTtft.isEmpty()) {
      load.add(new Series("TTFT ≥ P99 (by arrival)", Kind.SCATTER, null, true, slowTtft));
    }
    if (!slowE2e.isEmpty()) {
      load.add(new Series("E2E ≥ P99 (by arrival)", Kind.SCATTER, null, true, slowE2e));
    }
    out.add(new ChartSpec("load-" + slug, "Requests in flight, queued and running: " + run,
        "Time-weighted means per bucket (concurrency_timeline; waiting from engine stats or steps: "
            + "queue_depth_timeline, a sample where the series says so). Points: the run's slowest requests "
            + "at their arrival (TTFT or E2E ≥ P99).",
        time, Axis.value("requests", "count"),
        outliers ? Axis.value("latency of slow requests", "ms") : null, load, List.of()));

    List<Series> batch = seriesOf(t, "batch", false);
    batch.addAll(seriesOf(t, "tokens", true));
    List<Mark> stalls = new ArrayList<>();
    double span = t.doubleColumn("x_s").max() - t.doubleColumn("x_s").min();
    int n = 0;
    for (Row r : d.stalls()) {
      if (!run.equals(r.getString("run")) || n >= STALL_MARKS) {
        continue;
      }
      Long clock = r.isMissing("clock_id") ? null : r.getLong("clock_id");
      Double x0 = seconds(d, run, clock, r.getLong("t0_ns"));
      Double x1 = seconds(d, run, clock, r.getLong("t1_ns"));
      if (x0 != null && x1 != null) {
        // a 50 ms stall on a ten-minute axis would be invisible: give the band a minimum width
        double w = Math.max(x1 - x0, span / 300);
        stalls.add(Mark.band(x0, x0 + w, "stall " + Fmt.ms(r.getDouble("gap_ms")) + " (request "
            + (r.isMissing("request_id") ? "?" : r.getString("request_id")) + ")"));
        n++;
      }
    }
    if (!batch.isEmpty()) {
      boolean tokens = batch.stream().anyMatch(Series::rightAxis);
      boolean left = batch.stream().anyMatch(s -> !s.rightAxis());
      out.add(new ChartSpec("batch-" + slug, "Effective batch size and output tokens/s: " + run,
          "Batch size by method (batch_size_timeline: steps exact, or a sample where the series says so, as "
              + "figure_basis does; tokens from chunk timestamps, intervals from scheduled to last token); "
              + "tokens/s per bucket (throughput_timeline). Shaded: the longest ITL stalls (itl_stalls).",
          time,
          left ? Axis.value("batch size", "requests") : Axis.value("output throughput", "tokens/s"),
          left && tokens ? Axis.value("output throughput", "tokens/s") : null,
          left ? batch : batch.stream().map(s -> new Series(s.name(), s.kind(), s.stack(), false, s.points())).toList(),
          stalls));
    }
    return out;
  }

  /** The engine's own stats per source of the run: running, waiting and KV usage over time. */
  static List<ChartSpec> engine(ReportData d, String run) {
    List<ChartSpec> out = new ArrayList<>();
    Table t = d.engine().where(d.engine().stringColumn("run").isEqualTo(run));
    Map<String, List<Row>> bySource = new LinkedHashMap<>();
    for (Row r : t) {
      String key = r.getLong("source_id") + "\u0000" + r.getString("instance");
      bySource.computeIfAbsent(key, k -> new ArrayList<>());
    }
    for (String key : bySource.keySet()) {
      long source = Long.parseLong(key.substring(0, key.indexOf('\u0000')));
      String instance = key.substring(key.indexOf('\u0000') + 1);
      Table s = t.where(t.longColumn("source_id").isEqualTo(source).and(t.stringColumn("instance").isEqualTo(instance)));
      List<Point> running = new ArrayList<>();
      List<Point> waiting = new ArrayList<>();
      List<Point> kv = new ArrayList<>();
      String format = "";
      for (Row r : s) {
        format = r.getString("format");
        double x = r.getDouble("x_s");
        running.add(Point.of(x, val(r, "running")));
        waiting.add(Point.of(x, val(r, "waiting")));
        kv.add(Point.of(x, val(r, "kv_pct")));
      }
      List<Series> series = new ArrayList<>(List.of(new Series("running", Kind.LINE, null, false, running),
          new Series("waiting", Kind.LINE, null, false, waiting)));
      boolean hasKv = kv.stream().anyMatch(p -> p.y() != null);
      if (hasKv) {
        series.add(new Series("KV cache usage", Kind.LINE, null, true, kv));
      }
      out.add(new ChartSpec("engine-" + slug(run) + "-" + source + (instance.isEmpty() ? "" : "-" + slug(instance)),
          "Engine stats: " + run + ", " + format + (instance.isEmpty() ? "" : " " + instance) + " (source " + source + ")",
          "Snapshots of the engine's scheduler (engine_timeline): a gap in the snapshots breaks the lines, "
              + "it is never filled. Time on the engine's own clock, from its first snapshot.",
          Axis.value("time since the first snapshot", "s"), Axis.value("requests", "count"),
          hasKv ? Axis.value("KV cache usage", "%") : null, series, List.of()));
    }
    return out;
  }

  /** Series of one chart of the timeline table, a gap longer than 1.5 buckets as a break. */
  private static List<Series> seriesOf(Table t, String chart, boolean right) {
    Map<String, List<Point>> by = new LinkedHashMap<>();
    Map<String, Double> last = new LinkedHashMap<>();
    for (Row r : t) {
      if (!chart.equals(r.getString("chart"))) {
        continue;
      }
      String name = r.getString("series");
      List<Point> pts = by.computeIfAbsent(name, k -> new ArrayList<>());
      double x = r.getDouble("x_s");
      Double prev = last.get(name);
      if (prev != null && x - prev > 1.5 * r.getDouble("width_s")) {
        pts.add(Point.of((prev + x) / 2, null));
      }
      pts.add(Point.of(x, val(r, "y")));
      last.put(name, x);
    }
    List<Series> out = new ArrayList<>();
    by.forEach((name, pts) -> {
      if (pts.stream().anyMatch(p -> p.y() != null)) {
        out.add(new Series(name, Kind.LINE, null, right, pts));
      }
    });
    return out;
  }

  /** What t = 0 of the run's time axis is (report_clocks.origin): its first arrival or first engine step. */
  private static String origin(ReportData d, String run) {
    for (Row r : d.clocks()) {
      if (run.equals(r.getString("run")) && !r.isMissing("origin")) {
        return r.getString("origin");
      }
    }
    return "first arrival";
  }

  /** Seconds after the run's axis origin for a timestamp on a clock placed on its axis, else null. */
  static Double seconds(ReportData d, String run, Long clock, Long ns) {
    if (clock == null || ns == null) {
      return null;
    }
    for (Row r : d.clocks()) {
      if (run.equals(r.getString("run")) && r.getLong("clock_id") == clock) {
        return (ns - r.getLong("origin_ns")) / 1e9;
      }
    }
    return null;
  }

  private static Double val(Row r, String col) {
    return r.isMissing(col) ? null : r.getDouble(col);
  }

  /** An id-safe form of a name from the logs: letters, digits and dashes only, plus a hash. */
  static String slug(String s) {
    String base = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    if (base.length() > 40) {
      base = base.substring(0, 40);
    }
    return base.equals(s) ? base : base + "-" + Integer.toHexString(s.hashCode() & 0xfffff);
  }
}
