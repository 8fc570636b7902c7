package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.formats.json.ToolMetricNames;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ModelScope EvalScope's {@code evalscope perf} result files, written per run into
 * {@code outputs/<timestamp>/<model>/} (since 0.16 one {@code parallel_<p>_number_<n>/} folder per
 * level): {@code benchmark_summary.json}, one flat object of run figures keyed by display name,
 * and {@code benchmark_percentile.json}, an array of one row per percentile. Both become
 * reported_metrics of the folder's run under one name per figure whichever EvalScope wrote them:
 * up to 1.6 the keys are long and every time is in seconds ({@code "Average time to first token
 * (s)"}, {@code "TTFT (s)"}), since 1.7 short and TTFT, TPOT and ITL in ms ({@code "Avg TTFT (ms)"},
 * {@code "TTFT (ms)"}); the unit stored is the one the key names. Its per-request
 * {@code benchmark_data.db} is SQLite, a reject saying so.
 */
public final class EvalscopePerfFormat implements InputFormat {

  /** A figure's name, statistic and unit. */
  record Figure(String metric, String stat, String unit) {}

  /** benchmark_summary.json's keys, both generations, to one name each. */
  static final Map<String, Figure> SUMMARY = Map.ofEntries(
      Map.entry("Time taken for tests (s)", new Figure("duration", "value", "s")),
      Map.entry("Test Duration (s)", new Figure("duration", "value", "s")),
      Map.entry("Number of concurrency", new Figure("concurrency", "value", "")),
      Map.entry("Concurrency", new Figure("concurrency", "value", "")),
      Map.entry("Request rate (req/s)", new Figure("request_rate", "value", "requests/s")),
      Map.entry("Request Rate (req/s)", new Figure("request_rate", "value", "requests/s")),
      Map.entry("Total requests", new Figure("total_requests", "value", "requests")),
      Map.entry("Total Requests", new Figure("total_requests", "value", "requests")),
      Map.entry("Expected number of requests", new Figure("expected_requests", "value", "requests")),
      Map.entry("Succeed requests", new Figure("succeed_requests", "value", "requests")),
      Map.entry("Success Requests", new Figure("succeed_requests", "value", "requests")),
      Map.entry("Failed requests", new Figure("failed_requests", "value", "requests")),
      Map.entry("Failed Requests", new Figure("failed_requests", "value", "requests")),
      Map.entry("Stream Requests", new Figure("stream_requests", "value", "requests")),
      Map.entry("Non-Stream Requests", new Figure("non_stream_requests", "value", "requests")),
      Map.entry("Request throughput (req/s)", new Figure("request_throughput", "value", "requests/s")),
      Map.entry("Req Throughput (req/s)", new Figure("request_throughput", "value", "requests/s")),
      Map.entry("Output token throughput (tok/s)", new Figure("output_throughput", "value", "tokens/s")),
      Map.entry("Output Throughput (tok/s)", new Figure("output_throughput", "value", "tokens/s")),
      Map.entry("Total token throughput (tok/s)", new Figure("total_throughput", "value", "tokens/s")),
      Map.entry("Total Throughput (tok/s)", new Figure("total_throughput", "value", "tokens/s")),
      Map.entry("Input token throughput (tok/s)", new Figure("input_throughput", "value", "tokens/s")),
      Map.entry("Input Throughput (tok/s)", new Figure("input_throughput", "value", "tokens/s")),
      Map.entry("Average latency (s)", new Figure("latency", "avg", "s")),
      Map.entry("Avg Latency (s)", new Figure("latency", "avg", "s")),
      Map.entry("Average time to first token (s)", new Figure("ttft", "avg", "s")),
      Map.entry("Avg TTFT (ms)", new Figure("ttft", "avg", "ms")),
      Map.entry("Average time per output token (s)", new Figure("tpot", "avg", "s")),
      Map.entry("Avg TPOT (ms)", new Figure("tpot", "avg", "ms")),
      Map.entry("Average inter-token latency (s)", new Figure("itl", "avg", "s")),
      Map.entry("Avg ITL (ms)", new Figure("itl", "avg", "ms")),
      // before 0.17: the mean gap between a response's chunks ("packages") and the chunks per response
      Map.entry("Average package latency (s)", new Figure("package_latency", "avg", "s")),
      Map.entry("Average package per request", new Figure("packages_per_request", "avg", "")),
      Map.entry("Average input tokens per request", new Figure("input_tokens", "avg", "tokens")),
      Map.entry("Avg Input Tokens", new Figure("input_tokens", "avg", "tokens")),
      Map.entry("Average output tokens per request", new Figure("output_tokens", "avg", "tokens")),
      Map.entry("Avg Output Tokens", new Figure("output_tokens", "avg", "tokens")),
      Map.entry("Average input turns per request", new Figure("turns_per_request", "avg", "")),
      Map.entry("Avg Turns/Request", new Figure("turns_per_request", "avg", "")),
      Map.entry("Average approx KV cache hit rate (%)", new Figure("kv_cache_hit_rate", "value", "%")),
      Map.entry("KV Cache Hit Rate (%)", new Figure("kv_cache_hit_rate", "value", "%")),
      Map.entry("Avg First-Turn TTFT (ms)", new Figure("first_turn_ttft", "avg", "ms")),
      Map.entry("Avg Subsequent-Turn TTFT (ms)", new Figure("subsequent_turn_ttft", "avg", "ms")),
      Map.entry("Average decoded tokens per iter (tok/iter)", new Figure("decoded_tokens_per_iter", "avg", "tokens/iter")),
      Map.entry("Avg Decoded Tok/Iter", new Figure("decoded_tokens_per_iter", "avg", "tokens/iter")),
      Map.entry("Approx speculative decoding acceptance rate", new Figure("spec_decode_acceptance_rate", "value", "")),
      Map.entry("Spec. Accept Rate", new Figure("spec_decode_acceptance_rate", "value", "")));

  /**
   * benchmark_percentile.json's columns. Output/Input/Total/Decode (tok/s) are each request's own
   * rate (its tokens over its latency; Decode is 1 / its TPOT), not the run's throughput.
   */
  static final Map<String, Figure> PERCENTILE = Map.ofEntries(
      Map.entry("TTFT (s)", new Figure("ttft", null, "s")),
      Map.entry("TTFT (ms)", new Figure("ttft", null, "ms")),
      Map.entry("ITL (s)", new Figure("itl", null, "s")),
      Map.entry("ITL (ms)", new Figure("itl", null, "ms")),
      Map.entry("TPOT (s)", new Figure("tpot", null, "s")),
      Map.entry("TPOT (ms)", new Figure("tpot", null, "ms")),
      Map.entry("Latency (s)", new Figure("latency", null, "s")),
      Map.entry("Input tokens", new Figure("input_tokens", null, "tokens")),
      Map.entry("Output tokens", new Figure("output_tokens", null, "tokens")),
      Map.entry("Output (tok/s)", new Figure("request_output_throughput", null, "tokens/s")),
      Map.entry("Input (tok/s)", new Figure("request_input_throughput", null, "tokens/s")),
      Map.entry("Total (tok/s)", new Figure("request_total_throughput", null, "tokens/s")),
      Map.entry("Decode (tok/s)", new Figure("request_decode_throughput", null, "tokens/s")));

  static final String DB_NOT_READ = "EvalScope's per-request SQLite database (benchmark_data.db): tokentime does"
      + " not read SQLite; the run's figures are in benchmark_summary.json and benchmark_percentile.json";

  private static final Pattern LABEL = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%");

  @Override
  public String id() {
    return "evalscope-perf";
  }

  @Override
  public String description() {
    return "EvalScope perf benchmark_summary.json / benchmark_percentile.json: the tool's own run statistics";
  }

  @Override
  public String fills() {
    return "runs, reported_metrics";
  }

  @Override
  public int sniff(Sample sample) {
    String name = sample.fileName() == null ? "" : sample.fileName().toLowerCase(Locale.ROOT);
    String text = sample.text();
    if (text.startsWith("SQLite format 3")) {
      return name.startsWith("benchmark_data") ? 80 : 0;
    }
    text = text.stripLeading();
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    if (text.startsWith("{")) {
      // the duration key each generation opens its summary with, beside its request counts
      boolean old = text.contains("\"Time taken for tests (s)\"")
          && (text.contains("\"Number of concurrency\"") || text.contains("\"Succeed requests\""));
      boolean now = text.contains("\"Test Duration (s)\"")
          && (text.contains("\"Success Requests\"") || text.contains("\"Req Throughput (req/s)\""));
      return old || now ? 90 : 0;
    }
    if (text.startsWith("[")) {
      boolean rows = text.contains("\"Percentiles\"")
          && (text.contains("\"Latency (s)\"") || text.contains("\"TTFT (s)\"") || text.contains("\"TTFT (ms)\""));
      return rows ? 90 : 0;
    }
    return 0;
  }

  @Override
  public long parse(InputStream raw, ParseContext ctx, RecordSink sink) throws IOException {
    java.io.BufferedInputStream in = new java.io.BufferedInputStream(raw, 1 << 12);
    in.mark(16);
    byte[] head = in.readNBytes(15);
    in.reset();
    if (new String(head, java.nio.charset.StandardCharsets.ISO_8859_1).equals("SQLite format 3")) {
      sink.reject(1, DB_NOT_READ, null, 0, 0);
      return 1;
    }
    String run = ctx.defaultRun();
    try (JsonParser p = PeerJson.JSON.createParser(in)) {
      JsonToken t = PeerJson.firstToken(p, sink);
      if (t == JsonToken.NOT_AVAILABLE) {
        return 1;
      }
      if (t == JsonToken.START_ARRAY) {
        long n = PeerJson.elements(p, sink, false, (row, index, line) -> {
          if (percentileRow(row, run, sink) == 0) {
            sink.otherLine(); // a row of no number (every value NaN: no request to take it from)
          } else {
            sink.record();
          }
        });
        return n + (p.currentToken() == JsonToken.END_ARRAY
            ? PeerJson.trailing(p, sink, "array", "benchmark_percentile.json holds one") : 0);
      }
      if (t == JsonToken.START_OBJECT) {
        JsonNode doc = PeerJson.whole(p, sink);
        if (doc == null) {
          return 1;
        }
        summary(doc, run, sink);
        return 1 + PeerJson.trailing(p, sink, "summary object", "benchmark_summary.json holds one");
      }
      sink.reject(1, "not an EvalScope perf result: expected a JSON object (benchmark_summary.json)"
          + " or array (benchmark_percentile.json)", null, 0, 0);
      return 1;
    }
  }

  /**
   * One percentile row: {@code "Percentiles"} ("10%"; since 1.8 "max", since 1.10 "min") is the
   * statistic of every other column. A row without it, or naming no percentile, is refused.
   */
  private static int percentileRow(JsonNode row, String run, RecordSink sink) throws PeerJson.Bad {
    if (!row.isObject()) {
      throw new PeerJson.Bad("expected an object (one percentile's row)");
    }
    JsonNode label = row.get("Percentiles");
    if (label == null || !label.isTextual()) {
      throw new PeerJson.Bad("no \"Percentiles\" label in the row");
    }
    String stat = stat(label.asText());
    if (stat == null) {
      throw new PeerJson.Bad("\"Percentiles\": expected a percentage, min or max, got " + PeerJson.quote(label.asText()));
    }
    int n = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = row.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().equals("Percentiles")) {
        continue;
      }
      JsonNode v = e.getValue();
      if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble())) {
        continue; // NaN: EvalScope's value where no request gave one
      }
      Figure f = PERCENTILE.get(e.getKey());
      String[] other = f == null ? ToolMetricNames.split(e.getKey()) : null;
      sink.reportedMetric(run, null, f != null ? f.metric() : other[0], stat, v.asDouble(), f != null ? f.unit() : other[1]);
      n++;
    }
    return n;
  }

  /** "10%" → p10, "99.9%" → p99.9, "min", "max"; else null. */
  static String stat(String label) {
    String s = label.strip().toLowerCase(Locale.ROOT);
    if (s.equals("min") || s.equals("max")) {
      return s;
    }
    Matcher m = LABEL.matcher(s);
    return m.matches() ? "p" + m.group(1) : null;
  }

  /**
   * The summary's figures. EvalScope writes -1 for a figure it has no sample of (every average of
   * a run whose requests all failed; the multi-turn and speculative figures of a run without them;
   * the request rate of a run not paced by one): not kept. The run's level is its request rate when
   * one paced it, else its concurrency (the {@code --parallel} every run has, 1 by default).
   */
  private static void summary(JsonNode doc, String run, RecordSink sink) {
    Double rate = PeerJson.positive(first(doc, "Request rate (req/s)", "Request Rate (req/s)"));
    Double conc = PeerJson.positive(first(doc, "Number of concurrency", "Concurrency"));
    Double level = null;
    if (rate != null && sink.runLevel(run, "request_rate", rate, null, "EvalScope benchmark_summary.json") == null) {
      level = rate;
    } else if (rate == null && conc != null
        && sink.runLevel(run, "concurrency", conc, null, "EvalScope benchmark_summary.json") == null) {
      level = conc;
    }
    int n = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (!v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() == -1) {
        continue; // text ("Result DB path") is the run's metadata
      }
      Figure f = SUMMARY.get(e.getKey());
      String[] other = f == null ? ToolMetricNames.split(e.getKey()) : null;
      sink.reportedMetric(run, level, f != null ? f.metric() : other[0], f != null ? f.stat() : "value", v.asDouble(),
          f != null ? f.unit() : other[1]);
      n++;
    }
    if (n == 0) {
      sink.reject(1, "no EvalScope figure (a number under a key like \"Test Duration (s)\") in the object", null, 0, 0);
    } else {
      sink.record();
    }
  }

  private static JsonNode first(JsonNode doc, String a, String b) {
    return doc.has(a) ? doc.get(a) : doc.get(b);
  }
}
