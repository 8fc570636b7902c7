package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.ingest.Checked;
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

  /** Renamed vLLM histograms: old name → the name they are stored under. */
  static final Map<String, String> RENAMES = PromFamily.VLLM.renames();

  private final RecordSink sink;
  private final int clockId;
  /** Pending stats rows by instance and time (ns), written at the end. */
  private final TreeMap<String, EngineStatsRecord> rows = new TreeMap<>();
  /** Last (time, value) of each bucket series. */
  private final Map<String, double[]> last = new HashMap<>();
  /** A histogram's last bucket sample: its time, bound (and as written) and count. */
  private record BucketSample(long tsNs, double le, String leText, double value) {}

  /** The last bucket sample of each histogram, any bound. */
  private final Map<String, BucketSample> lastBucket = new HashMap<>();

  private final PromFamily family;
  /** The scrape target the next samples came from, leading their instance; null when unknown. */
  private String target;

  PromSeries(RecordSink sink, int clockId) {
    this(sink, clockId, PromFamily.VLLM);
  }

  PromSeries(RecordSink sink, int clockId, PromFamily family) {
    this.sink = sink;
    this.clockId = clockId;
    this.family = family;
  }

  /**
   * The scrape target (host:port) of the samples that follow, or null: a file of several targets'
   * scrapes (AIPerf's, one line per target and time) keeps each target's rows apart.
   */
  void target(String hostPort) {
    this.target = hostPort;
  }

  /** One sample of a series; {@code line} names where it came from (0 when unknown). */
  Use sample(String name, Map<String, String> labels, long tsNs, double value, long line) {
    if (!family.owns(name)) {
      return Use.NOT_VLLM;
    }
    if (isBucket(name, labels)) {
      return bucket(name.substring(0, name.length() - "_bucket".length()), labels, tsNs, value)
          ? Use.HISTOGRAM : Use.IGNORED;
    }
    if (notKept(name)) {
      return Use.IGNORED;
    }
    if (tsNs == NONE || Double.isNaN(value)) {
      return Use.IGNORED;
    }
    Checked.timestamp(name + " timestamp", tsNs); // out of range: the line is a reject
    String col = column(name, labels);
    String problem = gaugeProblem(name, col, value);
    if (problem != null) {
      throw new Checked.OutOfRange(problem);
    }
    EngineStatsRecord r = row(labels, tsNs, line);
    if (name.equals(TRITON_PENDING)) {
      // Triton's pending count waits until finish(): the backend's own waiting count of the same
      // row, where there is one, takes the column (under its extras name, labels and all)
      tritonPending.put(r, Map.entry(extraName(name, labels), value));
    } else if (col == null) {
      r.extras.put(extraName(name, labels), value);
      if (name.equals(TRITON_FAILURE) && labels.containsKey("reason")) {
        Map<String, String> rest = new java.util.LinkedHashMap<>(labels);
        rest.remove("reason");
        failureTotals.computeIfAbsent(r, k -> new HashMap<>()).merge(extraName(name, rest), value, Double::sum);
      }
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

  /** Triton's count of requests in its own queue, before a backend takes them. */
  private static final String TRITON_PENDING = "nv_inference_pending_request_count";

  /** Triton's failed requests, counted per {@code reason} label by Triton 24.x. */
  private static final String TRITON_FAILURE = "nv_inference_request_failure";

  /** Per row, the sum of Triton's per-reason failure counts by the total's extras name, placed by finish(). */
  private final Map<EngineStatsRecord, Map<String, Double>> failureTotals = new java.util.IdentityHashMap<>();

  /** Per row, Triton's pending count (its extras name and value), placed by finish(). */
  private final Map<EngineStatsRecord, Map.Entry<String, Double>> tritonPending = new java.util.IdentityHashMap<>();

  /** The engine_stats column a gauge fills, or null (its value goes to extras). */
  private String column(String name, Map<String, String> labels) {
    String col = family.gauges().get(name);
    if (col == null && name.equals("nv_trt_llm_request_metrics")) {
      // Triton's TensorRT-LLM backend, from its iteration stats: "active" = the requests the
      // engine holds (as trtllm-iter-stats' Active Request Count), "waiting" = those of them not
      // scheduled in the iteration (the backend's active - scheduled). "scheduled" and "context"
      // describe one iteration's batch, "max" a limit: extras.
      String type = labels.get("request_type");
      col = "active".equals(type) ? "running" : "waiting".equals(type) ? "waiting" : null;
    }
    return col;
  }

  /**
   * Why a gauge's value cannot be kept, or null. Checked before the row takes it: a row gathers
   * many lines and is written at the end (engine gauges and counters are never negative; a
   * derived share such as Triton's KV usage from used/max blocks must not turn negative later).
   */
  private static String gaugeProblem(String name, String col, double value) {
    return col == null ? Checked.nonNegativeProblem(name, value)
        : col.equals("running") || col.equals("waiting") || col.equals("swapped")
            ? (value >= 0 && value <= Integer.MAX_VALUE ? null : name + " out of range: " + value + " (a count of requests)")
        : col.equals("preemptions")
            ? (value >= 0 && value < 9.2e18 ? null : name + " out of range: " + value + " (a count)")
        : col.equals("kv_usage") || col.equals("prefix_hit_rate") ? Checked.shareProblem(name, value)
        : Checked.nonNegativeProblem(name, value);
  }

  /**
   * Why {@link #sample} would refuse this sample, or null; nothing is kept. A reader whose unit
   * holds many samples (AIPerf's scrape, one line) checks them all before keeping any.
   */
  String problem(String name, Map<String, String> labels, double value) {
    if (!family.owns(name)) {
      return null;
    }
    if (isBucket(name, labels)) {
      return bucketProblem(name, labels.get("le"), value);
    }
    return notKept(name) || Double.isNaN(value) ? null : gaugeProblem(name, column(name, labels), value);
  }

  private static boolean isBucket(String name, Map<String, String> labels) {
    return name.endsWith("_bucket") && labels.containsKey("le");
  }

  /**
   * A histogram's sum, count or creation time: not kept (the +Inf bucket carries the count).
   * Triton's nv_inference_count / _exec_count / _pending_request_count are counters and gauges of
   * their own; only its *_histogram_ms_{sum,count} belong to a histogram.
   */
  private boolean notKept(String name) {
    boolean tritonCounter = family == PromFamily.TRITON && !name.contains("_histogram_");
    return (name.endsWith("_sum") || name.endsWith("_count") || name.endsWith("_created"))
        && !family.gauges().containsKey(name) && !tritonCounter;
  }

  /**
   * Why a bucket sample is no count of observations, or null: its bound must be a number, and a
   * negative, NaN or infinite count stored would turn every delta after it into nonsense.
   */
  private static String bucketProblem(String bucketName, String leText, double value) {
    if (!leText.equals("+Inf")) {
      try {
        Double.parseDouble(leText);
      } catch (NumberFormatException e) {
        return "le=\"" + leText + "\" is not a number";
      }
    }
    return value >= 0 && !Double.isInfinite(value) ? null
        : bucketName + "{le=\"" + leText + "\"} out of range: " + value + " (a count of observations)";
  }

  private boolean bucket(String base, Map<String, String> labels, long tsNs, double value) {
    if (tsNs == NONE) {
      return false; // one scrape without a time: no interval to take a delta over
    }
    String metric = family.renames().getOrDefault(base, base);
    String leText = labels.get("le");
    String problem = bucketProblem(base + "_bucket", leText, value);
    if (problem != null) {
      throw problem.startsWith("le=") ? new NumberFormatException(problem) : new Checked.OutOfRange(problem);
    }
    double le = leText.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(leText);
    Map<String, String> rest = new TreeMap<>(labels);
    rest.remove("le");
    rest.remove("__name__");
    if (!metric.equals(base)) {
      rest.put("exposed_as", base);
    }
    if (target != null) {
      rest.put("scrape_target", target); // two endpoints' counts are two series
    }
    String series = base + rest;
    cumulative(series, base, tsNs, le, leText, value);
    String key = series + "|" + leText;
    double[] prev = last.put(key, new double[] {tsNs, value});
    if (prev == null || (long) prev[0] >= tsNs) {
      return prev == null; // the first sample of a series starts its first interval
    }
    double delta = value >= prev[1] ? value - prev[1] : value; // a decrease is a restart
    sink.histogramBucket(metric, rest, (long) prev[0], tsNs, clockId, le, delta);
    return true;
  }

  /**
   * Buckets are cumulative: at one time, a bucket never counts fewer observations than a bucket
   * with a smaller bound. Checked against the series' previous bucket at the same time (scrapes
   * list a histogram's buckets together, in either order), so a corrupt bucket is a reject
   * instead of a negative count in every delta.
   */
  private void cumulative(String series, String base, long tsNs, double le, String leText, double value) {
    BucketSample prev = lastBucket.put(series, new BucketSample(tsNs, le, leText, value));
    if (prev == null || prev.tsNs() != tsNs) {
      return;
    }
    String problem = cumulativeProblem(base + "_bucket", le, leText, value, prev.le(), prev.leText(), prev.value());
    if (problem != null) {
      throw new Checked.OutOfRange(problem);
    }
  }

  /** Why two buckets of one histogram at one time are not cumulative, or null. */
  static String cumulativeProblem(String bucketName, double le, String leText, double value, double prevLe,
      String prevLeText, double prevValue) {
    return (le > prevLe && value < prevValue) || (le < prevLe && value > prevValue)
        ? bucketName + "{le=\"" + leText + "\"} " + value + " is not cumulative: le=\"" + prevLeText
            + "\" at the same time counts " + prevValue
        : null;
  }

  private EngineStatsRecord row(Map<String, String> labels, long tsNs, long line) {
    String instance = instance(labels);
    if (target != null) {
      instance = instance == null ? target : target + " / " + instance;
    }
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

  /** Labels that name where a sample comes from, in the order the instance names them. */
  private static final String[][] INSTANCE_LABELS = {
      {"engine", "engine "}, {"dp_rank", "dp "}, {"pp_rank", "pp "}, {"tp_rank", "tp "},
      {"model_name", ""}, {"model", ""}, {"version", "v"}};

  /**
   * {@code engine 0 / model} from the engine (vLLM V1's data-parallel index) and model_name
   * labels; SGLang's dp_rank / pp_rank / tp_rank and Triton's model and version likewise, so
   * that the rows of data-parallel engines stay apart.
   */
  static String instance(Map<String, String> labels) {
    StringBuilder sb = new StringBuilder();
    for (String[] l : INSTANCE_LABELS) {
      String v = labels.get(l[0]);
      if (v != null && !v.isEmpty() && !v.equals("undefined")) {
        sb.append(sb.length() > 0 ? " / " : "").append(l[1]).append(v);
      }
    }
    return sb.length() == 0 ? null : sb.toString();
  }

  private static final java.util.Set<String> INSTANCE_LABEL_NAMES = java.util.Set.of(
      "engine", "dp_rank", "pp_rank", "tp_rank", "model_name", "model", "version");

  private String extraName(String name, Map<String, String> labels) {
    StringBuilder sb = new StringBuilder(name.startsWith(family.prefix()) ? name.substring(family.prefix().length()) : name);
    for (var e : new TreeMap<>(labels).entrySet()) {
      String k = e.getKey();
      if (!INSTANCE_LABEL_NAMES.contains(k) && !k.equals("__name__") && !k.equals("job") && !k.equals("engine_type")
          && !k.equals("instance")) {
        sb.append('{').append(k).append('=').append(e.getValue()).append('}');
      }
    }
    return sb.toString();
  }

  /** Writes the stats rows, in instance and time order. */
  void finish() {
    for (EngineStatsRecord r : rows.values()) {
      Map.Entry<String, Double> pending = tritonPending.get(r);
      if (pending != null && family == PromFamily.TRITON && r.waiting == null) {
        // no backend queue beside it: Triton's pending count is the model's waiting requests.
        r.waiting = (int) Math.round(pending.getValue());
      } else if (pending != null) {
        // beside the TensorRT-LLM backend's it stays in extras: that backend takes each request
        // from Triton's queue at once, so Triton's count stays near 0 while the engine's grows
        r.extras.put(pending.getKey(), pending.getValue());
      }
      Double fraction = r.extras.get("trt_llm_kv_cache_block_metrics{kv_cache_block_type=fraction}");
      Double used = r.extras.get("trt_llm_kv_cache_block_metrics{kv_cache_block_type=used}");
      Double max = r.extras.get("trt_llm_kv_cache_block_metrics{kv_cache_block_type=max}");
      if (r.kvUsage == null && fraction != null && fraction <= 1) {
        // the backend's own share (the iteration stats' "Fraction used KV cache blocks", which
        // trtllm-iter-stats prefers too), taken at one moment rather than from two counts
        r.kvUsage = fraction;
      } else if (r.kvUsage == null && used != null && max != null && max > 0 && used <= max) {
        // Triton's TensorRT-LLM backend: KV blocks in use of the most it may use; more in use than
        // the most (scrapes of two moments) is no share: the two counts stay in extras, as read
        r.kvUsage = used / max;
      }
      for (var f : failureTotals.getOrDefault(r, Map.of()).entrySet()) {
        // Triton counts failures per reason only since core#377 (2024): their sum is the total older Tritons
        // wrote, so a failure rate reads the same name either way
        r.extras.putIfAbsent(f.getKey(), f.getValue());
      }
      sink.engineStats(r);
    }
    rows.clear();
    tritonPending.clear();
    failureTotals.clear();
  }
}
