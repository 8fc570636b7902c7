package dev.tokentime.formats.vllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.JsonText;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.formats.json.ToolClocks;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * aiperf-server-metrics: the inference server's Prometheus metrics as AIPerf scraped them while it
 * ran (on by default since AIPerf 0.4), {@code server_metrics_export.jsonl}: one line per scrape
 * of one endpoint, {@code {endpoint_url, timestamp_ns, metrics: {name: [sample, …]}}}, a sample
 * {@code {labels?, value}} for a counter or gauge, {@code {labels?, histogram: {le: count}, sum,
 * count}} for a histogram (newer writers call the map {@code buckets}). AIPerf drops repeated
 * scrapes, keeping the first and last of each unchanged stretch, so a gauge's rows mark where it
 * changed.
 *
 * <p>The samples are read as the engines' own /metrics scrapes are ({@link PromSeries}, the
 * {@link PromFamily} mappings): vLLM's, SGLang's, trtllm-serve's and Triton's gauges become
 * engine_stats rows (running, waiting, KV usage, …), their histograms bucket deltas. The rows are
 * on AIPerf's clock ({@link ToolClocks#aiperf}), the clock of the request records beside them, so
 * the engine's queue and batch are drawn on the run's time axis; each endpoint leads its rows'
 * instance. A histogram written as a bare list of counts (a writer that keeps the bounds in
 * server_metrics_metadata.json) and summaries are not read; metrics of no known engine (Dynamo's
 * frontend, a node exporter) make a line an other line when nothing else in it is read.
 *
 * <p>AIPerf's other server-metric files hold no times (the schemas, {@code
 * server_metrics_metadata.json}; the aggregate over the run, {@code server_metrics.json} / {@code
 * .csv}): left out beside the run's files, and rejected as what they are when ingested alone.
 */
public final class AiperfServerMetricsFormat extends NamedFormat {
  /** AIPerf's aggregate and schema files: {@code [prefix_]server_metrics[_export|_metadata].{json,csv}}. */
  private static final Pattern SIDE_FILES = Pattern.compile("(?:.*_)?server_metrics(?:_export|_metadata)?\\.(?:json|csv)");
  static final String SIDE_FILE_NOT_READ = "AIPerf's server-metric schemas or aggregate over the run: no scrape"
      + " times to draw; the scrapes are in server_metrics_export.jsonl (newer AIPerf writes it with"
      + " --server-metrics-formats jsonl)";
  private static final List<PromFamily> FAMILIES = List.of(PromFamily.VLLM, PromFamily.SGLANG, PromFamily.TRTLLM,
      PromFamily.TRITON);
  /** The first line is read whole to tell scrapes from a document; a longer one is no scrape line. */
  private static final int PEEK = 1 << 20;

  public AiperfServerMetricsFormat() {
    super("aiperf-server-metrics",
        "engine_stats, metric_histograms",
        "AIPerf server_metrics_export.jsonl: the server's Prometheus metrics as AIPerf scraped them, one scrape a line");
  }

  @Override
  public int sniff(Sample sample) {
    List<String> lines = sample.firstLines(1);
    String first = lines.isEmpty() ? sample.text().stripLeading() : lines.get(0);
    if (first.startsWith("{") && first.contains("\"endpoint_url\"") && first.contains("\"timestamp_ns\"")
        && first.contains("\"metrics\"")) {
      return 92;
    }
    String name = sample.fileName() == null ? "" : sample.fileName();
    return SIDE_FILES.matcher(name).matches() && sample.text().contains("endpoint") ? 70 : 0;
  }

  @Override
  public String leaveOut(String fileName, java.util.Set<String> folder) {
    return folder.size() > 1 && SIDE_FILES.matcher(fileName).matches() ? SIDE_FILE_NOT_READ : null;
  }

  @Override
  public long parse(InputStream raw, ParseContext ctx, RecordSink sink) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
    if (!scrapes(in)) {
      sink.reject(1, SIDE_FILE_NOT_READ, null, 0, 0);
      return 1;
    }
    int clock = sink.clock(ToolClocks.aiperf(ctx));
    Map<PromFamily, PromSeries> series = new LinkedHashMap<>();
    for (PromFamily f : FAMILIES) {
      series.put(f, new PromSeries(sink, clock, f));
    }
    long n = new LineReader(in).forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) {
        if (JsonText.isBlank(buf, off, len)) {
          sink.otherLine();
          return;
        }
        try (com.fasterxml.jackson.core.JsonParser jp = PeerJson.JSON.createParser(buf, off, len)) {
          JsonNode node = PeerJson.TREE.readTree(jp);
          if (jp.nextToken() != null) {
            throw new PeerJson.Bad("more than one JSON value on the line (a scrape is one object)");
          }
          if (scrape(node, lineNo, series)) {
            sink.record();
            // a line holds an endpoint's whole scrape at one time: its rows are complete, and a
            // day of scrapes every 0.1 s is not held until the end
            series.values().forEach(PromSeries::finish);
          } else {
            sink.otherLine();
          }
        } catch (PeerJson.Bad | NumberFormatException e) {
          sink.reject(lineNo, e.getMessage(), buf, off, len);
        } catch (IOException e) {
          String reason = PeerJson.reason(e);
          sink.reject(lineNo, reason.startsWith("truncated") ? "truncated JSON: the line ends inside the scrape"
              : reason, buf, off, len);
        }
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        sink.reject(lineNo, "line of " + length + " bytes is longer than the limit of "
            + LineReader.DEFAULT_MAX_LINE_BYTES + " bytes; skipped", head, 0, headLen);
      }
    });
    series.values().forEach(PromSeries::finish);
    return n;
  }

  /**
   * Whether the first line that is not blank is a scrape (else the file is one of AIPerf's
   * documents without times, its first line a lone "{").
   */
  private static boolean scrapes(BufferedInputStream in) throws IOException {
    in.mark(PEEK);
    byte[] head = in.readNBytes(PEEK);
    in.reset();
    int start = 0;
    while (start < head.length) {
      int end = start;
      while (end < head.length && head[end] != '\n') {
        end++;
      }
      String line = new String(head, start, end - start, StandardCharsets.UTF_8).strip();
      if (!line.isEmpty()) {
        return line.startsWith("{") && line.contains("\"timestamp_ns\"") && line.contains("\"metrics\"");
      }
      start = end + 1;
    }
    return true; // blank lines alone: other lines
  }

  /** One scrape's samples, checked whole before any is kept (the line is one unit). Whether any was read. */
  private static boolean scrape(JsonNode node, long lineNo, Map<PromFamily, PromSeries> series) throws PeerJson.Bad {
    if (node == null || !node.isObject()) {
      throw new PeerJson.Bad("not a JSON object (a scrape: endpoint_url, timestamp_ns, metrics)");
    }
    JsonNode ts = node.get("timestamp_ns");
    if (ts == null || !ts.isIntegralNumber() || !ts.canConvertToLong()) {
      throw new PeerJson.Bad("timestamp_ns: expected an integer of nanoseconds, got " + describe(ts));
    }
    long tsNs = ts.longValue();
    if (tsNs < Checked.MIN_EPOCH_NS || tsNs > Checked.MAX_EPOCH_NS) { // AIPerf's time.time_ns(), never a clock's start
      throw new PeerJson.Bad("timestamp_ns out of range: " + tsNs + " is no Unix time in ns between 1990 and 2100");
    }
    JsonNode metrics = node.get("metrics");
    if (metrics == null || !metrics.isObject()) {
      throw new PeerJson.Bad("metrics: expected an object of metric families, got " + describe(metrics));
    }
    List<Sampled> samples = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> family = it.next();
      PromFamily owner = owner(family.getKey());
      if (owner == null) {
        continue;
      }
      if (!family.getValue().isArray()) {
        throw new PeerJson.Bad(family.getKey() + ": expected a list of samples, got " + describe(family.getValue()));
      }
      for (JsonNode s : family.getValue()) {
        collect(family.getKey(), owner, s, samples);
      }
    }
    if (samples.isEmpty()) {
      return false;
    }
    // every sample checked before any is kept: a rejected scrape leaves no row and no delta
    Map<String, Sampled> lastBucket = new java.util.HashMap<>();
    for (Sampled s : samples) {
      String problem = series.get(s.family).problem(s.name, s.labels, s.value);
      if (problem != null) {
        throw new PeerJson.Bad(problem);
      }
      String le = s.labels.get("le");
      if (le != null && s.name.endsWith("_bucket")) {
        Map<String, String> rest = new java.util.TreeMap<>(s.labels);
        rest.remove("le");
        Sampled prev = lastBucket.put(s.name + rest, s);
        String notCumulative = prev == null ? null : PromSeries.cumulativeProblem(s.name, bound(le), le, s.value,
            bound(prev.labels.get("le")), prev.labels.get("le"), prev.value);
        if (notCumulative != null) {
          throw new PeerJson.Bad(notCumulative);
        }
      }
    }
    String target = target(node.path("endpoint_url").asText(null));
    boolean read = false;
    for (PromSeries s : series.values()) {
      s.target(target);
    }
    for (Sampled s : samples) {
      PromSeries.Use use = series.get(s.family).sample(s.name, s.labels, tsNs, s.value, lineNo);
      read |= use == PromSeries.Use.STATS || use == PromSeries.Use.HISTOGRAM;
    }
    return read;
  }

  private record Sampled(PromFamily family, String name, Map<String, String> labels, double value) {}

  private static double bound(String le) {
    return le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
  }

  private static void collect(String name, PromFamily owner, JsonNode s, List<Sampled> out) throws PeerJson.Bad {
    if (!s.isObject()) {
      throw new PeerJson.Bad(name + ": expected a sample object, got " + describe(s));
    }
    Map<String, String> labels = new LinkedHashMap<>();
    JsonNode l = s.get("labels");
    if (l != null && l.isObject()) {
      l.fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
    }
    JsonNode value = s.get("value");
    if (value != null && !value.isNull()) {
      out.add(new Sampled(owner, name, labels, number(name, value)));
      return;
    }
    JsonNode buckets = s.has("histogram") ? s.get("histogram") : s.get("buckets");
    if (buckets != null && buckets.isObject()) { // a bare list of counts needs the schema file's bounds: not read
      for (Iterator<Map.Entry<String, JsonNode>> it = buckets.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> b = it.next();
        Map<String, String> withLe = new LinkedHashMap<>(labels);
        withLe.put("le", b.getKey());
        out.add(new Sampled(owner, name + "_bucket", withLe, number(name + "{le=" + b.getKey() + "}", b.getValue())));
      }
    }
  }

  private static double number(String what, JsonNode v) throws PeerJson.Bad {
    if (!v.isNumber()) {
      throw new PeerJson.Bad(what + ": expected a number, got " + describe(v));
    }
    double d = v.asDouble();
    if (!Double.isFinite(d)) {
      throw new PeerJson.Bad(what + ": " + v.asText() + " is no value");
    }
    return d;
  }

  private static PromFamily owner(String name) {
    for (PromFamily f : FAMILIES) {
      if (f.owns(name)) {
        return f;
      }
    }
    return null;
  }

  /** host:port of the endpoint's URL, or the URL as written. */
  static String target(String url) {
    if (url == null || url.isBlank()) {
      return null;
    }
    try {
      String authority = URI.create(url.strip()).getAuthority();
      return authority != null ? authority : url.strip();
    } catch (IllegalArgumentException e) {
      return url.strip();
    }
  }

  private static String describe(JsonNode v) {
    if (v == null || v.isMissingNode()) {
      return "nothing";
    }
    String text = v.toString();
    return text.length() > 40 ? text.substring(0, 40) + "…" : text;
  }
}
