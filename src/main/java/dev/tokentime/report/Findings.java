package dev.tokentime.report;

import dev.tokentime.analysis.SloReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * The top findings of a report in plain sentences: where TTFT went (ttft_breakdown), where the
 * stalls came from (stall_summary), which level to run at (the SLO check, else level_knee), what
 * failed, what was rejected, and which figures rest on a coarse clock. Plain strings: the
 * renderers escape them, since run names and request ids come from the logs.
 */
final class Findings {
  private Findings() {}

  static List<String> of(ReportData d) {
    List<String> out = new ArrayList<>();
    ttft(d, out);
    stalls(d, out);
    level(d, out);
    slowest(d, out);
    failures(d, out);
    basis(d, out);
    long rejected = d.summary().rejectedLines();
    out.add(rejected == 0 ? "Every input line was used: none was rejected."
        : rejected + " input line" + (rejected == 1 ? " was" : "s were") + " rejected and left out of every figure "
            + "(tokentime query rejects lists file, line and reason).");
    return out;
  }

  /**
   * Which part dominates the TTFT tail (P95) in each run, on the split its source gives
   * (ttft_breakdown.parts_basis): pre-queue, queue and prefill; or pre-queue and queue + prefill
   * together where the source logs no scheduled time (vLLM's text log), with the engine's waiting
   * count beside it, the figure that tells queueing from prefill there.
   */
  static void ttft(ReportData d, List<String> out) {
    Map<String, List<String>> byCause = new LinkedHashMap<>();
    String worst = null;
    String worstCause = null;
    double worstTtft = -1;
    List<String> ownPercentiles = new ArrayList<>();
    for (Row r : d.breakdown()) {
      if (r.getLong("percentile") != 95 || r.isMissing("ttft_ms")) {
        continue;
      }
      String run = r.getString("run");
      double ttft = r.getDouble("ttft_ms");
      boolean split = !r.isMissing("queue_share");
      if (!split && r.isMissing("queue_prefill_share")) {
        if (!r.isMissing("queue_ms") && !r.isMissing("prefill_ms")) {
          ownPercentiles.add(run + " (TTFT P95 " + Fmt.ms(ttft) + ", queue P95 " + Fmt.ms(r.getDouble("queue_ms"))
              + ", prefill P95 " + Fmt.ms(r.getDouble("prefill_ms")) + ")");
        }
        continue;
      }
      double pre = r.isMissing("pre_queue_share") ? 0 : r.getDouble("pre_queue_share");
      String cause;
      double share;
      String of;
      if (split) {
        double q = r.getDouble("queue_share");
        double p = r.isMissing("prefill_share") ? 0 : r.getDouble("prefill_share");
        cause = q >= 0.5 ? "queueing" : p >= 0.5 ? "prefill" : pre >= 0.5 ? "pre-queue (frontend)" : "no single part";
        share = q >= 0.5 ? q : p >= 0.5 ? p : pre >= 0.5 ? pre : Math.max(q, p);
        of = "queueing is " + Fmt.pct(q) + " and prefill " + Fmt.pct(p);
      } else {
        double both = r.getDouble("queue_prefill_share");
        cause = both >= 0.5 ? NOT_SPLIT : pre >= 0.5 ? "pre-queue (frontend)" : "no single part";
        share = both >= 0.5 ? both : pre >= 0.5 ? pre : Math.max(both, pre);
        of = "queue + prefill is " + Fmt.pct(both) + " and pre-queue " + Fmt.pct(pre)
            + " (its source logs no scheduled time to split queue from prefill)" + waiting(d, run);
      }
      byCause.computeIfAbsent(cause, k -> new ArrayList<>()).add(run + " (" + Fmt.pct(share) + " of " + Fmt.ms(ttft) + ")");
      if (ttft > worstTtft) {
        worstTtft = ttft;
        worstCause = cause;
        worst = run + ": TTFT P95 is " + Fmt.ms(ttft) + "; over the slowest 5 % of requests, " + of;
      }
    }
    if (byCause.isEmpty() && ownPercentiles.isEmpty()) {
      out.add("Where TTFT went: no run has a split of TTFT (its sources log no queued or scheduled times).");
      return;
    }
    StringBuilder sb = new StringBuilder("Where TTFT went (P95): ");
    List<String> parts = new ArrayList<>();
    byCause.forEach((cause, runs) -> parts.add((cause.equals("no single part") ? "no part dominates in "
        : cause + " dominates in ") + String.join(", ", runs)));
    sb.append(String.join("; ", parts));
    if (worst != null) {
      sb.append(". Slowest: ").append(worst);
      if ("queueing".equals(worstCause)) {
        sb.append(" — the time went to waiting for a batch slot, not to compute: fewer requests in flight, or more capacity");
      }
    }
    if (!ownPercentiles.isEmpty()) {
      sb.append(byCause.isEmpty() ? "" : ". ").append("Without all three parts, only each part's own percentile: ")
          .append(String.join("; ", ownPercentiles));
    }
    out.add(sb.append('.').toString());
  }

  /** The cause named where queue and prefill are one figure. */
  static final String NOT_SPLIT = "the engine's queue + prefill (not split)";

  /** The engine's waiting requests over the run, from its periodic stats (engine_summary), in words. */
  static String waiting(ReportData d, String run) {
    for (Map<String, Object> e : d.summary().engines()) {
      if (run.equals(String.valueOf(e.get("run"))) && e.get("waiting_mean") instanceof Number mean
          && e.get("waiting_max") instanceof Number max) {
        return max.doubleValue() > 0
            ? "; the engine's stats show " + Fmt.level(mean.doubleValue()) + " requests waiting on average (at most "
                + Fmt.level(max.doubleValue()) + "), so queueing for a batch slot is likely much of it"
            : "; the engine's stats show no request waiting at any snapshot, so it is likely mostly prefill";
      }
    }
    return "";
  }

  static void stalls(ReportData d, List<String> out) {
    List<String> verdicts = new ArrayList<>();
    long total = 0;
    Table t = d.stallSummary().sortDescendingOn("stalls");
    for (Row r : t) {
      long n = r.isMissing("stalls") ? 0 : r.getLong("stalls");
      if (n > 0) {
        total += n;
        if (verdicts.size() < 3) {
          verdicts.add(r.getString("run") + ": " + r.getString("verdict"));
        }
      }
    }
    if (total == 0) {
      out.add(d.stallSummary().rowCount() == 0 ? "Where stalls came from: no run has token timestamps to find ITL stalls in."
          : "Where stalls came from: no ITL stall above the threshold in any run.");
      return;
    }
    out.add("Where stalls came from (" + total + (total == 1 ? " gap" : " gaps") + " above each run's threshold): " + String.join("; ", verdicts)
        + (verdicts.size() < countWithStalls(t) ? "; more runs in the stall table" : "") + ".");
  }

  private static int countWithStalls(Table t) {
    int n = 0;
    for (Row r : t) {
      n += !r.isMissing("stalls") && r.getLong("stalls") > 0 ? 1 : 0;
    }
    return n;
  }

  /** The recommendation of the SLO check, else the knee of the sweep. */
  static void level(ReportData d, List<String> out) {
    SloReport slo = d.slo();
    if (slo != null) {
      List<String> met = new ArrayList<>();
      List<String> missed = new ArrayList<>();
      for (SloReport.Level l : slo.levels()) {
        (l.met() ? met : missed).add(l.label());
      }
      StringBuilder sb = new StringBuilder("Which level to run at: the SLO (" + slo.slo() + ") is ");
      sb.append(missed.isEmpty() ? "met at every level checked" : met.isEmpty() ? "missed at every level checked"
          : "met at " + String.join(", ", met) + " and missed at " + String.join(", ", missed));
      if (slo.recommendation() != null) {
        sb.append("; ").append(slo.recommendation());
      }
      out.add(sb.append('.').toString());
      for (SloReport.Level l : slo.levels()) {
        l.diagnoses().stream().limit(2).forEach(x -> out.add("SLO miss at " + x + "."));
      }
      if (out.size() > 12) {
        out.subList(12, out.size()).clear();
      }
      return;
    }
    // Tablesaw's Row is a cursor that moves on: keep row numbers, not rows
    int knee = -1;
    int next = -1;
    String kind = null;
    int levels = 0;
    for (Row r : d.knee()) {
      levels++;
      if (knee >= 0 && next < 0 && r.getString("level_kind").equals(kind)) {
        next = r.getRowNumber();
      }
      if (knee < 0 && !r.isMissing("is_knee") && r.getBoolean("is_knee")) {
        knee = r.getRowNumber();
        kind = r.getString("level_kind");
      }
    }
    if (knee >= 0) {
      Row k0 = d.knee().row(knee);
      String k = Fmt.levelLabel(kind, k0.getDouble("level"), "");
      String s = "Which level to run at: the knee of the sweep is at " + k;
      Row n = next < 0 ? null : d.knee().row(next);
      if (n != null && !n.isMissing("gain_per_doubling")) {
        s += ": going on to " + Fmt.level(n.getDouble("level")) + " gains " + Fmt.pct(n.getDouble("gain_per_doubling"))
            + " throughput per doubling while P95 E2E grows " + Fmt.pct(n.getDouble("latency_growth_per_doubling"))
            + " per doubling";
      }
      out.add(s + ". Run at or below it unless throughput matters more than latency (give --slo for a verdict).");
    } else if (levels >= 2) {
      out.add("Which level to run at: no step of the sweep crosses the knee rule (" + d.knee().stringColumn("rule").get(0)
          + "); throughput still pays for the latency at the highest level tested (give --slo for a verdict).");
    } else {
      out.add("Which level to run at: there is no sweep of two or more levels to find a knee in; give --slo for a verdict.");
    }
  }

  static void slowest(ReportData d, List<String> out) {
    int best = -1;
    for (Row r : d.outliers()) {
      if (!r.isMissing("e2e_ms") && (best < 0 || r.getDouble("e2e_ms") > d.outliers().doubleColumn("e2e_ms").get(best))) {
        best = r.getRowNumber();
      }
    }
    if (best >= 0) {
      Row slowest = d.outliers().row(best);
      out.add("The slowest request is " + slowest.getString("request_id") + " in run " + slowest.getString("run")
          + ": E2E " + Fmt.ms(slowest.getDouble("e2e_ms")) + ", TTFT " + Fmt.ms(slowest.isMissing("ttft_ms") ? null
              : slowest.getDouble("ttft_ms")) + (slowest.isMissing("output_tokens") ? ""
              : ", " + slowest.getLong("output_tokens") + " output tokens") + ".");
    }
  }

  static void failures(ReportData d, List<String> out) {
    long failed = 0;
    long measured = 0;
    List<String> told = new ArrayList<>();
    for (Row r : d.runs()) {
      failed += r.isMissing("failed_requests") ? 0 : r.getLong("failed_requests");
      measured += r.isMissing("requests") ? 0 : r.getLong("requests");
      if (!r.isMissing("tool_failed_requests") && r.getLong("tool_failed_requests") > 0) {
        long ok = r.isMissing("tool_ok_requests") ? 0 : r.getLong("tool_ok_requests");
        told.add(r.getLong("tool_failed_requests") + " of " + (ok + r.getLong("tool_failed_requests")) + " in "
            + r.getString("run") + (r.isMissing("tool_errors") || r.getString("tool_errors").isEmpty() ? ""
                : " (" + r.getString("tool_errors") + ")"));
      }
    }
    if (!told.isEmpty()) {
      // a result file alone: no request rows, and the tool's count is the only word on its failures
      out.add("The load-test tool counted failed requests where the files hold no request rows: "
          + String.join(", ", told) + " (tool_run_counts).");
    }
    if (failed == 0) {
      return;
    }
    int most = -1;
    for (Row r : d.failures()) {
      if (most < 0 || r.getLong("requests") > d.failures().longColumn("requests").get(most)) {
        most = r.getRowNumber();
      }
    }
    Row top = most < 0 ? null : d.failures().row(most);
    String mostText = top == null ? "" : "; the most frequent: " + top.getString("status")
        + (top.isMissing("http_status") ? "" : " " + top.getLong("http_status"))
        + (top.isMissing("error") || top.getString("error").isEmpty() ? "" : " \"" + cut(top.getString("error"), 120) + "\"")
        + " (" + top.getLong("requests") + " in " + top.getString("run") + ")";
    out.add(failed + " of " + measured + " measured requests failed; they count in the window, not in latency or "
        + "throughput" + mostText + ".");
  }

  /** Figures resting on a clock of a second or coarser. */
  static void basis(ReportData d, List<String> out) {
    List<String> coarse = new ArrayList<>();
    for (Row r : d.basis()) {
      if (!r.isMissing("coarsest_resolution_ns") && r.getLong("coarsest_resolution_ns") >= 1_000_000_000L
          && r.getString("figure").endsWith("_ms")) {
        coarse.add(r.getString("run") + "'s " + r.getString("figure") + " from " + r.getString("basis"));
      }
    }
    if (!coarse.isEmpty()) {
      out.add("Coarse clocks: " + String.join("; ", coarse) + ". These rest on a clock of 1 s or coarser: their "
          + "values are whole seconds, whatever digits they are printed with.");
    }
  }

  static String cut(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n) + "…";
  }
}
