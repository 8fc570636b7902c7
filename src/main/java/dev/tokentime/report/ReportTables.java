package dev.tokentime.report;

import dev.tokentime.analysis.SloReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/** The tables of a report, chosen from {@link ReportData}'s Tablesaw tables, for HTML and Markdown alike. */
final class ReportTables {
  private ReportTables() {}

  static TableView runs(ReportData d) {
    return TableView.of("runs", "Runs", "Measured requests (failed ones included in the window, not in "
        + "throughput); throughputs over the measured window (run_summary). For a run whose files hold no "
        + "request rows (a result file alone), the requests its load-test tool counted (tool_run_counts).", d.runs(), List.of(
        TableView.text("run", "run"),
        TableView.of("level", false, r -> Fmt.levelLabel(r.getString("level_kind"), r.getDouble("level"), "")),
        TableView.num("requests", "requests"),
        TableView.num("ok", "ok_requests"),
        TableView.optionalNum("of the ok, no end in the log", "unfinished_requests"),
        TableView.num("failed", "failed_requests"),
        TableView.optionalNum("ok (tool's count)", "tool_ok_requests"),
        TableView.optionalNum("failed (tool's count)", "tool_failed_requests"),
        TableView.num("excluded", "excluded_requests"),
        TableView.num("window (s)", "duration_s"),
        TableView.num("output tokens/s", "output_tokens_per_s"),
        TableView.num("requests/s", "requests_per_s"),
        TableView.num("mean input (tokens)", "mean_input_tokens"),
        TableView.num("mean output (tokens)", "mean_output_tokens")));
  }

  /**
   * DistServe's goodput per sweep in a sentence (report_goodput): its note says whether it is a
   * level that was run or interpolated between two, so a figure like 5.2 never reads as a level run.
   */
  static List<String> goodput(ReportData d) {
    List<String> out = new ArrayList<>();
    if (d.goodput() == null) {
      return out;
    }
    for (Row r : d.goodput()) {
      out.add("DistServe goodput of the " + r.getString("level_kind").replace('_', ' ') + " sweep (the highest "
          + "level at which " + Fmt.pct(r.getDouble("attainment_target")) + " of requests meet the per-request "
          + "targets): " + r.getString("goodput_note") + ".");
    }
    return out;
  }

  static TableView latency(ReportData d) {
    List<TableView.Col> cols = new ArrayList<>(List.of(TableView.text("run", "run")));
    for (String m : List.of("ttft", "queue", "prefill", "itl", "tpot", "e2e")) {
      for (String p : List.of("p50", "p95", "p99")) {
        cols.add(TableView.num(label(m) + " " + p.toUpperCase(Locale.ROOT) + " (ms)", m + "_" + p + "_ms"));
      }
    }
    return TableView.of("latency", "Latency per run", "Percentiles over the ok measured requests, linear "
        + "interpolation (metric_stats); ITL pools the chunk gaps of all requests.", d.latency(), cols);
  }

  static TableView levels(ReportData d) {
    return TableView.of("levels", "Per level (the methodology's table)", "One row per concurrency level or "
        + "request rate (or per run without one); with repeats, each figure is the median over them "
        + "(level_summary); the tools' own counts for runs whose files hold no request rows (level_table).", d.levels(), List.of(
        TableView.of("level", false, r -> Fmt.levelLabel(r.getString("level_kind"), r.getDouble("level"), r.getString("label"))),
        TableView.num("runs", "runs"),
        TableView.num("requests", "requests"),
        TableView.num("failed", "failed_requests"),
        TableView.optionalNum("ok (tool's count)", "tool_ok_requests"),
        TableView.optionalNum("failed (tool's count)", "tool_failed_requests"),
        TableView.num("TTFT P50 (ms)", "ttft_p50_ms"),
        TableView.num("TTFT P90 (ms)", "ttft_p90_ms"),
        TableView.num("TTFT P99 (ms)", "ttft_p99_ms"),
        TableView.num("ITL P50 (ms)", "itl_p50_ms"),
        TableView.num("ITL P90 (ms)", "itl_p90_ms"),
        TableView.num("ITL P99 (ms)", "itl_p99_ms"),
        TableView.num("E2E P50 (ms)", "e2e_p50_ms"),
        TableView.num("E2E P90 (ms)", "e2e_p90_ms"),
        TableView.num("E2E P99 (ms)", "e2e_p99_ms"),
        TableView.num("output tokens/s", "output_tokens_per_s"),
        TableView.num("requests/s", "requests_per_s"),
        TableView.num("mean input", "mean_input_tokens"),
        TableView.num("mean output", "mean_output_tokens")));
  }

  static TableView breakdown(ReportData d) {
    return TableView.of("ttft-breakdown", "TTFT breakdown per run and percentile", "ttft_ms is the percentile of TTFT; the parts' "
        + "ms columns are each part's own percentile; the shares are over the requests at or above the "
        + "percentile: pre-queue, queue and prefill add up to 100 %. Queue + prefill is TTFT minus pre-queue, "
        + "the one figure for both where the source logs no scheduled time (vLLM's text log); with pre-queue "
        + "it adds up to 100 % (ttft_breakdown).", d.breakdown(), List.of(
        TableView.text("run", "run"),
        TableView.of("percentile", true, r -> "P" + r.getLong("percentile")),
        TableView.num("TTFT (ms)", "ttft_ms"),
        TableView.num("pre-queue (ms)", "pre_queue_ms"),
        TableView.num("queue (ms)", "queue_ms"),
        TableView.num("prefill (ms)", "prefill_ms"),
        TableView.num("queue + prefill (ms)", "queue_prefill_ms"),
        TableView.pct("pre-queue share", "pre_queue_share"),
        TableView.pct("queue share", "queue_share"),
        TableView.pct("prefill share", "prefill_share"),
        TableView.pct("queue + prefill share", "queue_prefill_share"),
        TableView.num("tail requests", "tail_requests")));
  }

  static TableView knee(ReportData d) {
    return TableView.of("knee", "Knee of the sweep", d.knee().rowCount() == 0 ? "" : d.knee().stringColumn("rule").get(0)
        + " (level_knee).", d.knee(), List.of(
        TableView.of("level", false, r -> Fmt.levelLabel(r.getString("level_kind"), r.getDouble("level"), "")),
        TableView.num("output tokens/s", "output_tokens_per_s"),
        TableView.num("E2E P95 (ms)", "e2e_p95_ms"),
        TableView.num("TTFT P95 (ms)", "ttft_p95_ms"),
        TableView.pct("throughput gain / doubling", "gain_per_doubling"),
        TableView.pct("E2E P95 growth / doubling", "latency_growth_per_doubling"),
        TableView.of("", false, r -> r.getBoolean("is_knee") ? "knee" : r.getBoolean("past_knee") ? "past the knee" : "")));
  }

  static TableView slo(SloReport s) {
    List<String> headers = new ArrayList<>(List.of("level", "verdict"));
    if (!s.levels().isEmpty()) {
      s.levels().get(0).terms().forEach(t -> headers.add(t.term()));
    }
    headers.add("attainment");
    List<List<String>> rows = new ArrayList<>();
    for (SloReport.Level l : s.levels()) {
      List<String> row = new ArrayList<>(List.of(l.label(), l.met() ? "met" : "MISSED"));
      for (SloReport.TermResult t : l.terms()) {
        row.add(t.value() == null ? "n/a" : Fmt.num(t.value()) + (t.met() ? " ok" : " MISSED"));
      }
      row.add(l.attainment() == null ? "" : dev.tokentime.output.Values.percent(l.attainment()));
      rows.add(row);
    }
    List<Boolean> numeric = new ArrayList<>();
    headers.forEach(h -> numeric.add(false));
    return new TableView("slo", "SLO: " + s.slo(), "Each level's figure is the median over its repeats; "
        + "attainment is the share of requests meeting the per-request targets (slo_attainment).", headers,
        numeric, rows);
  }

  static TableView stallSummary(ReportData d) {
    return TableView.of("stall-summary", "ITL stalls: what they coincide with", "Gaps above the threshold "
        + "(the run's P99 gap unless set); a stall may have several companions (stall_summary).",
        d.stallSummary(), List.of(
        TableView.text("run", "run"),
        TableView.num("threshold (ms)", "threshold_ms"),
        TableView.num("stalls", "stalls"),
        TableView.pct("prefill", "prefill_share"),
        TableView.pct("preemption", "preemption_share"),
        TableView.pct("batch jump", "batch_jump_share"),
        TableView.pct("KV near full", "kv_full_share"),
        TableView.pct("unexplained", "unexplained_share"),
        TableView.text("verdict", "verdict")));
  }

  static TableView stalls(ReportData d, int perRun) {
    Table t = topPerRun(d.stalls(), perRun);
    return TableView.of("stalls", "Longest ITL stalls", "The " + perRun + " longest gaps per run (itl_stalls); "
        + "t is seconds after the run's first arrival.", t, List.of(
        TableView.text("run", "run"),
        TableView.text("request id", "request_id"),
        TableView.of("t (s)", true, r -> timeOf(d, r.getString("run"), r.isMissing("clock_id") ? null : r.getLong("clock_id"), r.getLong("t0_ns"))),
        TableView.num("gap (ms)", "gap_ms"),
        TableView.num("other prefills", "other_prefills"),
        TableView.of("preempted", false, r -> yes(r, "preempted")),
        TableView.of("batch jump", false, r -> yes(r, "batch_jump")),
        TableView.of("KV near full", false, r -> yes(r, "kv_near_full"))));
  }

  static TableView outliers(ReportData d, int perRun) {
    Table t = topPerRun(d.outliers(), perRun);
    return TableView.of("outliers", "Slowest requests", "Ok measured requests whose TTFT or E2E is at or "
        + "above the run's P99, slowest E2E first (request_latency).", t, List.of(
        TableView.text("run", "run"),
        TableView.text("request id", "request_id"),
        TableView.of("arrival t (s)", true, r -> timeOf(d, r.getString("run"), r.isMissing("clock_id") ? null : r.getLong("clock_id"),
            r.isMissing("arrival_ns") ? null : r.getLong("arrival_ns"))),
        TableView.num("TTFT (ms)", "ttft_ms"),
        TableView.num("E2E (ms)", "e2e_ms"),
        TableView.num("input (tokens)", "prompt_tokens"),
        TableView.num("output (tokens)", "output_tokens")));
  }

  static TableView failures(ReportData d) {
    return TableView.of("failures", "Failed requests", "By status, HTTP status and the error text the "
        + "source wrote (request_failures).", d.failures(), List.of(
        TableView.text("run", "run"),
        TableView.text("status", "status"),
        TableView.text("HTTP", "http_status"),
        TableView.text("error", "error"),
        TableView.num("requests", "requests"),
        TableView.text("e.g. request id", "example_request_id")));
  }

  static TableView basis(ReportData d) {
    return TableView.of("basis", "What each figure rests on", "Sources and the coarsest clock resolution "
        + "per figure: a figure from a 1 s clock is whole seconds however it is printed (figure_basis).",
        d.basis(), List.of(
        TableView.text("run", "run"),
        TableView.text("figure", "figure"),
        TableView.num("values", "values"),
        TableView.of("resolution", true, r -> r.isMissing("coarsest_resolution_ns") ? "unknown"
            : resolution(r.getLong("coarsest_resolution_ns"))),
        TableView.text("basis", "basis")));
  }

  static TableView definitions(ReportData d) {
    return TableView.of("definitions", "Definitions", "As the views document them (COMMENT ON; docs/metrics.md).",
        d.definitions(), List.of(
        TableView.text("figure", "figure"),
        TableView.text("view", "source"),
        TableView.text("definition", "definition")));
  }

  // --- helpers ---

  static String label(String metric) {
    return switch (metric) {
      case "ttft" -> "TTFT";
      case "itl" -> "ITL";
      case "tpot" -> "TPOT";
      case "e2e" -> "E2E";
      default -> metric;
    };
  }

  static String resolution(long ns) {
    if (ns >= 1_000_000_000L && ns % 1_000_000_000L == 0) {
      return ns / 1_000_000_000L + " s";
    }
    if (ns >= 1_000_000 && ns % 1_000_000 == 0) {
      return ns / 1_000_000 + " ms";
    }
    if (ns >= 1000 && ns % 1000 == 0) {
      return ns / 1000 + " µs";
    }
    return ns + " ns";
  }

  private static String yes(Row r, String col) {
    return !r.isMissing(col) && r.getBoolean(col) ? "yes" : "";
  }

  /** Seconds after the run's first arrival, when the timestamp is on the run's request clock. */
  static String timeOf(ReportData d, String run, Long clock, Long ns) {
    Double t = ReportCharts.seconds(d, run, clock, ns);
    return t == null ? "" : Fmt.num(t);
  }

  /** The first n rows of each run (the table is ordered within runs). */
  static Table topPerRun(Table t, int n) {
    Table out = t.emptyCopy();
    String prev = null;
    int k = 0;
    for (Row r : t) {
      String run = r.getString("run");
      k = run.equals(prev) ? k + 1 : 0;
      prev = run;
      if (k < n) {
        out.append(r);
      }
    }
    return out;
  }
}
