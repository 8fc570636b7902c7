package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.RecordSink;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What vLLM's Prometheus series mean (vllm.md §4), for both the query_range JSON and /metrics
 * text: gauges become engine_stats rows (one per instance and time: the {@code engine} and
 * {@code model_name} labels), other vLLM samples land in the row's extras, and histogram buckets
 * become deltas between consecutive samples of a series (a decrease is a counter reset: the
 * process restarted, so the new value is the count since then). V0 and V1 names are both read;
 * {@code time_per_output_token} is stored under its V1 name {@code inter_token_latency}.
 */
final class PromSeries {
  /** What a sample did. */
  enum Use { STATS, HISTOGRAM, NOT_VLLM, IGNORED }

  private static final Map<String, String> GAUGES = Map.ofEntries(
      Map.entry("vllm:num_requests_running", "running"),
      Map.entry("vllm:num_requests_waiting", "waiting"),
      Map.entry("vllm:num_requests_swapped", "swapped"),
      Map.entry("vllm:kv_cache_usage_perc", "kv_usage"),
      Map.entry("vllm:gpu_cache_usage_perc", "kv_usage"),
      Map.entry("vllm:gpu_prefix_cache_hit_rate", "prefix_hit_rate"),
      Map.entry("vllm:num_preemptions_total", "preemptions"),
      Map.entry("vllm:num_preemptions", "preemptions"),
      Map.entry("vllm:avg_prompt_throughput_toks_per_s", "prompt_tokens_per_s"),
      Map.entry("vllm:avg_generation_throughput_toks_per_s", "gen_tokens_per_s"));

  /** Renamed histograms: old name → the name they are stored under. */
  static final Map<String, String> RENAMES = Map.of(
      "vllm:time_per_output_token_seconds", "vllm:inter_token_latency_seconds");

  private final RecordSink sink;
  private final int clockId;
  /** Pending stats rows by instance and time (ns), written at the end. */
  private final TreeMap<String, EngineStatsRecord> rows = new TreeMap<>();
  /** Last (time, value) of each bucket series. */
  private final Map<String, double[]> last = new HashMap<>();

  PromSeries(RecordSink sink, int clockId) {
    this.sink = sink;
    this.clockId = clockId;
  }

  /** One sample of a series; {@code line} names where it came from (0 when unknown). */
  Use sample(String name, Map<String, String> labels, long tsNs, double value, long line) {
    if (!name.startsWith("vllm:")) {
      return Use.NOT_VLLM;
    }
    if (name.endsWith("_bucket") && labels.containsKey("le")) {
      return bucket(name.substring(0, name.length() - "_bucket".length()), labels, tsNs, value)
          ? Use.HISTOGRAM : Use.IGNORED;
    }
    if (name.endsWith("_sum") || name.endsWith("_count") || name.endsWith("_created")) {
      return Use.IGNORED; // the +Inf bucket carries the count; sums and creation times are not kept
    }
    if (tsNs == NONE || Double.isNaN(value)) {
      return Use.IGNORED;
    }
    EngineStatsRecord r = row(labels, tsNs, line);
    String col = GAUGES.get(name);
    if (col == null) {
      r.extras.put(extraName(name, labels), value);
    } else {
      switch (col) {
        case "running" -> r.running = (int) Math.round(value);
        case "waiting" -> r.waiting = (int) Math.round(value);
        case "swapped" -> r.swapped = (int) Math.round(value);
        case "kv_usage" -> r.kvUsage = value;
        case "prefix_hit_rate" -> r.prefixHitRate = value;
        case "preemptions" -> r.preemptions = Math.round(value);
        case "prompt_tokens_per_s" -> r.promptTokensPerS = value;
        case "gen_tokens_per_s" -> r.genTokensPerS = value;
        default -> throw new IllegalStateException(col);
      }
    }
    return Use.STATS;
  }

  private boolean bucket(String base, Map<String, String> labels, long tsNs, double value) {
    if (tsNs == NONE) {
      return false; // one scrape without a time: no interval to take a delta over
    }
    String metric = RENAMES.getOrDefault(base, base);
    double le;
    String leText = labels.get("le");
    try {
      le = leText.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(leText);
    } catch (NumberFormatException e) {
      throw new NumberFormatException("le=\"" + leText + "\" is not a number");
    }
    Map<String, String> rest = new TreeMap<>(labels);
    rest.remove("le");
    rest.remove("__name__");
    if (!metric.equals(base)) {
      rest.put("exposed_as", base);
    }
    String key = base + rest + "|" + leText;
    double[] prev = last.put(key, new double[] {tsNs, value});
    if (prev == null || (long) prev[0] >= tsNs) {
      return prev == null; // the first sample of a series starts its first interval
    }
    double delta = value >= prev[1] ? value - prev[1] : value; // a decrease is a restart
    sink.histogramBucket(metric, rest, (long) prev[0], tsNs, clockId, le, delta);
    return true;
  }

  private EngineStatsRecord row(Map<String, String> labels, long tsNs, long line) {
    String instance = instance(labels);
    String key = (instance == null ? "" : instance) + '\u0000' + String.format("%020d", tsNs);
    EngineStatsRecord r = rows.get(key);
    if (r == null) {
      r = new EngineStatsRecord();
      r.instance = instance;
      r.tsNs = tsNs;
      r.clockId = clockId;
      r.lineNo = line;
      rows.put(key, r);
    }
    return r;
  }

  /** {@code engine 0 / model} from the engine (V1 DP index) and model_name labels. */
  static String instance(Map<String, String> labels) {
    String engine = labels.get("engine");
    String model = labels.get("model_name");
    if (engine != null && model != null) {
      return "engine " + engine + " / " + model;
    }
    return engine != null ? "engine " + engine : model;
  }

  private static String extraName(String name, Map<String, String> labels) {
    StringBuilder sb = new StringBuilder(name.substring("vllm:".length()));
    for (var e : new TreeMap<>(labels).entrySet()) {
      String k = e.getKey();
      if (!k.equals("engine") && !k.equals("model_name") && !k.equals("__name__") && !k.equals("job")
          && !k.equals("instance")) {
        sb.append('{').append(k).append('=').append(e.getValue()).append('}');
      }
    }
    return sb.toString();
  }

  /** Writes the stats rows, in instance and time order. */
  void finish() {
    for (EngineStatsRecord r : rows.values()) {
      sink.engineStats(r);
    }
    rows.clear();
  }
}
