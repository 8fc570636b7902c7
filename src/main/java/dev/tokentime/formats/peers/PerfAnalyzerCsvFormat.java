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
import java.util.regex.Pattern;

/**
 * Triton perf_analyzer's {@code -f} CSV: a header {@code Concurrency,Inferences/Second,Client
 * Send,Network+Server Send/Recv,Server Queue,Server Compute Input,Server Compute Infer,Server
 * Compute Output,Client Recv,p50 latency,…} ({@code Request Rate} first under
 * --request-rate-range; later versions add {@code Avg latency,request/response,response wait},
 * --collect-metrics GPU columns), then a row per level, sorted by throughput. Each row is a run at
 * its level; its figures become reported_metrics in µs (usec, as perf_analyzer prints them) and
 * infer/sec, named as perf-analyzer-console names the printed ones.
 */
public final class PerfAnalyzerCsvFormat extends NamedFormat {
  private static final Pattern HEADER = Pattern.compile(
      "^(?:Concurrency|Request Rate),Inferences/Second,Client Send,.*");
  private static final Pattern SNIFF = Pattern.compile(
      "\\A\\uFEFF?(?:Concurrency|Request Rate),Inferences/Second,Client Send,Network\\+Server Send/Recv,Server Queue,");
  private static final Pattern NUMBER = Pattern.compile("[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?");
  private static final Pattern PERCENTILE = Pattern.compile("p([0-9]{1,2}) latency");

  public PerfAnalyzerCsvFormat() {
    super("perf-analyzer-csv",
        "reported_metrics",
        "Triton perf_analyzer -f CSV: a run per concurrency or request rate, latency components in usec");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String head = new String(sample.bytes(), 0, Math.min(sample.length(), 512), StandardCharsets.UTF_8);
    return SNIFF.matcher(head).lookingAt() ? 95 : 0;
  }

  /** A column's metric and statistic, or null for a column not read (the GPU metrics' per-GPU pairs). */
  static String[] column(String name) {
    var p = PERCENTILE.matcher(name);
    if (p.matches()) {
      return new String[] {"latency", "p" + p.group(1), "usec"};
    }
    return switch (name) {
      case "Inferences/Second" -> new String[] {"throughput", "value", "infer/sec"};
      case "Avg latency" -> new String[] {"latency", "avg", "usec"};
      case "Client Send", "Network+Server Send/Recv", "Server Queue", "Server Compute Input",
          "Server Compute Infer", "Server Compute Output", "Client Recv", "request/response", "response wait" ->
          new String[] {name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_"), "avg", "usec"};
      default -> null;
    };
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    List<String> header = new ArrayList<>();
    int[] runs = {0};
    return TextLines.read(in, sink, "a perf_analyzer CSV", (lineNo, raw) -> {
      String text = raw.strip();
      if (lineNo == 1 && text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
      if (text.isEmpty()) {
        sink.otherLine();
        return null;
      }
      if (HEADER.matcher(text).matches()) {
        header.clear();
        header.addAll(List.of(text.split(",", -1)));
        sink.otherLine();
        return null;
      }
      if (header.isEmpty()) {
        return "a perf_analyzer CSV row before its header (Concurrency,Inferences/Second,Client Send,…)";
      }
      List<String> cells = new ArrayList<>(List.of(text.split(",", -1)));
      // --collect-metrics rows end with a comma after their last "gpu:value;" cell
      if (cells.size() == header.size() + 1 && cells.get(cells.size() - 1).isEmpty()) {
        cells.remove(cells.size() - 1);
      }
      if (cells.size() != header.size()) {
        return "a cut row: " + cells.size() + " of the header's " + header.size() + " cells";
      }
      for (int i = 0; i < cells.size(); i++) {
        if ((i == 0 || column(header.get(i)) != null) && !NUMBER.matcher(cells.get(i)).matches()) {
          return header.get(i) + ": '" + cells.get(i) + "' is no number";
        }
      }
      double level = Double.parseDouble(cells.get(0));
      if (!Double.isFinite(level)) {
        return header.get(0) + ": " + cells.get(0) + " is no finite number";
      }
      String kind = header.get(0).equals("Concurrency") ? "concurrency" : "request_rate";
      String levelBad = Checked.levelProblem(kind, level);
      if (levelBad != null) {
        return header.get(0) + " " + cells.get(0) + ": " + levelBad;
      }
      for (int i = 1; i < cells.size(); i++) {
        String[] c = column(header.get(i));
        String bad = c == null ? null : Checked.figureProblem(header.get(i), Double.parseDouble(cells.get(i)), c[2]);
        if (bad != null) {
          return bad;
        }
      }
      runs[0]++;
      String run = runs[0] == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + runs[0];
      String conflict = sink.runLevel(run, kind, level, null, "perf_analyzer CSV row");
      if (conflict != null) {
        return conflict;
      }
      for (int i = 1; i < cells.size(); i++) {
        String[] c = column(header.get(i));
        if (c != null) {
          sink.reportedMetric(run, level, c[0], c[1], Double.parseDouble(cells.get(i)), c[2]);
        }
      }
      sink.record();
      return null;
    });
  }
}
