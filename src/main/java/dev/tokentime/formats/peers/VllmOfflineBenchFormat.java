package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The result JSON of vLLM's offline benchmarks ({@code --output-json}): {@code vllm bench
 * throughput} / {@code benchmarks/benchmark_throughput.py} ({@code elapsed_time},
 * {@code num_requests}, {@code total_num_tokens}, {@code requests_per_second},
 * {@code tokens_per_second}) and {@code vllm bench latency} / {@code benchmark_latency.py}
 * ({@code avg_latency}, {@code latencies}: one per iteration, {@code percentiles}: {"10": …}, all
 * in seconds). No server, no requests: the engine run in-process over one batch, so its figures
 * are reported_metrics of the file's run with no level. One object, one record.
 */
public final class VllmOfflineBenchFormat extends NamedFormat {
  /** A throughput result's keys → {metric, unit}: the run's time is named as vllm bench serve's. */
  private static final Map<String, String[]> THROUGHPUT = Map.of(
      "elapsed_time", new String[] {"duration", "s"},
      "num_requests", new String[] {"num_requests", "count"},
      "total_num_tokens", new String[] {"total_num_tokens", "tokens"},
      "requests_per_second", new String[] {"requests_per_second", "requests/s"},
      "tokens_per_second", new String[] {"tokens_per_second", "tokens/s"},
      // forks' additions (output tokens, the split of the token total), AMD's settings ("ouput" as written there)
      "output_tokens_per_second", new String[] {"output_tokens_per_second", "tokens/s"},
      "total_num_input_tokens", new String[] {"total_num_input_tokens", "tokens"},
      "total_num_output_tokens", new String[] {"total_num_output_tokens", "tokens"},
      "input", new String[] {"input_len", "tokens"},
      "ouput", new String[] {"output_len", "tokens"});
  private static final Set<String> LATENCY = Set.of("avg_latency", "latencies", "percentiles");
  private static final Pattern PERCENT = Pattern.compile("\\d{1,2}(?:\\.\\d+)?");

  public VllmOfflineBenchFormat() {
    super("vllm-bench-offline-json",
        "reported_metrics",
        "vllm bench throughput / latency --output-json (benchmark_throughput.py, benchmark_latency.py)");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (!text.startsWith("{")) {
      return 0;
    }
    boolean throughput = text.contains("\"elapsed_time\"") && text.contains("\"requests_per_second\"")
        && text.contains("\"tokens_per_second\"");
    boolean latency = text.contains("\"avg_latency\"") && (text.contains("\"percentiles\"") || text.contains("\"latencies\""));
    if (!throughput && !latency) {
      return 0;
    }
    // the keys at the top of the document, not anywhere in a larger one (GuideLLM's report
    // holds requests_per_second and tokens_per_second in its metrics): the result is a small
    // object, whole in the sample
    try {
      JsonNode doc = PeerJson.TREE.readTree(text);
      if (doc == null || !doc.isObject()) {
        return 0;
      }
      Set<String> keys = new java.util.HashSet<>();
      doc.fieldNames().forEachRemaining(keys::add);
      return offlineResult(keys) ? 90 : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /** An object is one of these results by its keys: a serving result's hold none of them. */
  static boolean offlineResult(Set<String> keys) {
    return keys.contains("avg_latency") || keys.contains("elapsed_time") && keys.contains("requests_per_second");
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    PeerJson.OneDocument one = PeerJson.one(in, sink, "result object", "--output-json writes one");
    if (one.broken()) {
      return 1;
    }
    JsonNode doc = one.doc();
    long extra = one.extra();
    if (doc == null || !doc.isObject()) {
      sink.reject(1, "expected a vllm bench throughput or latency result object", null, 0, 0);
      return extra + 1;
    }
    List<String> problems = new ArrayList<>();
    List<Object[]> figures = new ArrayList<>(); // {metric, stat, value, unit}
    Iterator<Map.Entry<String, JsonNode>> it = doc.fields();
    boolean known = false;
    while (it.hasNext()) {
      var e = it.next();
      String key = e.getKey();
      JsonNode v = e.getValue();
      String[] named = THROUGHPUT.get(key);
      known |= named != null || LATENCY.contains(key);
      if (named != null) {
        number(key, v, named[0], "value", named[1], figures, problems);
      } else if (key.equals("avg_latency")) {
        number(key, v, "latency", "avg", "s", figures, problems);
      } else if (key.equals("latencies")) {
        if (v.isArray()) {
          figures.add(new Object[] {"latency", "count", (double) v.size(), "count"}); // the iterations measured
        } else {
          problems.add("latencies: expected an array, got " + v.getNodeType().toString().toLowerCase());
        }
      } else if (key.equals("percentiles")) {
        if (!v.isObject()) {
          problems.add("percentiles: expected an object, got " + v.getNodeType().toString().toLowerCase());
          continue;
        }
        Iterator<Map.Entry<String, JsonNode>> ps = v.fields();
        while (ps.hasNext()) {
          var q = ps.next();
          if (!PERCENT.matcher(q.getKey()).matches()) {
            problems.add("percentiles: \"" + q.getKey() + "\" is no percentage");
            continue;
          }
          number("percentiles." + q.getKey(), q.getValue(), "latency", "p" + q.getKey(), "s", figures, problems);
        }
      }
      // other keys (a wrapper's settings, text): not figures of the run
    }
    if (!known) {
      sink.reject(1, "not a vllm bench throughput or latency result: the object has none of their keys"
          + " (elapsed_time, requests_per_second, tokens_per_second, avg_latency, percentiles)", null, 0, 0);
      return extra + 1;
    }
    String run = ctx.defaultRun();
    for (Object[] f : figures) {
      sink.reportedMetric(run, null, (String) f[0], (String) f[1], (Double) f[2], (String) f[3]);
    }
    if (!problems.isEmpty()) {
      sink.reject(1, String.join("; ", problems), null, 0, 0);
    } else {
      sink.record();
    }
    return extra + 1;
  }

  private static void number(String field, JsonNode v, String metric, String stat, String unit,
      List<Object[]> figures, List<String> problems) {
    if (!v.isNumber()) {
      problems.add(field + ": expected a number, got " + (v.isTextual() ? "\"" + v.asText() + "\"" : v.toString()));
      return;
    }
    String bad = Checked.figureProblem(field, v.asDouble(), unit);
    if (bad != null) {
      problems.add(bad + "; not kept");
      return;
    }
    figures.add(new Object[] {metric, stat, v.asDouble(), unit});
  }
}
