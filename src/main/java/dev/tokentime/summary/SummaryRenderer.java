package dev.tokentime.summary;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.output.Values;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** The summary as text (for terminals), Markdown (for tickets), CSV or JSON (for scripts). */
public final class SummaryRenderer {
  private SummaryRenderer() {}

  static final ObjectMapper JSON = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .enable(SerializationFeature.INDENT_OUTPUT);

  static final String DEFINITIONS = "TTFT = first token - arrival; ITL = gaps between consecutive"
      + " content chunks, pooled; TPOT = (E2E - TTFT)/(N - 1); E2E = last token - arrival;"
      + " percentiles by linear interpolation (docs/metrics.md)";

  /**
   * Columns of level_table shown in text and Markdown (all of them go to JSON); the tools' own
   * counts (runs whose files hold no request rows) only where a level has them.
   */
  static final List<String> LEVEL_COLUMNS = List.of("level_kind", "level", "label", "runs",
      "ok_requests", "failed_requests", "tool_ok_requests", "tool_failed_requests", "ttft_p50_ms", "ttft_p90_ms", "ttft_p99_ms", "itl_p50_ms",
      "itl_p90_ms", "itl_p99_ms", "e2e_p50_ms", "e2e_p90_ms", "e2e_p99_ms", "output_tokens_per_s",
      "requests_per_s", "mean_input_tokens", "mean_output_tokens");

  /** @param window what the analysis window leaves out, in words (empty for none) */
  public static String render(Summary s, OutputFormat f, int width, String window) {
    return switch (f) {
      case TEXT -> text(s, width, window);
      case MARKDOWN -> markdown(s, window);
      case CSV -> csv(s);
      case JSON -> json(s);
    };
  }

  public static String json(Summary s) {
    try {
      return JSON.writeValueAsString(s) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String text(Summary s, int width) {
    return text(s, width, "");
  }

  public static String text(Summary s, int width, String window) {
    StringBuilder sb = new StringBuilder();
    sb.append("tokentime summary: ").append(s.runs().size()).append(s.runs().size() == 1 ? " run, " : " runs, ")
        .append(s.sources()).append(s.sources() == 1 ? " source file, " : " source files, ")
        .append(s.rejectedLines()).append(" rejected line").append(s.rejectedLines() == 1 ? "" : "s")
        .append(s.rejectedLines() > 0 ? " (SELECT * FROM rejects)" : "").append('\n');
    sb.append(DEFINITIONS).append('\n');
    if (!window.isEmpty()) {
      sb.append("analysis window: ").append(window).append('\n');
    }
    if (s.slo() != null) {
      sb.append("slo: ").append(s.slo().terms()).append(" (per-request targets for attainment and goodput)\n");
      for (Map<String, Object> g : s.slo().distserveGoodput()) {
        sb.append("goodput (DistServe, highest ").append(String.valueOf(g.get("level_kind")).replace('_', ' '))
            .append(" at ").append(Values.text(g.get("attainment_target"))).append(" attainment): ")
            .append(g.get("goodput_note"))
            .append('\n');
      }
    }
    for (Summary.RunSummary r : s.runs()) {
      sb.append('\n').append("run ").append(r.run());
      if (r.levelKind() != null) {
        sb.append(" (").append(r.levelKind().replace('_', ' ')).append(' ').append(num(r.level()));
        if (r.repeat() != null) {
          sb.append(", repeat ").append(r.repeat());
        }
        sb.append(')');
      }
      sb.append('\n');
      Summary.Requests q = r.requests();
      String told = q.measured() + q.excluded() == 0 ? toolCounts(s, r.run()) : null;
      List<ToolFigures> reported = toolFigures(s, r.run());
      if (told == null && !reported.isEmpty()) {
        sb.append("  requests    none as rows (the files hold the tool's figures only)\n");
      } else if (told != null) {
        // a result file alone: no request rows to count, and "0 ok, 0 failed" would hide its failures
        sb.append("  requests    none as rows (the files hold the tool's figures only); the tool counted ")
            .append(told).append('\n');
      } else {
        sb.append("  requests    ").append(q.ok()).append(" ok").append(unfinished(q)).append(", ")
            .append(q.failed()).append(" failed");
        if (q.excluded() > 0) {
          sb.append(", ").append(q.excluded()).append(" excluded (warm-up or outside the window)");
        }
        sb.append("; window ").append(fixed(r.window().durationS(), 3)).append(" s\n");
      }
      if (!reported.isEmpty()) {
        // a result or summary file alone: the tool's own figures, where every one of tokentime's is n/a
        for (ToolFigures f : reported) {
          sb.append("  reported    by ").append(f.convention()).append(" (its own figures and definitions;"
              + " no request rows to compute tokentime's: tokentime query peer_reported)\n");
          if (!f.throughput().isEmpty()) {
            sb.append("  throughput  ").append(f.throughput()).append('\n');
          }
          if (!f.latencies().rows().isEmpty()) {
            for (String line : TableRenderer.text(f.latencies(), Math.max(40, width - 2)).split("\n")) {
              sb.append("  ").append(line).append('\n');
            }
          }
        }
        engineAndBasis(s, r.run(), sb);
        continue;
      }
      sb.append("  throughput  ").append(fixed(r.throughput().outputTokensPerS(), 1))
          .append(" output tokens/s, ").append(fixed(r.throughput().requestsPerS(), 3))
          .append(" requests/s\n");
      sb.append("  length      mean input ").append(fixed(r.tokens().meanInput(), 1))
          .append(" tokens, mean output ").append(fixed(r.tokens().meanOutput(), 1)).append(" tokens\n");
      if (r.goodput() != null) {
        sb.append("  slo         ").append(r.goodput().attainment() == null ? "n/a"
            : Values.percent(r.goodput().attainment()))
            .append(" of requests attain it; request goodput ").append(fixed(r.goodput().requestsPerS(), 3))
            .append(" requests/s\n");
      }
      TableData t = metricTable(r);
      if (t.rows().isEmpty()) {
        sb.append("  (no latency figures: no ok measured request with timestamps)\n");
      } else {
        for (String line : TableRenderer.text(t, Math.max(40, width - 2)).split("\n")) {
          sb.append("  ").append(line).append('\n');
        }
        if (queuePrefillNotSplit(r)) {
          sb.append("  ttft parts  ").append(NOT_SPLIT).append('\n');
        }
      }
      engineAndBasis(s, r.run(), sb);
    }
    for (Map<String, Object> e : s.engines()) {
      String run = String.valueOf(e.get("run"));
      if (s.runs().stream().noneMatch(r -> r.run().equals(run))) {
        sb.append('\n').append("run ").append(run).append(" (engine statistics only)\n");
        engineAndBasis(s, run, sb);
      }
    }
    if (!s.levels().isEmpty()) {
      sb.append("\nlevels (median over repeats)\n");
      sb.append(levelText(s, width));
    }
    return sb.toString();
  }

  /**
   * The run's requests as the tool counted them ("completed 0, failed 100 (vllm-bench-json,
   * vllm-bench-console)": files of several formats that agree share one list), or null.
   */
  static String toolCounts(Summary s, String run) {
    Map<String, List<String>> formatsByCounts = new java.util.LinkedHashMap<>();
    Map<String, List<String>> countsByFormat = new java.util.LinkedHashMap<>();
    for (Map<String, Object> c : s.toolRequestCounts()) {
      if (run.equals(String.valueOf(c.get("run")))) {
        countsByFormat.computeIfAbsent(String.valueOf(c.get("format")), k -> new ArrayList<>())
            .add(c.get("metric") + " " + num(((Number) c.get("requests")).doubleValue()));
      }
    }
    for (var e : countsByFormat.entrySet()) {
      formatsByCounts.computeIfAbsent(String.join(", ", e.getValue()), k -> new ArrayList<>()).add(e.getKey());
    }
    List<String> parts = new ArrayList<>();
    formatsByCounts.forEach((counts, formats) -> parts.add(counts + " (" + String.join(", ", formats) + ")"));
    return parts.isEmpty() ? null : String.join("; ", parts);
  }

  /** A tool's reported figures for one run: its throughputs in words, its latencies as a table. */
  record ToolFigures(String convention, String throughput, TableData latencies) {}

  static final List<String> REPORTED_STATS = List.of("mean", "p50", "p90", "p99");

  /** The figures the tools reported for a run with no request rows (Summary.toolFigures), per tool. */
  static List<ToolFigures> toolFigures(Summary s, String run) {
    Map<String, List<Map<String, Object>>> byTool = new java.util.LinkedHashMap<>();
    for (Map<String, Object> f : s.toolFigures()) {
      if (run.equals(String.valueOf(f.get("run")))) {
        byTool.computeIfAbsent(String.valueOf(f.get("convention")), k -> new ArrayList<>()).add(f);
      }
    }
    List<ToolFigures> out = new ArrayList<>();
    byTool.forEach((tool, figures) -> {
      List<String> throughput = new ArrayList<>();
      Map<String, Object[]> rows = new java.util.LinkedHashMap<>();
      for (Map<String, Object> f : figures) {
        String metric = String.valueOf(f.get("metric"));
        Double v = dbl(f.get("value"));
        if (metric.equals("output_tokens_per_s")) {
          throughput.add(fixed(v, 1) + " output tokens/s");
        } else if (metric.equals("requests_per_s")) {
          throughput.add(fixed(v, 3) + " requests/s");
        } else {
          int at = REPORTED_STATS.indexOf(String.valueOf(f.get("stat")));
          if (at >= 0) {
            Object[] row = rows.computeIfAbsent(metric, m -> {
              Object[] r = new Object[REPORTED_STATS.size() + 1];
              java.util.Arrays.fill(r, "");
              r[0] = m;
              return r;
            });
            row[at + 1] = Values.duration(v);
          }
        }
      }
      List<String> columns = new ArrayList<>(List.of("metric"));
      columns.addAll(REPORTED_STATS);
      List<Boolean> numeric = columns.stream().map(c -> !c.equals("metric")).toList();
      out.add(new ToolFigures(tool, String.join(", ", throughput),
          new TableData(columns, numeric, new ArrayList<>(rows.values()), false)));
    });
    return out;
  }

  /**
   * The run's engine timeline in one line, and which source and clock resolution each figure
   * rests on (figures sharing a basis on one line), as (label, text) pairs.
   */
  static List<String[]> engineAndBasis(Summary s, String run) {
    List<String[]> out = new ArrayList<>();
    for (Map<String, Object> e : s.engines()) {
      if (run.equals(String.valueOf(e.get("run")))) {
        out.add(new String[] {"engine", engineLine(e)});
      }
    }
    Map<String, List<String>> byBasis = new java.util.LinkedHashMap<>();
    for (Map<String, Object> b : s.basis()) {
      if (run.equals(String.valueOf(b.get("run")))) {
        byBasis.computeIfAbsent(String.valueOf(b.get("basis")), k -> new ArrayList<>())
            .add(String.valueOf(b.get("figure")));
      }
    }
    for (var e : byBasis.entrySet()) {
      out.add(new String[] {"basis", String.join(", ", e.getValue()) + ": " + e.getKey()});
    }
    return out;
  }

  static void engineAndBasis(Summary s, String run, StringBuilder sb) {
    String last = null;
    for (String[] line : engineAndBasis(s, run)) {
      String label = line[0].equals(last) ? "" : line[0];
      sb.append("  ").append(String.format(Locale.ROOT, "%-12s", label)).append(line[1]).append('\n');
      last = line[0];
    }
  }

  static String engineLine(Map<String, Object> e) {
    StringBuilder sb = new StringBuilder();
    sb.append(e.get("snapshots")).append(" snapshots");
    Object span = e.get("span_s");
    if (span instanceof Number n) {
      sb.append(" over ").append(fixed(n.doubleValue(), 0)).append(" s");
    }
    sb.append(": running mean ").append(fixed(dbl(e.get("running_mean")), 1)).append(", max ")
        .append(e.get("running_max") == null ? "n/a" : e.get("running_max"))
        .append("; waiting mean ").append(fixed(dbl(e.get("waiting_mean")), 1)).append(", max ")
        .append(e.get("waiting_max") == null ? "n/a" : e.get("waiting_max"));
    Double kv = dbl(e.get("kv_usage_max"));
    if (kv != null) {
      sb.append("; KV cache max ").append(fixed(kv * 100, 1)).append('%');
    }
    long gaps = ((Number) e.get("gaps")).longValue();
    sb.append("; ").append(gaps).append(gaps == 1 ? " gap" : " gaps");
    if (gaps > 0) {
      sb.append(" (").append(fixed(dbl(e.get("no_data_s")), 0)).append(" s without data)");
    }
    sb.append(" [").append(e.get("basis")).append("; tokentime query engine_timeline]");
    return sb.toString();
  }

  private static Double dbl(Object o) {
    return o instanceof Number n ? n.doubleValue() : null;
  }

  public static String markdown(Summary s, String window) {
    StringBuilder sb = new StringBuilder("## tokentime summary\n\n");
    sb.append(s.runs().size()).append(" runs, ").append(s.sources()).append(" source files, ")
        .append(s.rejectedLines()).append(" rejected lines. ").append(DEFINITIONS).append(".\n");
    if (!window.isEmpty()) {
      sb.append("\nAnalysis window: ").append(window).append(".\n");
    }
    if (!s.levels().isEmpty()) {
      sb.append("\n### Levels (median over repeats)\n\n").append(TableRenderer.markdown(levelTable(s)));
    }
    for (Summary.RunSummary r : s.runs()) {
      sb.append("\n### Run ").append(r.run());
      if (r.levelKind() != null) {
        sb.append(" (").append(r.levelKind().replace('_', ' ')).append(' ').append(num(r.level())).append(')');
      }
      sb.append("\n\n");
      List<ToolFigures> reported = toolFigures(s, r.run());
      if (!reported.isEmpty()) {
        for (ToolFigures f : reported) {
          sb.append("Reported by ").append(f.convention()).append(" (its own figures and definitions; no request rows"
              + " to compute tokentime's)").append(f.throughput().isEmpty() ? "" : ": " + f.throughput()).append(".\n\n");
          if (!f.latencies().rows().isEmpty()) {
            sb.append(TableRenderer.markdown(f.latencies()));
          }
        }
        continue;
      }
      sb.append(r.requests().ok()).append(" ok").append(unfinished(r.requests())).append(", ")
          .append(r.requests().failed()).append(" failed requests; window ")
          .append(fixed(r.window().durationS(), 3)).append(" s; ")
          .append(fixed(r.throughput().outputTokensPerS(), 1)).append(" output tokens/s, ")
          .append(fixed(r.throughput().requestsPerS(), 3)).append(" requests/s; mean input ")
          .append(fixed(r.tokens().meanInput(), 1)).append(", mean output ")
          .append(fixed(r.tokens().meanOutput(), 1)).append(" tokens.\n\n");
      sb.append(TableRenderer.markdown(metricTable(r)));
      if (queuePrefillNotSplit(r)) {
        sb.append('\n').append(NOT_SPLIT).append(".\n");
      }
      List<String[]> extra = engineAndBasis(s, r.run());
      if (!extra.isEmpty()) {
        sb.append('\n');
        extra.forEach(l -> sb.append("- ").append(l[0]).append(": ").append(l[1]).append('\n'));
      }
    }
    return sb.toString();
  }

  /** One row per run per metric, with the run-level figures repeated on each row. */
  public static String csv(Summary s) {
    StringWriter out = new StringWriter();
    try (CSVPrinter p = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get())) {
      p.printRecord("run", "level_kind", "level", "repeat", "ok_requests", "failed_requests",
          "duration_s", "output_tokens_per_s", "requests_per_s", "mean_input_tokens",
          "mean_output_tokens", "metric", "unit", "count", "mean", "std", "min", "max", "p1", "p5",
          "p10", "p25", "p50", "p75", "p90", "p95", "p99");
      for (Summary.RunSummary r : s.runs()) {
        for (var e : r.metrics().entrySet()) {
          Summary.Stats m = e.getValue();
          List<Object> row = new ArrayList<>(List.of(r.run()));
          row.addAll(java.util.Arrays.asList(r.levelKind(), r.level(), r.repeat(), r.requests().ok(),
              r.requests().failed(), r.window().durationS(), r.throughput().outputTokensPerS(),
              r.throughput().requestsPerS(), r.tokens().meanInput(), r.tokens().meanOutput(),
              e.getKey(), m.unit(), m.count(), m.mean(), m.std(), m.min(), m.max(), m.p1(), m.p5(),
              m.p10(), m.p25(), m.p50(), m.p75(), m.p90(), m.p95(), m.p99()));
          p.printRecord(row.stream().map(Values::exact).toList());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  static TableData metricTable(Summary.RunSummary r) {
    List<Object[]> rows = new ArrayList<>();
    boolean notSplit = queuePrefillNotSplit(r);
    for (var e : r.metrics().entrySet()) {
      Summary.Stats m = e.getValue();
      if (m.count() == 0 || e.getKey().equals("queue_prefill_ms") && !notSplit) {
        continue;
      }
      // text shows each duration in a unit that reads (35.7 s, not 35718.330); CSV and JSON keep ms
      boolean ms = "ms".equals(m.unit());
      rows.add(new Object[] {e.getKey(), m.count(), ms ? Values.duration(m.mean()) : m.mean(),
          ms ? Values.duration(m.p50()) : m.p50(), ms ? Values.duration(m.p90()) : m.p90(),
          ms ? Values.duration(m.p95()) : m.p95(), ms ? Values.duration(m.p99()) : m.p99()});
    }
    return new TableData(List.of("metric", "count", "mean", "p50", "p90", "p95", "p99"),
        List.of(false, true, true, true, true, true, true), rows, false);
  }

  /**
   * Whether the run's TTFT splits into pre-queue and queue + prefill only: some requests have
   * queue_prefill_ms (TTFT - pre-queue) without queue_ms and prefill_ms, as a vLLM text log gives
   * them (no scheduled time). Where every request is split, queue_prefill_ms is their sum and the
   * terminal does not repeat it.
   */
  static boolean queuePrefillNotSplit(Summary.RunSummary r) {
    Summary.Stats both = r.metrics().get("queue_prefill_ms");
    Summary.Stats queue = r.metrics().get("queue_ms");
    Summary.Stats prefill = r.metrics().get("prefill_ms");
    return both != null && both.count() > 0
        && (queue == null || prefill == null || queue.count() < both.count() || prefill.count() < both.count());
  }

  static final String NOT_SPLIT = "queue_prefill_ms = TTFT - pre-queue: engine queue and prefill together "
      + "(the source logs no scheduled time to split them)";

  static TableData levelTable(Summary s) {
    List<Object[]> rows = new ArrayList<>();
    for (Map<String, Object> l : s.levels()) {
      rows.add(LEVEL_COLUMNS.stream().map(l::get).toArray());
    }
    List<Boolean> numeric = LEVEL_COLUMNS.stream()
        .map(c -> !c.equals("level_kind") && !c.equals("label")).toList();
    return new TableData(LEVEL_COLUMNS, numeric, rows, false);
  }

  /**
   * The levels table for a terminal of {@code width} columns (issue 23): durations in the unit
   * that reads; columns with no value at any level left out, and bookkeeping columns with one
   * value at every level (runs 1, failed 0, one label) said once below the table instead; and when it is still
   * too wide, columns left out by priority, the ones the methodology reads (§3.2.2: P50/P90/P99
   * of TTFT, ITL and E2E per level, and throughput) last. CSV and JSON keep every column, raw.
   */
  static String levelText(Summary s, int width) {
    List<Map<String, Object>> levels = s.levels();
    List<String> keep = new ArrayList<>();
    List<String> constant = new ArrayList<>();
    String levelHeader = "level";
    for (String c : LEVEL_COLUMNS) {
      List<Object> vals = levels.stream().map(l -> l.get(c)).toList();
      boolean empty = vals.stream().allMatch(v -> v == null || String.valueOf(v).isBlank());
      boolean same = levels.size() > 1 && vals.stream().map(v -> v == null ? "" : Values.exact(v)).distinct().count() == 1;
      if (c.equals("level_kind")) {
        if (!empty && (same || levels.size() == 1)) {
          levelHeader = String.valueOf(vals.get(0)).replace('_', ' ');
          continue;
        }
      } else if (!c.equals("level") && (empty || same && WHEN_CONSTANT_SAID_ONCE.contains(c))) {
        if (same && !empty) {
          constant.add(header(c) + " " + Values.exact(vals.get(0)));
        }
        continue;
      }
      if (c.equals("level") && empty) {
        continue;
      }
      keep.add(c);
    }
    List<String> dropped = new ArrayList<>();
    TableData t = levelTextTable(levels, keep, levelHeader);
    while (keep.size() > 1 && TableRenderer.text(t, Integer.MAX_VALUE).lines().findFirst().orElse("").length() > width) {
      String least = keep.stream().max(java.util.Comparator.comparingInt(LEVEL_PRIORITY::indexOf)).orElseThrow();
      keep.remove(least);
      dropped.add(header(least));
      t = levelTextTable(levels, keep, levelHeader);
    }
    StringBuilder sb = new StringBuilder(TableRenderer.text(t, width));
    if (!constant.isEmpty()) {
      sb.append("(every level: ").append(String.join(", ", constant)).append(")\n");
    }
    if (!dropped.isEmpty()) {
      sb.append("(not shown at this width: ").append(String.join(", ", dropped))
          .append("; use --format csv or a wider terminal)\n");
    }
    return sb.toString();
  }

  /** Columns said once below the table when every level has the same value (not the latencies). */
  static final java.util.Set<String> WHEN_CONSTANT_SAID_ONCE = java.util.Set.of("label", "runs", "ok_requests",
      "failed_requests", "tool_ok_requests", "tool_failed_requests", "mean_input_tokens", "mean_output_tokens");

  /** level_summary's columns, the ones dropped last first: what the methodology reads. */
  static final List<String> LEVEL_PRIORITY = List.of("level", "ttft_p50_ms", "ttft_p99_ms", "itl_p50_ms",
      "itl_p99_ms", "e2e_p50_ms", "e2e_p99_ms", "output_tokens_per_s", "ttft_p90_ms", "itl_p90_ms", "e2e_p90_ms",
      "requests_per_s", "failed_requests", "tool_failed_requests", "ok_requests", "tool_ok_requests", "mean_output_tokens", "mean_input_tokens", "runs",
      "label", "level_kind");

  private static String header(String column) {
    return switch (column) {
      case "output_tokens_per_s" -> "out tok/s";
      case "requests_per_s" -> "req/s";
      case "mean_input_tokens" -> "mean in";
      case "mean_output_tokens" -> "mean out";
      case "ok_requests" -> "ok";
      case "failed_requests" -> "failed";
      case "tool_ok_requests" -> "ok (tool's count)";
      case "tool_failed_requests" -> "failed (tool's count)";
      default -> column.endsWith("_ms") ? column.substring(0, column.length() - 3).replace('_', ' ') : column.replace('_', ' ');
    };
  }

  private static TableData levelTextTable(List<Map<String, Object>> levels, List<String> columns, String levelHeader) {
    List<Object[]> rows = new ArrayList<>();
    for (Map<String, Object> l : levels) {
      rows.add(columns.stream().map(c -> {
        Object v = l.get(c);
        if (v == null) {
          return (Object) "";
        }
        if (c.endsWith("_ms")) {
          return Values.duration(((Number) v).doubleValue());
        }
        if (c.endsWith("_per_s") || c.startsWith("mean_")) {
          double d = ((Number) v).doubleValue();
          return fixed(d, Math.abs(d) >= 100 ? 0 : Math.abs(d) >= 10 ? 1 : 2);
        }
        return c.equals("level") || v instanceof Number ? Values.exact(v) : String.valueOf(v);
      }).toArray());
    }
    List<String> headers = columns.stream().map(c -> c.equals("level") ? levelHeader : header(c)).toList();
    List<Boolean> numeric = columns.stream().map(c -> !c.equals("level_kind") && !c.equals("label")).toList();
    return new TableData(headers, numeric, rows, false);
  }

  /** " (N with no end in the log)" after the ok count, when some had none: a log that ended first. */
  static String unfinished(Summary.Requests q) {
    return q.unfinished() == 0 ? "" : " (" + q.unfinished() + " with no end in the log)";
  }

  static String fixed(Double v, int decimals) {
    return v == null ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  static String num(Double v) {
    if (v == null) {
      return "?";
    }
    return v == Math.rint(v) ? Long.toString(v.longValue()) : v.toString();
  }
}
