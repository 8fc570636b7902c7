package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MLPerf Inference LoadGen's outputs of a run (the LLM benchmarks: llama2-70b, llama3.1-405b,
 * mixtral-8x7b, whichever SUT drove the engine): {@code mlperf_log_summary.txt}, the printed
 * "MLPerf Results Summary", and {@code mlperf_log_detail.txt}, one {@code :::MLLOG {json}} line
 * per key. Both give the run's figures as reported_metrics under one set of names, so a run's two
 * files say the same thing twice: {@code ttft} (LoadGen's first token latency), {@code tpot}
 * (its time per / to output token), {@code e2el} (its sample latency, issue to completion), with
 * stats min, max, mean, p50 … p99.9, in ns as LoadGen states them; {@code request_throughput}
 * (completed samples per second; an Offline run's samples per second), {@code output_throughput}
 * (completed tokens per second; Offline's tokens per second), {@code scheduled_request_rate};
 * the verdict {@code result_valid} and its parts ({@code perf_constraints_met}, …) as 1 or 0; the
 * settings {@code target_qps}, {@code samples_per_query}, {@code ttft_latency_limit},
 * {@code tpot_latency_limit}, {@code min_duration}, {@code min_query_count}.
 *
 * <p>The run's level: a Server (or Interactive) run's target QPS as its request rate, a
 * SingleStream run's one query at a time as concurrency 1; an Offline run (every sample in one
 * query) has none. The level is stated after the whole file is read (the summary prints the
 * target QPS last), so a figure line is accounted for at the end.
 */
public final class MlperfLoadgenFormat extends NamedFormat {
  /** Which of LoadGen's two text outputs. */
  public enum Kind {
    SUMMARY("mlperf-summary"),
    DETAIL("mlperf-detail");

    final String id;

    Kind(String id) {
      this.id = id;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MLLOG = ":::MLLOG ";
  private static final Pattern SUMMARY_SNIFF = Pattern.compile(
      "(?m)^=+[ \\t]*\\R[ \\t]*MLPerf Results Summary[ \\t]*\\R=+[ \\t]*\\R(?:.*\\R){0,3}?[ \\t]*Scenario[ \\t]*:");
  private static final Pattern LABELLED = Pattern.compile("^(.+?)\\s*:\\s*(.*)$");
  /**
   * "Min latency (ns)", "99.90 percentile first token latency (ns)", "Mean Time to Output Token (ns)";
   * LoadGen of 2026 (v6.1) prints its min, max and mean as "Time per Output Token", its
   * percentiles still "time to output token".
   */
  private static final Pattern STAT = Pattern.compile(
      "^(Min|Max|Mean|([0-9]+(?:\\.[0-9]+)?) percentile) (latency|first token latency|time (?:to|per) output token) \\(ns\\)$",
      Pattern.CASE_INSENSITIVE);
  /** SingleStream's and MultiStream's headline: the early-stopping estimate of a percentile. */
  private static final Pattern EARLY_STOPPING = Pattern.compile("^([0-9]+)th percentile latency \\(ns\\)$");
  /** The start of a figure of the stats block: such a line that does not read whole is cut. */
  private static final Pattern STAT_START = Pattern.compile(
      "^(?:Min|Max|Mean|[0-9]+(?:\\.[0-9]+)?(?:th)? percentile) .*", Pattern.CASE_INSENSITIVE);
  private static final Pattern DETAIL_PERCENTILE = Pattern.compile(
      "^result_(first_token_)?([0-9]+(?:\\.[0-9]+)?)_percentile_latency_ns$");
  private static final Pattern DETAIL_TPOT_PERCENTILE = Pattern.compile(
      "^result_time_per_output_token_([0-9]+(?:\\.[0-9]+)?)_percentile_ns$");
  private static final Pattern DETAIL_MIN_MAX_MEAN = Pattern.compile(
      "^result_(first_token_)?(min|max|mean)_latency_ns$");
  private static final Pattern DETAIL_TPOT_MIN_MAX_MEAN = Pattern.compile("^result_time_to_output_token_(min|max|mean)$");

  /** The figures both files give under one name: a summary label or a detail key → metric, stat, unit. */
  private static final Map<String, Figure> SUMMARY_FIGURES = new HashMap<>();
  private static final Map<String, Figure> DETAIL_FIGURES = new HashMap<>();
  /** The verdict lines (Yes / NO; VALID / INVALID): 1 or 0. */
  private static final Map<String, String> SUMMARY_VERDICTS = Map.of(
      "result is", "result_valid",
      "performance constraints satisfied", "perf_constraints_met",
      "min duration satisfied", "min_duration_met",
      "min queries satisfied", "min_queries_met",
      "early stopping satisfied", "early_stopping_met");
  private static final Map<String, String> DETAIL_VERDICTS = Map.of(
      "result_validity", "result_valid",
      "result_perf_constraints_met", "perf_constraints_met",
      "result_min_duration_met", "min_duration_met",
      "result_min_queries_met", "min_queries_met",
      "early_stopping_met", "early_stopping_met");

  static {
    Figure samples = new Figure("request_throughput", "value", "samples/s");
    Figure tokens = new Figure("output_throughput", "value", "tokens/s");
    SUMMARY_FIGURES.put("completed samples per second", samples);
    SUMMARY_FIGURES.put("samples per second", samples);
    SUMMARY_FIGURES.put("completed tokens per second", tokens);
    SUMMARY_FIGURES.put("tokens per second", tokens);
    SUMMARY_FIGURES.put("scheduled samples per second", new Figure("scheduled_request_rate", "value", "samples/s"));
    SUMMARY_FIGURES.put("qps w/ loadgen overhead", new Figure("qps_with_loadgen_overhead", "value", "queries/s"));
    SUMMARY_FIGURES.put("qps w/o loadgen overhead", new Figure("qps_without_loadgen_overhead", "value", "queries/s"));
    SUMMARY_FIGURES.put("samples_per_query", new Figure("samples_per_query", "value", "samples"));
    SUMMARY_FIGURES.put("target_qps", new Figure("target_qps", "value", "queries/s"));
    SUMMARY_FIGURES.put("ttft_latency (ns)", new Figure("ttft_latency_limit", "value", "ns"));
    SUMMARY_FIGURES.put("tpot_latency (ns)", new Figure("tpot_latency_limit", "value", "ns"));
    SUMMARY_FIGURES.put("min_duration (ms)", new Figure("min_duration", "value", "ms"));
    SUMMARY_FIGURES.put("min_query_count", new Figure("min_query_count", "value", "queries"));

    DETAIL_FIGURES.put("result_completed_samples_per_sec", samples);
    DETAIL_FIGURES.put("result_samples_per_second", samples);
    DETAIL_FIGURES.put("result_completed_tokens_per_second", tokens);
    DETAIL_FIGURES.put("result_tokens_per_second", tokens);
    DETAIL_FIGURES.put("result_scheduled_samples_per_sec", new Figure("scheduled_request_rate", "value", "samples/s"));
    DETAIL_FIGURES.put("result_qps_with_loadgen_overhead", new Figure("qps_with_loadgen_overhead", "value", "queries/s"));
    DETAIL_FIGURES.put("result_qps_without_loadgen_overhead", new Figure("qps_without_loadgen_overhead", "value", "queries/s"));
    DETAIL_FIGURES.put("result_token_throughput_with_loadgen_overhead",
        new Figure("output_throughput_with_loadgen_overhead", "value", "tokens/s"));
    DETAIL_FIGURES.put("result_inferred_completed_tokens_per_second", new Figure("inferred_output_throughput", "value", "tokens/s"));
    DETAIL_FIGURES.put("result_inferred_tokens_per_second", new Figure("inferred_output_throughput", "value", "tokens/s"));
    DETAIL_FIGURES.put("result_query_count", new Figure("query_count", "value", "queries"));
    DETAIL_FIGURES.put("result_overlatency_query_count", new Figure("overlatency_query_count", "value", "queries"));
    DETAIL_FIGURES.put("num_errors", new Figure("num_errors", "value", "errors"));
    DETAIL_FIGURES.put("effective_samples_per_query", new Figure("samples_per_query", "value", "samples"));
    DETAIL_FIGURES.put("effective_target_qps", new Figure("target_qps", "value", "queries/s"));
    DETAIL_FIGURES.put("requested_server_ttft_latency", new Figure("ttft_latency_limit", "value", "ns"));
    DETAIL_FIGURES.put("requested_server_tpot_latency", new Figure("tpot_latency_limit", "value", "ns"));
    DETAIL_FIGURES.put("effective_min_duration_ms", new Figure("min_duration", "value", "ms"));
    DETAIL_FIGURES.put("effective_min_query_count", new Figure("min_query_count", "value", "queries"));
  }

  private final Kind kind;

  public MlperfLoadgenFormat(Kind kind) {
    super(kind.id, "runs, reported_metrics", kind == Kind.SUMMARY
        ? "MLPerf Inference LoadGen's mlperf_log_summary.txt: a run's scenario, throughput, TTFT / TPOT / latency statistics and verdict"
        : "MLPerf Inference LoadGen's mlperf_log_detail.txt (:::MLLOG lines): a run's settings and result_* figures");
    this.kind = kind;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text();
    if (kind == Kind.SUMMARY) {
      // the file LoadGen writes starts with the block; a console log that printed it (a harness's
      // copy_summary_to_stdout) is claimed only when no format of its other lines is surer
      Matcher m = SUMMARY_SNIFF.matcher(text);
      if (!m.find()) {
        return 0;
      }
      return text.substring(0, m.start()).isBlank() ? 95 : 55;
    }
    // LoadGen's own namespace: MLPerf Training's :::MLLOG lines (mlperf_logging) are another tool's
    String first = text.stripLeading();
    return first.startsWith(MLLOG + "{") && first.contains("\"namespace\": \"mlperf::logging\"") ? 95 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    Run r = new Run();
    long n = TextLines.read(in, sink, kind == Kind.SUMMARY ? "LoadGen's summary" : "a :::MLLOG line",
        (lineNo, text) -> {
          String reason = kind == Kind.SUMMARY ? r.summaryLine(lineNo, text.strip()) : r.detailLine(lineNo, text.strip());
          if (reason == null) {
            sink.otherLine();
          }
          return reason == null || reason.isEmpty() ? null : reason;
        });
    r.emit(ctx.defaultRun(), sink);
    return n;
  }

  /** A figure a line gives, before the run's level is known. */
  private record Figure(String metric, String stat, String unit) {}

  private record Held(long lineNo, String text, List<Figure> figures, List<Double> values) {}

  /** What one file says of its run. */
  private static final class Run {
    private String scenario;
    private String mode;
    private Double targetQps;
    private final List<Held> held = new ArrayList<>();
    /** A figure already held, by metric and stat: the summary prints completed tokens per second twice. */
    private final Map<String, Double> seen = new HashMap<>();

    /** "" when the line's figures are held (accounted for at the end), a reject's reason, or null for another line. */
    String summaryLine(long lineNo, String line) {
      Matcher m = LABELLED.matcher(line);
      if (!m.matches()) {
        return STAT_START.matcher(line).matches() ? cut(line) : null;
      }
      String label = m.group(1).strip();
      String value = m.group(2).strip();
      String key = label.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
      if (key.equals("scenario")) {
        scenario = value;
        return null;
      }
      if (key.equals("mode")) {
        mode = value;
        return null;
      }
      String verdict = SUMMARY_VERDICTS.get(key);
      if (verdict != null) {
        Double v = yesNo(value);
        if (v == null) {
          return "LoadGen's '" + label + "' is '" + value + "', not Yes / NO (VALID / INVALID): a cut line?";
        }
        return hold(lineNo, line, new Figure(verdict, "value", "bool"), v);
      }
      Figure f = SUMMARY_FIGURES.get(key);
      if (f == null) {
        Matcher s = STAT.matcher(label);
        Matcher e = EARLY_STOPPING.matcher(label);
        if (s.matches()) {
          f = new Figure(statMetric(s.group(3)), s.group(2) != null ? percentile(s.group(2))
              : s.group(1).toLowerCase(Locale.ROOT), "ns");
        } else if (e.matches()) {
          f = new Figure("e2el", "p" + e.group(1) + "_early_stopping", "ns");
        } else if (STAT_START.matcher(label).matches()) {
          // a statistic of a label not known here (another LoadGen's wording) is not read; one
          // without its number is a line cut short
          return number(value) == null ? cut(line) : null;
        } else {
          return null; // SUT name, the seeds, the early-stopping verdict's words, …
        }
      }
      Double v = number(value);
      if (v == null) {
        return value.isEmpty() ? cut(line) : "LoadGen's '" + label + "': '" + value + "' is no number";
      }
      return hold(lineNo, line, f, v);
    }

    String detailLine(long lineNo, String line) {
      if (!line.startsWith(MLLOG)) {
        return null; // a blank line, or what else went into the file
      }
      JsonNode doc;
      try {
        doc = JSON.readTree(line.substring(MLLOG.length()));
      } catch (IOException e) {
        return "a :::MLLOG line that is not one whole JSON object (a cut line?)";
      }
      if (doc == null || !doc.isObject() || !doc.path("key").isTextual()) {
        return "a :::MLLOG line without a \"key\"";
      }
      String key = doc.get("key").asText();
      JsonNode value = doc.get("value");
      if (value == null) {
        return "LoadGen's " + key + ": no \"value\"";
      }
      switch (key) {
        case "requested_scenario":
          scenario = scenario == null ? value.asText() : scenario;
          return null;
        case "effective_scenario":
          scenario = value.asText();
          return null;
        case "requested_test_mode":
        case "effective_test_mode":
          mode = value.asText();
          return null;
        default:
          break;
      }
      String verdict = DETAIL_VERDICTS.get(key);
      if (verdict != null) {
        Double v = value.isBoolean() ? (Double) (value.asBoolean() ? 1.0 : 0.0) : yesNo(value.asText());
        if (v == null) {
          return "LoadGen's " + key + " is " + value + ", not true / false (VALID / INVALID)";
        }
        return hold(lineNo, line, new Figure(verdict, "value", "bool"), v);
      }
      Figure f = DETAIL_FIGURES.get(key);
      if (f == null) {
        Matcher m = DETAIL_PERCENTILE.matcher(key);
        Matcher t = DETAIL_TPOT_PERCENTILE.matcher(key);
        Matcher mm = DETAIL_MIN_MAX_MEAN.matcher(key);
        Matcher tm = DETAIL_TPOT_MIN_MAX_MEAN.matcher(key);
        if (m.matches()) {
          f = new Figure(m.group(1) != null ? "ttft" : "e2el", percentile(m.group(2)), "ns");
        } else if (t.matches()) {
          f = new Figure("tpot", percentile(t.group(1)), "ns");
        } else if (mm.matches()) {
          f = new Figure(mm.group(1) != null ? "ttft" : "e2el", mm.group(2), "ns");
        } else if (tm.matches()) {
          f = new Figure("tpot", tm.group(1), "ns");
        } else {
          // the other settings, the build, the sample indices; and result_token_throughput, whose
          // value is tokens over the sum of sample latencies in ns (7.6e-09 beside 10755.6
          // completed tokens per second): no per-second figure
          return null;
        }
      }
      if (!value.isNumber()) {
        return "LoadGen's " + key + ": " + value + " is no number";
      }
      return hold(lineNo, line, f, value.asDouble());
    }

    private String hold(long lineNo, String line, Figure f, double v) {
      String bad = Checked.figureProblem(f.metric() + (f.stat().equals("value") ? "" : " " + f.stat()), v, f.unit());
      if (bad != null) {
        return bad;
      }
      if (f.metric().equals("target_qps")) {
        targetQps = v;
      }
      String id = f.metric() + " " + f.stat();
      Double before = seen.putIfAbsent(id, v);
      if (before != null) {
        // the summary prints completed tokens per second twice (headline and token block)
        return before == v ? null : "LoadGen's " + id + " again, " + v + " after " + before;
      }
      held.add(new Held(lineNo, line, List.of(f), List.of(v)));
      return "";
    }

    /** States the run's level, then accounts for every figure line held. */
    void emit(String run, RecordSink sink) {
      String levelKind = null;
      Double level = null;
      String sc = scenario == null ? "" : scenario;
      if ((sc.equals("Server") || sc.equals("Interactive")) && targetQps != null && targetQps > 0) {
        levelKind = "request_rate";
        // the summary prints the target to six significant digits: the detail's, so rounded, is
        // the same level, and the run folder's two files one run
        level = new BigDecimal(targetQps).round(new java.math.MathContext(6)).doubleValue();
      } else if (sc.equals("SingleStream")) {
        levelKind = "concurrency";
        level = 1.0;
      }
      if (levelKind != null && Checked.levelProblem(levelKind, level) != null) {
        levelKind = null;
        level = null;
      }
      String how = "MLPerf LoadGen " + (scenario == null ? "(no scenario)" : scenario)
          + (mode == null ? "" : " " + mode) + (levelKind == null ? "" : ": target_qps");
      String conflict = held.isEmpty() ? null : sink.runLevel(run, levelKind, level, null, how);
      for (Held h : held) {
        if (conflict != null) {
          byte[] b = h.text().getBytes(StandardCharsets.UTF_8);
          sink.reject(h.lineNo(), conflict, b, 0, b.length);
          continue;
        }
        for (int i = 0; i < h.figures().size(); i++) {
          Figure f = h.figures().get(i);
          sink.reportedMetric(run, level, f.metric(), f.stat(), h.values().get(i), f.unit());
        }
        sink.record();
      }
    }

    private static String cut(String line) {
      return "a cut line: LoadGen's '" + line + "' does not read whole (<label> : <number>)";
    }

    private static String statMetric(String what) {
      return switch (what.toLowerCase(Locale.ROOT)) {
        case "first token latency" -> "ttft";
        case "time to output token", "time per output token" -> "tpot";
        default -> "e2el";
      };
    }

    /** "99.90" → p99.9, "50.00" → p50. */
    private static String percentile(String p) {
      return "p" + new BigDecimal(p).stripTrailingZeros().toPlainString();
    }

    private static Double yesNo(String v) {
      return switch (v.strip().toUpperCase(Locale.ROOT)) {
        case "YES", "VALID", "TRUE" -> 1.0;
        case "NO", "INVALID", "FALSE" -> 0.0;
        default -> null;
      };
    }

    private static Double number(String v) {
      try {
        return Double.parseDouble(v);
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }
}
