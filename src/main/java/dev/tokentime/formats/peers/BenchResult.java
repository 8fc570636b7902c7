package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One result object of {@code vllm bench serve} (or the older {@code benchmark_serving.py}) or of
 * SGLang's {@code bench_serving}: the same lineage, the same shape. Its scalar figures become
 * {@code reported_metrics}; with {@code --save-detailed} / {@code --output-details} its per-request
 * arrays become requests and their chunks. All of its times are seconds on the tool's
 * {@code perf_counter}; chunk times are rebuilt as start + TTFT + the running sum of the ITLs.
 *
 * <p>Counted in units: one for the object, one per request entry of its arrays.
 */
final class BenchResult {
  /** Which tool wrote it: the names of its figures differ a little. */
  enum Tool {
    VLLM("vllm-bench"), SGLANG("sglang-bench");

    final String engine;

    Tool(String engine) {
      this.engine = engine;
    }
  }

  /** {mean,median,std,pNN,max,min}_{metric}_ms, as both tools name their statistics. */
  private static final Pattern STAT = Pattern.compile("^(mean|median|std|min|max|p\\d+(?:\\.\\d+)?)_(.+)_ms$");
  private static final Pattern STAT_SECONDS = Pattern.compile("^(mean|median|std|min|max|p\\d+(?:\\.\\d+)?)_(audio_.+)_s$");
  /** vllm bench serve's probe requests (2026, --probe-request-rate): probe_{median,p99,max}_e2el_ms. */
  private static final Pattern PROBE_STAT = Pattern.compile("^probe_(mean|median|std|min|max|p\\d+(?:\\.\\d+)?)_(.+)_ms$");
  private static final Pattern STAT_RATIO = Pattern.compile("^(mean|median|std|min|max|p\\d+(?:\\.\\d+)?)_(.+_rtf)$");

  private final Tool tool;
  private final ParseContext ctx;
  private final RecordSink sink;
  private final RequestRecord req = new RequestRecord();

  // per-object state
  private String run;
  private long line;
  private Double maxConcurrency;
  private Double requestRate;
  private Integer runNumber; // vllm bench sweep's repeat (0, 1, …; -1 its warm-up)
  private final List<String[]> figures = new ArrayList<>(); // {metric, stat, unit}
  private final List<Double> values = new ArrayList<>();
  private double[] ttfts;
  private double[] startTimes;
  private double[] latencies;
  private double[] queueTimes; // vllm bench serve (2026): the wait for the --max-concurrency semaphore, s
  private long[] inputLens;
  private long[] outputLens;
  private String[] errors;
  private double[] itlFlat;
  private int[] itlStart; // itls of request i are itlFlat[itlStart[i] .. itlStart[i+1])
  private String problem;
  /** A pooling (embedding) run's result: input_sequence_throughput, no output tokens. */
  private boolean pooling;
  /** The object has a key of vLLM's or SGLang's result: else it is no result of theirs (another tool's, under --from). */
  private boolean recognised;
  /** The keys of the object: one of vLLM's offline benchmarks' results (latencies is theirs too) is told apart by them. */
  private final java.util.Set<String> keys = new java.util.HashSet<>();

  /** Keys every version of either tool's result has some of (beside the statistics, mean_ttft_ms, …). */
  private static final java.util.Set<String> RESULT_KEYS = java.util.Set.of("completed", "failed", "duration",
      "request_throughput", "output_throughput", "total_token_throughput", "total_input_tokens",
      "total_output_tokens", "request_goodput", "max_concurrency", "request_rate", "ttfts", "itls", "latencies",
      "input_lens", "output_lens", "batch_size", "last_ttft", "last_gen_throughput", "multi_turn_concurrency",
      "num_prompts", "burstiness");

  BenchResult(Tool tool, ParseContext ctx, RecordSink sink) {
    this.tool = tool;
    this.ctx = ctx;
    this.sink = sink;
  }

  /**
   * Reads the object the parser is at (its START_OBJECT) and emits its rows. Returns the units it
   * accounted for. A syntax error propagates (the caller rejects what is left).
   */
  long read(JsonParser p, String runName, long lineNo) throws IOException {
    run = runName;
    line = lineNo;
    reset();
    com.fasterxml.jackson.core.JsonStreamContext object = p.getParsingContext();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      try {
        field(p, name, v);
      } catch (PeerJson.Bad e) {
        if (problem == null) {
          problem = e.getMessage();
        }
        skipTo(p, object);
      }
    }
    if (t != JsonToken.END_OBJECT) {
      throw new com.fasterxml.jackson.core.JsonParseException(p, "expected a field name");
    }
    return emit();
  }

  /** Skips the rest of the value a bad element was found in, back to the object's level. */
  private static void skipTo(JsonParser p, com.fasterxml.jackson.core.JsonStreamContext object)
      throws IOException {
    while (p.getParsingContext() != object) {
      JsonToken x = p.nextToken();
      if (x == null) {
        return;
      }
      if (x.isStructStart()) {
        p.skipChildren();
      }
    }
  }

  private void reset() {
    recognised = false;
    keys.clear();
    maxConcurrency = requestRate = null;
    runNumber = null;
    figures.clear();
    values.clear();
    ttfts = startTimes = latencies = queueTimes = itlFlat = null;
    inputLens = outputLens = null;
    errors = null;
    itlStart = null;
    problem = null;
    pooling = false;
    failedMask = null;
    failedRequests = null;
  }

  /**
   * SGLang's sglang.benchmark package (2026) writes its BenchmarkMetrics fields under their own
   * names: the totals bench_serving.py called total_input_tokens, total_output_tokens,
   * total_output_tokens_retokenized, kept under those names (its console prints the same lines).
   */
  private static final java.util.Map<String, String> SGLANG_METRICS_FIELDS = java.util.Map.of(
      "total_input", "total_input_tokens", "total_output", "total_output_tokens",
      "total_output_retokenized", "total_output_tokens_retokenized",
      "total_input_text", "total_input_text_tokens", "total_input_vision", "total_input_vision_tokens");

  private void field(JsonParser p, String name, JsonToken v) throws IOException, PeerJson.Bad {
    String key = name.endsWith(":") ? name.substring(0, name.length() - 1) : name; // "request_goodput:"
    if (tool == Tool.SGLANG) {
      key = SGLANG_METRICS_FIELDS.getOrDefault(key, key);
    }
    if (key.equals("details") && v == JsonToken.START_OBJECT) {
      // sglang.benchmark (2026) nests --output-details' per-request arrays in one object
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String inner = p.currentName();
        field(p, inner, p.nextToken());
      }
      return;
    }
    recognised |= RESULT_KEYS.contains(key) || STAT.matcher(key).matches();
    keys.add(key);
    pooling |= key.equals("input_sequence_throughput");
    switch (key) {
      case "ttfts" -> ttfts = doubles(p, key);
      case "start_times" -> startTimes = doubles(p, key);
      case "latencies" -> latencies = doubles(p, key);
      case "queue_times" -> queueTimes = doubles(p, key);
      case "failed_requests" -> {
        expectArray(p, key);
        failedRequests = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          failedRequests.add(PeerJson.TREE.readTree(p));
        }
      }
      case "per_turn_metrics" -> {
        // vllm-bench's multi-turn run: each turn's counts, throughputs and statistics, as
        // figures turn_<k>_… (turn_0_ttft mean, turn_0_completed, …)
        if (v == JsonToken.START_ARRAY) {
          perTurn(PeerJson.TREE.readTree(p));
        } else {
          p.skipChildren();
        }
      }
      case "steady_state" -> {
        // vllm-bench (Rust): the figures over the window in which the client's concurrency held
        // at its target, each a figure named steady_state_…; null when no window was found
        if (v == JsonToken.START_OBJECT) {
          steadyState(PeerJson.TREE.readTree(p));
        }
      }
      case "input_lens" -> inputLens = longs(p, key);
      case "output_lens" -> outputLens = longs(p, key);
      case "errors" -> errors = strings(p, key);
      case "itls" -> itls(p);
      case "spec_decode_per_position_acceptance_rates" -> {
        // vllm bench serve with a speculative model: the share of drafts accepted at each
        // position of the draft, one figure per position. The file holds fractions (accepted at
        // the position / drafts, 0.85), the console prints % (85.00): kept in %, as the console's
        if (v == JsonToken.START_ARRAY) {
          double[] rates = doubles(p, key);
          for (int i = 0; i < rates.length; i++) {
            figure(key, "position_" + i, "%", Math.round(rates[i] * 1e12) / 1e10);
          }
        } else {
          p.skipChildren();
        }
      }
      case "max_concurrency" -> {
        if (v != JsonToken.VALUE_NULL) {
          maxConcurrency = PeerJson.number(p, key);
        }
      }
      // vllm bench serve's multi-turn mode (2026): conversations in flight at once, its concurrency
      case "multi_turn_concurrency" -> {
        Double c = v == JsonToken.VALUE_NULL ? null : PeerJson.number(p, key);
        figure(key, "value", "count", c);
        maxConcurrency = maxConcurrency == null ? c : maxConcurrency;
      }
      // vllm bench sweep adds the repeat's number to each run's result (-1 for its warm-up run)
      case "run_number" -> {
        Double n = v == JsonToken.VALUE_NULL ? null : PeerJson.number(p, key);
        runNumber = n == null || n != Math.rint(n) || Math.abs(n) > 1_000_000 ? null : n.intValue();
      }
      // SGLang's bench_one_batch_server: one batch of batch_size requests sent at once (its
      // concurrency); -1 where a figure does not apply (last_ttft and last_gen_throughput when
      // output_len is 1, acc_length without speculative decoding)
      case "batch_size" -> {
        Double b = v == JsonToken.VALUE_NULL ? null : PeerJson.number(p, key);
        if (b != null && (b < 1 || b != Math.rint(b) || b > 10_000_000)) {
          throw new PeerJson.Bad("batch_size: " + b + " is no number of requests");
        }
        figure(key, "value", "requests", b);
        if (tool == Tool.SGLANG && maxConcurrency == null && b != null) {
          maxConcurrency = b;
        }
      }
      case "last_ttft", "last_gen_throughput", "acc_length", "latency", "cache_hit_rate" -> {
        Double x = v == JsonToken.VALUE_NULL ? null : PeerJson.number(p, key);
        if (x != null && x == -1.0 && !key.equals("latency") && !key.equals("cache_hit_rate")) {
          x = null; // SGLang's "does not apply"
        } else if (x != null && (x < 0 || key.equals("cache_hit_rate") && x > 1)) {
          throw new PeerJson.Bad(key + ": " + x + " out of range" + (key.equals("cache_hit_rate") ? " (a share, 0 to 1)" : ""));
        }
        figure(key, "value", unitOf(key), x);
      }
      case "request_rate" -> {
        if (v == JsonToken.VALUE_STRING && p.getText().strip().equalsIgnoreCase("trace")) {
          // SGLang's --use-trace-timestamps (a mooncake trace replayed at its own times): no rate
          // was set, so the run has no request-rate level
          requestRate = null;
          return;
        }
        requestRate = v == JsonToken.VALUE_NULL ? null : PeerJson.number(p, key);
        figure(key, "value", "requests/s", requestRate); // as the console prints it
      }
      default -> {
        if (v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
          scalar(key, p.getDoubleValue());
        } else {
          p.skipChildren(); // texts, metadata, per-class tables: not figures of the run
        }
      }
    }
  }

  private void perTurn(com.fasterxml.jackson.databind.JsonNode turns) {
    int position = 0;
    for (com.fasterxml.jackson.databind.JsonNode t : turns) {
      int k = t.path("turn_index").canConvertToInt() ? t.path("turn_index").asInt() : position;
      position++;
      for (java.util.Iterator<java.util.Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it = t.fields(); it.hasNext(); ) {
        var e = it.next();
        if (e.getKey().equals("turn_index") || !e.getValue().isNumber()) {
          continue;
        }
        Matcher m = STAT.matcher(e.getKey());
        if (m.matches()) {
          figure("turn_" + k + "_" + m.group(2), m.group(1), "ms", e.getValue().asDouble());
        } else {
          figure("turn_" + k + "_" + e.getKey(), "value", unitOf(e.getKey()), e.getValue().asDouble());
        }
      }
    }
  }

  private void steadyState(com.fasterxml.jackson.databind.JsonNode s) {
    for (java.util.Iterator<java.util.Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it = s.fields(); it.hasNext(); ) {
      var e = it.next();
      String k = e.getKey();
      com.fasterxml.jackson.databind.JsonNode v = e.getValue();
      if (k.equals("window") && v.isObject()) {
        for (String w : List.of("duration_s", "target_concurrency", "observed_peak", "requests_started_in_window",
            "requests_completed_in_window", "requests_total")) {
          if (v.path(w).isNumber()) {
            figure("steady_state_" + w.replace("duration_s", "duration"), "value",
                w.equals("duration_s") ? "s" : "count", v.path(w).asDouble());
          }
        }
      } else if (k.startsWith("percentiles_") && k.endsWith("_ms") && v.isArray()) {
        // [[99.0, 123.4], …]: a percentile and its value, as vllm-bench serialises the pairs
        String metric = "steady_state_" + k.substring("percentiles_".length(), k.length() - 3);
        for (com.fasterxml.jackson.databind.JsonNode pair : v) {
          if (pair.isArray() && pair.size() == 2 && pair.get(0).isNumber() && pair.get(1).isNumber()) {
            double pct = pair.get(0).asDouble();
            String word = pct == Math.rint(pct) ? Long.toString((long) pct) : Double.toString(pct);
            figure(metric, "p" + word, "ms", pair.get(1).asDouble());
          }
        }
      } else if (v.isNumber()) {
        Matcher m = STAT.matcher(k);
        if (m.matches()) {
          figure("steady_state_" + m.group(2), m.group(1), "ms", v.asDouble());
        } else {
          figure("steady_state_" + k, "value", unitOf(k), v.asDouble());
        }
      }
    }
  }

  private void scalar(String key, double value) {
    Matcher probe = PROBE_STAT.matcher(key);
    if (probe.matches()) {
      // the latency of the single-token probes sent beside the load, as the console prints it
      // ("Median probe E2EL (ms)"): metric probe_e2el, not a statistic named probe_median_e2el_ms
      figure("probe_" + probe.group(2), probe.group(1), "ms", value);
      return;
    }
    Matcher m = STAT.matcher(key);
    if (m.matches()) {
      figure(m.group(2), m.group(1), "ms", value);
      return;
    }
    // vLLM-Omni's audio figures (2026): statistics in seconds ("mean_audio_duration_s") kept in
    // ms as the console's "(s)" ones are, and of a ratio ("mean_audio_rtf"): the console's names
    Matcher sec = STAT_SECONDS.matcher(key);
    if (sec.matches()) {
      figure(sec.group(2), sec.group(1), "ms", value * 1000);
      return;
    }
    Matcher ratio = STAT_RATIO.matcher(key);
    if (ratio.matches()) {
      figure(ratio.group(2), ratio.group(1), null, value);
      return;
    }
    if (key.equals("audio_throughput")) {
      figure(key, "value", "audio duration/s", value); // seconds of audio a second, as the console says
      return;
    }
    figure(key, "value", unitOf(key), value);
  }

  private static String unitOf(String key) {
    // SGLang's LoRA bench writes the duration again as benchmark_duration_s; bench_one_batch_server's
    // latency and last_ttft are seconds too, as its steady_decode_duration
    if (key.equals("duration") || key.endsWith("duration_s") || key.equals("latency")
        || key.equals("last_ttft") || key.endsWith("_duration")) {
      return "s";
    }
    if (key.equals("cache_hit_rate")) {
      return "ratio";
    }
    if (key.endsWith("_rps")) {
      return "requests/s"; // a ramp-up's start and end rates (--ramp-up-start-rps, --ramp-up-end-rps)
    }
    if (key.endsWith("input_len") || key.endsWith("output_len") || key.equals("acc_length")
        || key.equals("max_model_len")) {
      return "tokens"; // bench_one_batch_server's input_len, output_len; accepted tokens per draft step
    }
    if (key.equals("spec_decode_acceptance_rate") || key.equals("accuracy_rate")) {
      return "%"; // accepted of drafted tokens, as vllm bench serve prints it (a fork's accuracy too)
    }
    if (key.endsWith("_ms")) {
      return "ms"; // a multi-turn run's avg_conversation_duration_ms, inter_turn_delay_ms
    }
    if (key.equals("spec_decode_acceptance_length")) {
      return "tokens"; // per draft step, the bonus token included
    }
    // SGLang's total_throughput is input plus output tokens per second (vLLM's is total_token_throughput)
    if (key.endsWith("_tokens_per_s") || key.endsWith("token_throughput") || key.equals("output_throughput")
        || key.equals("input_throughput") || key.equals("total_throughput") || key.equals("overall_throughput")
        || key.equals("last_gen_throughput") || key.equals("steady_decode_throughput")
        || key.endsWith("_throughput_retokenized")) {
      return "tokens/s";
    }
    // vllm bench serve's diffusion runs: tokens committed a second, as its console's "(tok/s)"
    if (key.equals("diffusion_committed_throughput")) {
      return "tokens/s";
    }
    // a pooling run's inputs (texts to embed) a second, as its console's "Input throughput (inputs/s)"
    if (key.equals("input_sequence_throughput")) {
      return "inputs/s";
    }
    // another "_throughput" (a new one: a speech run's, an embedding run's sequences) is not guessed
    if (key.equals("request_throughput") || key.endsWith("goodput")) {
      return "requests/s";
    }
    if (key.contains("tokens")) {
      return "tokens";
    }
    if (key.endsWith("_req_s")) {
      return "requests/s";
    }
    // SGLang's Little's-law concurrency (requests in flight on average) is a count, as
    // sglang_bench_metrics recomputes it
    if (COUNTS.contains(key) || key.startsWith("num_") || key.contains("_num_") || key.endsWith("_requests")) {
      return "count";
    }
    // a key no version of either tool is known to write (a fork's, a wrapper's: InferenceX's
    // per-GPU figures, a gamma shape such as burstiness): its unit is not guessed
    return null;
  }

  /** Counts both tools write under names that say so only here. */
  private static final java.util.Set<String> COUNTS = java.util.Set.of("completed", "failed", "max_concurrency",
      "concurrency", "probe_completed", "probe_failed", "total_input_sequences", "conversations_completed",
      "conversations_failed", "turns_per_conversation", "avg_turns_completed", "num_samples",
      "total_requests", "successful", "errored");

  /** The result says that no request succeeded ("completed": 0). */
  private boolean noneCompleted() {
    for (int i = 0; i < figures.size(); i++) {
      if (figures.get(i)[0].equals("completed") && figures.get(i)[1].equals("value")) {
        return values.get(i) == 0;
      }
    }
    return false;
  }

  private void figure(String metric, String stat, String unit, Double value) {
    if (value == null) {
      return;
    }
    figures.add(new String[] {metric, stat, unit});
    values.add(value);
  }

  private long emit() {
    long units = 1;
    if (VllmOfflineBenchFormat.offlineResult(keys) && keys.stream().noneMatch(k -> !k.equals("latencies")
        && (RESULT_KEYS.contains(k) || STAT.matcher(k).matches()))) {
      // vllm bench latency's per-iteration latencies would pass for per-request arrays
      sink.reject(line, "a vllm bench " + (keys.contains("avg_latency") ? "latency" : "throughput")
          + " --output-json result (an offline benchmark, no serving run): read it --from vllm-bench-offline-json",
          null, 0, 0);
      return units;
    }
    if (!recognised) {
      // evalscope's summary, llm-load-test's output, any JSON object named with --from: its
      // numbers would pass for this tool's figures under their own names, in no unit
      sink.reject(line, "not a vllm bench serve or SGLang bench_serving result: the object has none of their keys"
          + " (completed, duration, request_throughput, mean_ttft_ms, ttfts, …)", null, 0, 0);
      return units;
    }
    String kind = maxConcurrency != null && maxConcurrency > 0 ? "concurrency"
        : requestRate != null && requestRate > 0 && !requestRate.isInfinite() ? "request_rate" : null;
    Double level = "concurrency".equals(kind) ? maxConcurrency : "request_rate".equals(kind) ? requestRate : null;
    Integer repeat = runNumber != null && runNumber >= 0 ? runNumber : null;
    String how = tool.engine + " result" + (runNumber != null && runNumber < 0 ? " (a sweep's warm-up run)" : "");
    String conflict = sink.runLevel(run, kind, level, repeat, how);
    if (conflict != null) {
      sink.reject(line, conflict, null, 0, 0);
      return units;
    }
    boolean noneCompleted = noneCompleted();
    // requests whose itls are all empty (none got a second chunk): no ITL sample; and no TPOT
    // sample where no request has an output of more than one token (TPOT is (latency - ttft) /
    // (output_len - 1), not the ITLs: one chunk of several tokens still has one)
    boolean noGaps = itlStart != null && itlStart.length > 1 && itlStart[itlStart.length - 1] == 0;
    boolean noTpot = outputLens != null && java.util.Arrays.stream(outputLens).noneMatch(n -> n > 1);
    for (int i = 0; i < figures.size(); i++) {
      double v = values.get(i);
      String[] f = figures.get(i);
      // with no successful request vLLM and SGLang write 0.0 for every latency statistic (numpy's
      // mean of an empty list, `or 0`), and with no gap for ITL and TPOT: placeholders, not figures
      boolean latency = !f[1].equals("value") && f[2] != null && f[2].equals("ms");
      boolean noSample = noneCompleted || noGaps && f[0].equals("itl") || noTpot && f[0].equals("tpot");
      if (Double.isInfinite(v) && f[0].equals("request_rate")) {
        continue; // "inf": the requests all sent at once, a setting and no rate (the run has no such level)
      }
      // Python's json writes NaN and Infinity (1e400 reads as that), a hand-edited or corrupt file
      // a negative TTFT: no figure, and never dropped unsaid
      String bad = Checked.figureProblem(f[0] + (f[1].equals("value") ? "" : " " + f[1]), v, f[2]);
      if (bad != null) {
        units++;
        sink.reject(line, bad + "; not kept", null, 0, 0);
      } else if (!(latency && noSample)) {
        sink.reportedMetric(run, level, f[0], f[1], v, f[2]);
      }
    }
    if (problem != null) {
      sink.reject(line, problem, null, 0, 0);
      return units;
    }
    sink.record();
    int n = requestCount();
    if (n < 0) {
      units++;
      sink.reject(line, arraysProblem, null, 0, 0);
      return units;
    }
    int runClock = startTimes != null ? sink.clock(new ClockSpec("client",
        tool.engine + " perf_counter, s (" + ctx.sourceName() + ", run " + run + ")", 1, null, false)) : 0;
    for (int i = 0; i < n; i++) {
      units++;
      try {
        request(i, runClock);
      } catch (PeerJson.Bad e) {
        sink.reject(line, "request " + i + ": " + e.getMessage(), null, 0, 0);
      }
    }
    if (n == 0 && failedRequests != null) {
      // vllm-bench (Rust; vllm bench serve with VLLM_USE_RUST_BENCH=1) logs its failed requests
      // without --save-detailed; with it, they are the detailed arrays' own errors, read above
      int failedClock = 0;
      for (int k = 0; k < failedRequests.size(); k++) {
        units++;
        try {
          if (failedClock == 0 && failedRequests.get(k).path("start_time").isNumber()) {
            failedClock = sink.clock(new ClockSpec("client", tool.engine + " client clock, s (" + ctx.sourceName()
                + ", run " + run + ")", 1, null, false));
          }
          failedRequest(failedRequests.get(k), failedClock);
        } catch (PeerJson.Bad e) {
          sink.reject(line, "failed_requests[" + k + "]: " + e.getMessage(), null, 0, 0);
        }
      }
    }
    return units;
  }

  /** One entry of vllm-bench's failed_requests: {index, error, prompt_len, start_time, latency, ttft, output_tokens, itl}. */
  private void failedRequest(com.fasterxml.jackson.databind.JsonNode f, int clock) throws PeerJson.Bad {
    // a multi-turn run's failed turn is named by its conversation and turn instead of an index
    boolean turn = f.isObject() && !f.has("index") && f.has("conversation_id") && f.path("turn_index").canConvertToInt();
    if (!f.isObject() || !turn && (!f.path("index").canConvertToInt() || f.path("index").asInt() < 0)) {
      throw new PeerJson.Bad("expected an object with the request's index, got " + PeerJson.quote(f.toString()));
    }
    req.reset();
    req.lineNo = line;
    req.run = run;
    if (turn) {
      String conversation = f.path("conversation_id").asText();
      req.requestId = conversation + ":" + f.path("turn_index").asInt();
      req.extras.put("session_id", conversation);
      req.extras.put("turn_index", Integer.toString(f.path("turn_index").asInt()));
    } else {
      req.requestId = Integer.toString(f.path("index").asInt());
    }
    req.engine = tool.engine;
    req.status = "error";
    String err = f.path("error").asText("");
    req.error = err.isEmpty() ? "failed" : err.length() > 2000 ? err.substring(0, 2000) : err;
    if (f.path("prompt_len").isNumber()) {
      req.promptTokens = length("prompt_len", (int) f.path("index").asInt(), f.path("prompt_len").asLong());
    }
    if (f.path("output_tokens").isNumber()) {
      req.outputTokens = length("output_tokens", f.path("index").asInt(), f.path("output_tokens").asLong());
    }
    double start = f.path("start_time").asDouble(0);
    double latency = f.path("latency").asDouble(0);
    if (!Double.isFinite(start) || start < 0 || start > dev.tokentime.ingest.Checked.MAX_EPOCH_NS / 1e9) {
      throw new PeerJson.Bad("start_time out of range: " + start + " s");
    }
    String bad = dev.tokentime.ingest.Checked.durationProblem("latency", latency * 1e3);
    if (bad != null) {
      throw new PeerJson.Bad(bad);
    }
    if (clock != 0) {
      req.clockId = clock;
    } else {
      req.clockId = sink.clock(new ClockSpec("client", tool.engine + " request-relative, start = 0 ("
          + ctx.sourceName() + ", run " + run + ", request " + req.requestId + ")", 1, null, false));
    }
    req.arrivalNs = PeerJson.secondsToNs(clock != 0 ? start : 0);
    if (latency > 0) {
      // a partial failure: tokens streamed before the error; its latency is a measurement
      req.e2eMs = latency * 1e3;
      req.finishedNs = PeerJson.secondsToNs((clock != 0 ? start : 0) + latency);
    }
    if (sink.request(req, null, 0, 0) >= 0) {
      sink.record();
    }
  }

  /** vllm-bench's failed_requests entries, read whole (each a small object). */
  private List<com.fasterxml.jackson.databind.JsonNode> failedRequests;

  private String arraysProblem;

  /** Requests in the detail arrays: 0 without them, -1 when their lengths disagree. */
  private int requestCount() {
    Object[][] named = {{"ttfts", ttfts == null ? -1 : ttfts.length},
        {"itls", itlStart == null ? -1 : itlStart.length - 1},
        {"input_lens", inputLens == null ? -1 : inputLens.length},
        {"output_lens", outputLens == null ? -1 : outputLens.length},
        {"errors", errors == null ? -1 : errors.length},
        {"start_times", startTimes == null ? -1 : startTimes.length},
        {"latencies", latencies == null ? -1 : latencies.length},
        {"queue_times", queueTimes == null ? -1 : queueTimes.length}};
    int n = -1;
    String first = null;
    for (Object[] a : named) {
      int len = (Integer) a[1];
      if (len < 0) {
        continue;
      }
      if (n < 0) {
        n = len;
        first = (String) a[0];
      } else if (len != n) {
        arraysProblem = "the per-request arrays disagree: " + first + " has " + n + " entries but "
            + a[0] + " has " + len;
        return -1;
      }
    }
    if (n > 0 && ttfts == null && itlStart != null) {
      arraysProblem = "per-request itls without ttfts: no chunk can be placed";
      return -1;
    }
    if (n > 0 && ttfts == null && errors == null) {
      // vllm bench serve keeps latencies and queue_times without --save-detailed (2026), a fork
      // input_lens and output_lens: arrays without ttfts or errors, whose failed requests only
      // their figures count
      failedMask = failedWithoutErrors(n);
      if (failedMask == null) {
        return -1;
      }
    }
    return Math.max(n, 0);
  }

  /** Which requests failed, in arrays without errors; null (and arraysProblem) when it cannot be told. */
  private boolean[] failedWithoutErrors(int n) {
    Double failed = figureValue("failed");
    Double completed = figureValue("completed");
    Double count = failed != null ? failed : completed != null ? Double.valueOf(n - completed) : null;
    boolean[] mask = new boolean[n];
    if (count != null && count == 0) {
      return mask;
    }
    // the writer leaves a failed request's latency at its default 0.0 (one it counted as
    // successful ended at a chunk, after its start) and its output length at 0
    int marked = 0;
    for (int i = 0; i < n; i++) {
      mask[i] = latencies != null ? latencies[i] == 0 : outputLens != null && outputLens[i] == 0;
      marked += mask[i] ? 1 : 0;
    }
    if (count != null && marked == count) {
      return mask;
    }
    arraysProblem = "per-request arrays without errors or ttfts (no --save-detailed): cannot tell which of the "
        + n + " requests failed (the result says " + (count == null ? "no failed count" : count.longValue() + " failed")
        + ", " + marked + " have " + (latencies != null ? "latency 0.0" : "output length 0") + ")";
    return null;
  }

  private Double figureValue(String metric) {
    for (int i = 0; i < figures.size(); i++) {
      if (figures.get(i)[0].equals(metric) && figures.get(i)[1].equals("value")) {
        return values.get(i);
      }
    }
    return null;
  }

  /** Requests that failed, told from arrays without errors; null with an errors array or ttfts. */
  private boolean[] failedMask;

  private void request(int i, int runClock) throws PeerJson.Bad {
    req.reset();
    req.lineNo = line;
    req.run = run;
    req.requestId = Integer.toString(i);
    req.engine = tool.engine;
    String err = errors == null ? null : errors[i];
    boolean ok = failedMask != null ? !failedMask[i] : err == null || err.isEmpty();
    req.status = ok ? "ok" : "error";
    if (!ok) {
      req.error = err == null ? "failed (the result keeps no error text without --save-detailed)"
          : err.length() > 2000 ? err.substring(0, 2000) : err;
    }
    if (pooling) {
      req.extras.put("output_kind", "none"); // vllm bench serve of an embedding or pooling model: no tokens out
    }
    if (queueTimes != null && queueTimes[i] != -1) {
      // the wait for the client's --max-concurrency semaphore before the request was sent (its
      // start time): outside its E2EL, inside vLLM's e2el_including_client_queue
      String bad = queueTimes[i] < 0 ? "queue_times[" + i + "]: expected a duration >= 0 s, got " + queueTimes[i]
          : dev.tokentime.ingest.Checked.durationProblem("queue_times[" + i + "]", queueTimes[i] * 1e3);
      if (bad != null) {
        throw new PeerJson.Bad(bad);
      }
      req.extras.put("client_queue_ms", Double.toString(queueTimes[i] * 1e3));
    }
    if (inputLens != null) {
      req.promptTokens = length("input_lens", i, inputLens[i]);
    }
    if (outputLens != null) {
      req.outputTokens = length("output_lens", i, outputLens[i]);
    }
    if (startTimes != null && !Double.isFinite(startTimes[i])) {
      throw new PeerJson.Bad("start_times[" + i + "]: not a finite number");
    }
    // a perf_counter reading: seconds since boot, never negative; checked before the request and
    // its chunks are written, so that one bad start is one reject, not a file refused
    if (startTimes != null && (startTimes[i] < 0
        || startTimes[i] > dev.tokentime.ingest.Checked.MAX_EPOCH_NS / 1e9)) {
      throw new PeerJson.Bad("start_times[" + i + "] out of range: " + startTimes[i] + " s");
    }
    // without ttfts (a result without --save-detailed, a pooling run's): no first token, no chunk
    double ttft = ttfts == null ? 0 : ttfts[i];
    if (ttfts != null && (ttft < 0 || !Double.isFinite(ttft))) {
      throw new PeerJson.Bad("ttfts[" + i + "]: expected a duration >= 0 s, got " + ttft);
    }
    int from = itlStart == null ? 0 : itlStart[i];
    int to = itlStart == null ? 0 : itlStart[i + 1];
    for (int k = from; k < to; k++) {
      if (itlFlat[k] < 0 || !Double.isFinite(itlFlat[k])) {
        throw new PeerJson.Bad("timestamps decrease: itls[" + i + "][" + (k - from) + "] is " + itlFlat[k]);
      }
    }
    // both clients start a request's TTFT at 0.0 and set it at its first chunk: a request they
    // counted as successful that received none (2024's benchmark_serving.py: output 0, no itls,
    // TTFT 0.0) has no first token, only that default; the tools' own figures count it at 0
    // (vllm_bench_metrics, sglang_bench_metrics), tokentime's do not
    boolean noChunk = ttfts == null || ok && ttft == 0 && to == from && outputLens != null && outputLens[i] == 0;
    if (ok && !noChunk) {
      req.ttftMs = ttft * 1e3;
    }
    double e2e = ttft;
    for (int k = from; k < to; k++) {
      e2e += itlFlat[k];
    }
    // a failed request's latency is the writer's default 0.0, no measurement
    if (latencies != null && latencies[i] >= 0 && (ok || latencies[i] > 0)) {
      req.e2eMs = latencies[i] * 1e3;
    } else if (ok && !noChunk) {
      req.e2eMs = e2e * 1e3;
    }
    // without start times, each request keeps its own clock: its times are offsets from its start
    if (startTimes != null) {
      req.clockId = runClock;
    } else {
      req.clockId = sink.clock(new ClockSpec("client", tool.engine + " request-relative, start = 0 ("
          + ctx.sourceName() + ", run " + run + ", request " + i + ")", 1, null, false));
    }
    double start = startTimes != null ? startTimes[i] : 0;
    req.arrivalNs = PeerJson.secondsToNs(start);
    if (latencies != null && latencies[i] >= 0 && (ok || latencies[i] > 0)) {
      req.finishedNs = PeerJson.secondsToNs(start + latencies[i]);
    }
    String range = ok && ttfts != null ? dev.tokentime.ingest.Checked.durationProblem("ttft + itls", e2e * 1e3) : null;
    if (range != null) {
      throw new PeerJson.Bad(range); // before the request: the record is one unit
    }
    long key = sink.request(req, null, 0, 0);
    if (key < 0) {
      return;
    }
    if (ok && !noChunk) {
      int chunks = 1 + (to - from);
      boolean oneEach = req.outputTokens != null && req.outputTokens == chunks;
      double at = start + ttft;
      sink.token(key, 0, PeerJson.secondsToNs(at), oneEach ? 1 : -1, ChunkKind.CONTENT);
      for (int k = from; k < to; k++) {
        at += itlFlat[k];
        sink.token(key, k - from + 1, PeerJson.secondsToNs(at), oneEach ? 1 : -1, ChunkKind.CONTENT);
      }
    }
    sink.record();
  }

  private static int length(String field, int i, long v) throws PeerJson.Bad {
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new PeerJson.Bad(field + "[" + i + "]: expected a token count, got " + v);
    }
    return (int) v;
  }

  // ---- arrays ----

  private static void expectArray(JsonParser p, String field) throws IOException, PeerJson.Bad {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new PeerJson.Bad(field + ": expected an array, got " + PeerJson.describe(p));
    }
  }

  private static double[] doubles(JsonParser p, String field) throws IOException, PeerJson.Bad {
    expectArray(p, field);
    double[] out = new double[64];
    int n = 0;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n] = p.currentToken() == JsonToken.VALUE_NULL ? -1 : PeerJson.number(p, field + "[" + n + "]");
      n++;
    }
    return Arrays.copyOf(out, n);
  }

  private static long[] longs(JsonParser p, String field) throws IOException, PeerJson.Bad {
    expectArray(p, field);
    long[] out = new long[64];
    int n = 0;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n] = PeerJson.integer(p, field + "[" + n + "]");
      n++;
    }
    return Arrays.copyOf(out, n);
  }

  private static String[] strings(JsonParser p, String field) throws IOException, PeerJson.Bad {
    expectArray(p, field);
    List<String> out = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      JsonToken t = p.currentToken();
      if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
        out.add(PeerJson.TREE.readTree(p).toString());
      } else {
        out.add(t == JsonToken.VALUE_NULL ? null : p.getText());
      }
    }
    return out.toArray(new String[0]);
  }

  private void itls(JsonParser p) throws IOException, PeerJson.Bad {
    expectArray(p, "itls");
    double[] flat = new double[1024];
    int[] starts = new int[65];
    int n = 0;
    int requests = 0;
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (requests + 1 == starts.length) {
        starts = Arrays.copyOf(starts, starts.length * 2);
      }
      starts[requests] = n;
      if (t != JsonToken.START_ARRAY) {
        throw new PeerJson.Bad("itls[" + requests + "]: expected an array, got " + PeerJson.describe(p));
      }
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (n == flat.length) {
          flat = Arrays.copyOf(flat, n * 2);
        }
        flat[n++] = PeerJson.number(p, "itls[" + requests + "]");
      }
      requests++;
    }
    starts[requests] = n;
    itlFlat = Arrays.copyOf(flat, n);
    itlStart = Arrays.copyOf(starts, requests + 1);
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
