package dev.tokentime.formats.peers;

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
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Locust's {@code --csv PREFIX} statistics, {@code PREFIX_stats.csv}: a row per request type and
 * name with its count, failures, response-time statistics (ms) and rate, then the
 * {@code Aggregated} row. LLM load tests built on Locust (Fireworks' llm_bench and others) fire
 * their per-request figures as events of type {@code METRIC} ({@code time_to_first_token},
 * {@code total_latency}, {@code num_tokens}, …), whose "response time" is the figure itself: such
 * a row's statistics are in the unit the script fired them in (ms or tokens for the names
 * llm_bench fires, unstated for others), and the {@code Aggregated} row, which then pools ms
 * with token counts, keeps its counts and rates only. Every figure is a reported_metric of the
 * file's run, named after the row (the METRIC's name, else {@code "<Type> <Name>"}).
 */
public final class LocustStatsCsvFormat extends NamedFormat {
  /** Locust 1.0 and later ("Type,Name,Request Count,…"); 0.x ("Method","Name","# requests",…). */
  private static final Pattern SNIFF = Pattern.compile("\\A\\uFEFF?\"?(?:Type|Method)\"?,\"?Name\"?,"
      + "\"?(?:Request Count|# requests)\"?,\"?(?:Failure Count|# failures)\"?,\"?Median [Rr]esponse [Tt]ime\"?,");
  /** PREFIX_stats_history.csv: a snapshot a second (Locust 1.0 and later). */
  private static final Pattern HISTORY = Pattern.compile("\\A\\uFEFF?\"?Timestamp\"?,\"?User Count\"?,\"?Type\"?,\"?Name\"?,\"?Requests/s\"?,");
  private static final Pattern PERCENT = Pattern.compile("^(\\d{1,3}(?:\\.\\d+)?)%$");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?");
  /** The header's statistic columns (lower case) → the reported statistic. */
  private static final Map<String, String> STATS = Map.ofEntries(
      Map.entry("request count", "count"), Map.entry("# requests", "count"),
      Map.entry("failure count", "failures"), Map.entry("# failures", "failures"),
      Map.entry("median response time", "median"), Map.entry("average response time", "mean"),
      Map.entry("min response time", "min"), Map.entry("max response time", "max"),
      Map.entry("average content size", "mean_content_size"),
      Map.entry("requests/s", "rate"), Map.entry("failures/s", "failure_rate"));
  /** The METRIC events Fireworks' llm_bench fires, by what their "response time" holds. */
  private static final java.util.Set<String> MS = java.util.Set.of("time_to_first_token", "latency_per_token",
      "overall_latency_per_token", "total_latency", "latency_per_char", "latency_per_embedding",
      "server_side_total_latency", "server_side_time_to_first_token");
  private static final java.util.Set<String> TOKENS = java.util.Set.of("generation_tokens", "completion_tokens",
      "num_tokens", "prompt_tokens", "cached_tokens", "token_count", "total_tokens");
  /** llm_bench's track_performance_metrics (2026): the same request's figures in their own units. */
  private static final Map<String, String> OTHER = Map.of("response_time", "s", "ttft", "s", "generation_time", "s",
      "char_count", "chars", "tokens_per_second", "tokens/s", "generation_tokens_per_second", "tokens/s",
      "chars_per_second", "chars/s", "efficiency", "ratio");

  public LocustStatsCsvFormat() {
    super("locust-stats-csv",
        "reported_metrics",
        "Locust --csv statistics (PREFIX_stats.csv): a figure per request type and statistic, LLM tests' METRIC events included");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String head = new String(sample.bytes(), 0, Math.min(sample.length(), 1024), StandardCharsets.UTF_8);
    return SNIFF.matcher(head).lookingAt() || HISTORY.matcher(head).lookingAt() ? 95 : 0;
  }

  /** Locust's other --csv files beside the statistics: what they hold is there too, or is no figure. */
  @Override
  public String leaveOut(String fileName, java.util.Set<String> folder) {
    Matcher m = Pattern.compile("(.+)_(stats_history|failures|exceptions)\\.csv").matcher(fileName);
    if (!m.matches() || !folder.contains(m.group(1) + "_stats.csv")) {
      return null;
    }
    return "Locust's " + m.group(2).replace('_', ' ') + " beside " + m.group(1) + "_stats.csv, which is read";
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    List<String> header = new ArrayList<>();
    boolean[] metricRows = {false};
    boolean[] level = {false};
    return TextLines.readEndings(in, sink, "a Locust statistics CSV", (lineNo, raw, terminated) -> {
      String text = raw.strip();
      if (lineNo == 1 && text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
      if (text.isEmpty()) {
        sink.otherLine();
        return null;
      }
      List<String> cells = CsvCells.of(text);
      if (cells == null) {
        return "not a CSV row (a quote left open)";
      }
      if (header.isEmpty() && HISTORY.matcher(text).lookingAt()) {
        header.add("history");
        return "Locust's statistics history (a snapshot a second, the users then): not read; the run's statistics are"
            + " in the PREFIX_stats.csv Locust wrote beside it";
      }
      if (header.size() == 1 && header.get(0).equals("history")) {
        sink.otherLine();
        return null;
      }
      if (header.isEmpty()) {
        if (!SNIFF.matcher(text + ",").lookingAt() && !SNIFF.matcher(text).lookingAt()) {
          return "not Locust's statistics header (Type,Name,Request Count,Failure Count,Median Response Time,…)";
        }
        // a column of no statistic this reader knows (a later Locust's) is left unread, as is its
        // cell in each row: the header's first columns are Locust's, so the rest are its figures
        header.addAll(cells.stream().map(c -> c.strip()).toList());
        sink.otherLine();
        return null;
      }
      if (!terminated) {
        return TextLines.CUT_LAST_ROW; // the writer ends each row with a line end
      }
      if (cells.size() != header.size()) {
        return "a cut row: " + cells.size() + " of the header's " + header.size() + " cells";
      }
      String type = cells.get(0).strip();
      String name = cells.get(1).strip();
      // Locust 0.x names the row "Total"
      boolean aggregated = (name.equals("Aggregated") || name.equals("Total")) && (type.isEmpty() || type.equals("None"));
      boolean metric = type.equals("METRIC");
      metricRows[0] |= metric;
      String series = aggregated ? "Aggregated" : metric ? name : type + " " + name;
      String timeUnit = metric ? (MS.contains(name) ? "ms" : TOKENS.contains(name) ? "tokens" : OTHER.get(name)) : "ms";
      List<Object[]> figures = new ArrayList<>();
      for (int i = 2; i < cells.size(); i++) {
        String stat = stat(header.get(i));
        String v = cells.get(i).strip();
        if (stat == null || v.equals("N/A") || v.isEmpty()) {
          continue; // Locust's print of a percentile of no request
        }
        if (!NUMBER.matcher(v).matches()) {
          return header.get(i) + ": '" + v + "' is no number";
        }
        boolean responseTime = !List.of("count", "failures", "mean_content_size", "rate", "failure_rate").contains(stat);
        if (aggregated && metricRows[0] && responseTime) {
          continue; // pooled over ms and token counts: no figure of anything
        }
        if (metric && stat.equals("mean_content_size")) {
          continue; // the length a script passed with its figure, not a response's size
        }
        String unit = switch (stat) {
          case "count", "failures" -> "requests";
          case "rate", "failure_rate" -> "requests/s";
          case "mean_content_size" -> "bytes";
          default -> timeUnit;
        };
        double d = Double.parseDouble(v);
        String bad = Checked.figureProblem(series + " " + header.get(i), d, unit);
        if (bad != null) {
          return bad;
        }
        figures.add(new Object[] {stat, d, unit});
      }
      if (!level[0]) {
        level[0] = true;
        // the statistics say nothing of the users Locust ran: the run has no level
        String conflict = sink.runLevel(ctx.defaultRun(), null, null, null, "Locust statistics");
        if (conflict != null) {
          return conflict;
        }
      }
      for (Object[] f : figures) {
        sink.reportedMetric(ctx.defaultRun(), null, series, (String) f[0], (Double) f[1], (String) f[2]);
      }
      sink.record();
      return null;
    });
  }

  /** A header column's statistic ("50%" → p50, "99.9%" → p99.9), or null. */
  static String stat(String column) {
    Matcher m = PERCENT.matcher(column.strip());
    if (m.matches()) {
      return "p" + m.group(1);
    }
    return STATS.get(column.strip().toLowerCase(Locale.ROOT));
  }
}
