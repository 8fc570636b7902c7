package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * GuideLLM's {@code benchmarks.csv} (0.4 and later; written by default beside benchmarks.json
 * from 0.7): three header rows (a group such as {@code Time to First Token}, a status with the
 * units such as {@code Successful ms}, a statistic or unit), then a row per benchmark. Each row is
 * a run, {@code <run>}, {@code <run>#2}, … as guidellm-json names the same benchmarks, at the
 * level of the strategy its profile completed at its run index; its statistics of the successful
 * requests become reported_metrics under the names guidellm-json gives the report's
 * ({@code time_to_first_token_ms} mean, median, std_dev and the percentile list's min, p001 …
 * p99, max), its request counts {@code requests_successful} … The CSV keeps no request.
 */
public final class GuidellmCsvFormat extends NamedFormat {
  private static final Pattern SNIFF = Pattern.compile("\\A\\uFEFF?Run Info,Run Info,[^\\r\\n]*,Request Counts,");
  /** GuideLLM 0.2–0.3's one header row. */
  private static final Pattern OLD = Pattern.compile("\\A\\uFEFF?Type,Run Id,Id,Name,Start Time,End Time,Duration,");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?");
  /** The CSV's group and units → the report's metric. */
  private static final Map<String, String> METRICS = Map.ofEntries(
      Map.entry("Request Latency|Sec", "request_latency"),
      Map.entry("Streaming Iterations|Count", "request_streaming_iterations_count"),
      Map.entry("Time to First Token|ms", "time_to_first_token_ms"),
      Map.entry("Time to First Output Token|ms", "time_to_first_output_token_ms"),
      Map.entry("Time per Output Token|ms", "time_per_output_token_ms"),
      Map.entry("Inter Token Latency|ms", "inter_token_latency_ms"),
      Map.entry("Server Throughput|Requests/Sec", "requests_per_second"),
      Map.entry("Server Throughput|Concurrency", "request_concurrency"),
      Map.entry("Token Metrics|Input Tokens", "prompt_token_count"),
      Map.entry("Token Metrics|Output Tokens", "output_token_count"),
      Map.entry("Token Metrics|Total Tokens", "total_token_count"),
      Map.entry("Token Throughput|Input Tokens/Sec", "prompt_tokens_per_second"),
      Map.entry("Token Throughput|Output Tokens/Sec", "output_tokens_per_second"),
      Map.entry("Token Throughput|Total Tokens/Sec", "tokens_per_second"),
      Map.entry("Token Streaming|Output Tokens/Iter", "output_tokens_per_iteration"),
      Map.entry("Token Streaming|Iter Tokens/Iter", "iter_tokens_per_iteration"));
  /** The percentile cell's list, as GuideLLM writes it. */
  private static final String[] LIST = {"min", "p001", "p01", "p05", "p10", "p25", "p75", "p90", "p95", "p99", "max"};

  public GuidellmCsvFormat() {
    super("guidellm-csv",
        "runs, reported_metrics",
        "GuideLLM benchmarks.csv (0.4 and later): a run per benchmark row, its statistics as the report's");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String head = new String(sample.bytes(), 0, Math.min(sample.length(), 4096), StandardCharsets.UTF_8);
    return SNIFF.matcher(head).lookingAt() || OLD.matcher(head).lookingAt() && head.contains(",Successful Requests,") ? 95 : 0;
  }

  /** The report written beside it holds all the CSV holds, and its requests. */
  @Override
  public String leaveOut(String fileName, java.util.Set<String> folder) {
    if (!fileName.toLowerCase(java.util.Locale.ROOT).endsWith(".csv")) {
      return null;
    }
    String stem = fileName.substring(0, fileName.length() - 4);
    for (String ext : new String[] {".json", ".yaml", ".yml"}) {
      if (folder.contains(stem + ext)) {
        return "GuideLLM's CSV of the report beside it (" + stem + ext + ", which is read)";
      }
    }
    return null;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    List<List<String>> header = new ArrayList<>();
    int[] runs = {0};
    boolean[] old = {false};
    return TextLines.readEndings(in, sink, "a GuideLLM CSV", (lineNo, raw, terminated) -> {
      String text = lineNo == 1 && raw.startsWith("\uFEFF") ? raw.substring(1) : raw;
      if (old[0]) {
        sink.otherLine();
        return null;
      }
      if (lineNo == 1 && OLD.matcher(text).lookingAt()) {
        old[0] = true;
        return "GuideLLM 0.2–0.3's CSV (one header row): not read; its benchmarks.json holds the same statistics and the requests";
      }
      if (text.isBlank()) {
        sink.otherLine();
        return null;
      }
      List<String> cells = CsvCells.of(text);
      if (cells == null) {
        return "not a CSV row (a quote left open)";
      }
      if (header.size() < 3) {
        if (header.isEmpty() && (cells.size() < 2 || !cells.get(0).equals("Run Info"))) {
          return "not GuideLLM's CSV header (Run Info,Run Info,…,Request Counts,…)";
        }
        if (!header.isEmpty() && cells.size() != header.get(0).size()) {
          return "a cut header row: " + cells.size() + " of the first row's " + header.get(0).size() + " cells";
        }
        header.add(cells);
        sink.otherLine();
        return null;
      }
      if (!terminated) {
        return TextLines.CUT_LAST_ROW; // the writer ends each row with a line end
      }
      if (cells.size() != header.get(0).size()) {
        return "a cut row: " + cells.size() + " of the header's " + header.get(0).size() + " cells";
      }
      return row(header, cells, runs, ctx, sink);
    });
  }

  private static String row(List<List<String>> h, List<String> cells, int[] runs, ParseContext ctx, RecordSink sink) {
    List<Object[]> figures = new ArrayList<>();
    String strategyType = null;
    JsonNode profile = null;
    Integer runIndex = null;
    for (int i = 0; i < cells.size(); i++) {
      String group = h.get(0).get(i);
      String name = h.get(1).get(i);
      String third = h.get(2).get(i);
      String v = cells.get(i).strip();
      if (group.equals("Run Info") && name.equals("Profile")) {
        try {
          profile = PeerJson.TREE.readTree(v);
        } catch (IOException | RuntimeException e) {
          profile = null; // the level is then the strategy's type alone
        }
      } else if (group.equals("Run Info") && name.equals("Run Index") && v.matches("[0-9]{1,6}")) {
        runIndex = Integer.parseInt(v);
      } else if (group.equals("Benchmark") && name.equals("Strategy")) {
        strategyType = v;
      } else if (group.equals("Request Counts")) {
        if (!v.matches("[0-9]{1,12}")) {
          return "Request Counts " + name + ": '" + v + "' is no count";
        }
        figures.add(new Object[] {"requests_" + name.toLowerCase(java.util.Locale.ROOT), "value",
            Double.parseDouble(v), "requests"});
      } else if (name.startsWith("Successful ")) {
        String metric = METRICS.get(group + "|" + name.substring("Successful ".length()));
        if (metric == null || v.isEmpty()) {
          continue; // a modality's table (Text Tokens, …) or a group of a later GuideLLM
        }
        String unit = GuidellmFormat.metricUnit(metric);
        String column = group + " " + name + " " + third;
        switch (third) {
          case "Mean", "Median", "Std Dev" -> {
            if (!NUMBER.matcher(v).matches()) {
              return column + ": '" + v + "' is no number";
            }
            String stat = third.equals("Mean") ? "mean" : third.equals("Median") ? "median" : "std_dev";
            figures.add(new Object[] {metric, stat, Double.parseDouble(v), unit});
          }
          case "Percentiles" -> {
            String[] parts = v.startsWith("[") && v.endsWith("]") ? v.substring(1, v.length() - 1).split(",\\s*") : null;
            if (parts == null || parts.length != LIST.length) {
              return column + ": expected [min, p0.1, p1, p5, p10, p25, p75, p90, p95, p99, max], got '" + v + "'";
            }
            for (int k = 0; k < parts.length; k++) {
              if (!NUMBER.matcher(parts[k]).matches()) {
                return column + ": '" + parts[k] + "' is no number";
              }
              figures.add(new Object[] {metric, LIST[k], Double.parseDouble(parts[k]), unit});
            }
          }
          default -> { }
        }
      }
    }
    for (Object[] f : figures) {
      String bad = Checked.figureProblem(f[0] + " " + f[1], (Double) f[2], (String) f[3]);
      if (bad != null) {
        return bad;
      }
    }
    JsonNode strategy = null;
    if (profile != null && runIndex != null && profile.path("completed_strategies").isArray()
        && runIndex < profile.get("completed_strategies").size()) {
      strategy = profile.get("completed_strategies").get(runIndex);
    }
    if (strategy == null && strategyType != null && strategyType.equals("synchronous")) {
      strategy = PeerJson.TREE.createObjectNode().put("type_", "synchronous");
    }
    Double level = strategy == null ? null : GuidellmFormat.strategyLevel(strategy);
    runs[0]++;
    String run = runs[0] == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + runs[0];
    String conflict = sink.runLevel(run, level == null ? null : GuidellmFormat.strategyKind(strategy), level, null,
        "GuideLLM strategy " + (strategyType == null ? "(none)" : strategyType));
    if (conflict != null) {
      return conflict;
    }
    for (Object[] f : figures) {
      sink.reportedMetric(run, level, (String) f[0], (String) f[1], (Double) f[2], (String) f[3]);
    }
    sink.record();
    return null;
  }
}
