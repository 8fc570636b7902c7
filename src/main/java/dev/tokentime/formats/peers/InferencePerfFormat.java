package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * kubernetes-sigs/inference-perf's report files (its {@code reports-<date>/} folder; names may
 * carry the user's prefix): {@code stage_<N>_lifecycle_metrics.json} and
 * {@code summary_lifecycle_metrics.json}, one object of the tool's statistics
 * ({@code load_summary}, {@code successes}, {@code failures}: a run each, at the stage's requested
 * rate or concurrency, its figures as reported_metrics), and
 * {@code per_request_lifecycle_metrics.json} (off by default), a JSON array of the requests of
 * every stage: {@code start_time}, {@code end_time} and the chunks' {@code chunk_times} /
 * {@code output_token_times}, all {@code time.perf_counter()} seconds (a steady clock: no date),
 * token counts and {@code error}. Its records carry no stage, so they are one run. Three record
 * layouts: 0.2–0.4 {@code info.output_token_times}, 0.5 {@code info.response_info}, 0.6 and later
 * {@code info.request_metrics} / {@code info.response_metrics}; 0.1 has no {@code info}.
 *
 * <p>Token times: {@code chunk_times} (content chunks) when written, else
 * {@code output_token_times}, whose equal consecutive times (a chunk's tokens, each stamped with
 * the chunk's arrival when the tool had a tokenizer) are one chunk of that many tokens.
 */
public final class InferencePerfFormat extends NamedFormat {
  private static final Set<String> STATS = Set.of("mean", "min", "max", "median");

  public InferencePerfFormat() {
    super("inference-perf-json",
        "runs, requests, tokens, reported_metrics",
        "inference-perf reports: stage_N_ / summary_lifecycle_metrics.json (a run each, its statistics) and per_request_lifecycle_metrics.json (requests, chunk times)");
  }

  @Override
  public String leaveOut(String fileName, Set<String> folder) {
    // the summary restates every stage of the run beside it (of its own prefix: not an adapter's)
    if (fileName.endsWith("summary_lifecycle_metrics.json")) {
      String prefix = fileName.substring(0, fileName.length() - "summary_lifecycle_metrics.json".length());
      java.util.regex.Pattern stage = java.util.regex.Pattern.compile(
          java.util.regex.Pattern.quote(prefix) + "stage_\\d+_lifecycle_metrics\\.json");
      if (folder.stream().anyMatch(f -> stage.matcher(f).matches())) {
        return "the run's summary over all its stages: the stage_N_lifecycle_metrics.json beside it hold them";
      }
    }
    if (PROMETHEUS.matcher(fileName).find()) {
      return PROMETHEUS_REASON;
    }
    return null;
  }

  private static final java.util.regex.Pattern PROMETHEUS = java.util.regex.Pattern.compile("prometheus_metrics\\.json$");
  private static final String PROMETHEUS_REASON = "inference-perf's summary of the server's Prometheus metrics over the"
      + " run (no client figure): not read; ingest the server's /metrics scrapes or Prometheus' answers instead";

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (text.startsWith("{")) {
      return text.contains("\"load_summary\"") && text.contains("\"successes\"") ? 90 : 0;
    }
    if (text.startsWith("[")) {
      // the tool writes each record's keys in one order: start_time, end_time, request (a
      // prompt that can fill the head), response, info, error
      return FIRST_RECORD.matcher(text).lookingAt() ? 88 : 0;
    }
    return 0;
  }

  private static final java.util.regex.Pattern FIRST_RECORD = java.util.regex.Pattern.compile(
      "\\[\\s*\\{\\s*\"start_time\":\\s*[-\\d.eE+]+,\\s*\"end_time\":\\s*[-\\d.eE+]+,\\s*\"request\":");

  @Override
  public long parse(InputStream raw, ParseContext ctx, RecordSink sink) throws IOException {
    if (PROMETHEUS.matcher(ctx.sourceName()).find()) {
      raw.transferTo(java.io.OutputStream.nullOutputStream());
      sink.reject(1, PROMETHEUS_REASON, null, 0, 0);
      return 1;
    }
    BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
    try (JsonParser p = PeerJson.JSON.createParser(in)) {
      JsonToken t = PeerJson.firstToken(p, sink);
      if (t == JsonToken.NOT_AVAILABLE) {
        return 1;
      }
      if (t == JsonToken.START_ARRAY) {
        long n = requests(p, ctx, sink);
        return n + (p.currentToken() == JsonToken.END_ARRAY
            ? PeerJson.trailing(p, sink, "array", "an inference-perf report holds one") : 0);
      }
      if (t == JsonToken.START_OBJECT) {
        JsonNode s = PeerJson.whole(p, sink);
        if (s == null) {
          return 1;
        }
        summary(s, stageRun(ctx), sink);
        return 1 + PeerJson.trailing(p, sink, "object", "an inference-perf report holds one");
      }
      sink.reject(1, "not an inference-perf report: expected a JSON array or object", null, 0, 0);
      return 1;
    }
  }

  private static final java.util.regex.Pattern STAGE = java.util.regex.Pattern.compile(
      "([^/\\\\]*stage_\\d+)_lifecycle_metrics\\.json$");

  /**
   * The run of a lifecycle report: a stage's is the report folder's run and its stage, prefix
   * included ({@code reports-…/stage_0}, {@code reports-…/adapter_a_stage_0}), the summary's and
   * the per-request file's the folder's run itself.
   */
  static String stageRun(ParseContext ctx) {
    java.util.regex.Matcher m = STAGE.matcher(ctx.sourceName());
    return m.find() ? ctx.defaultRun() + "/" + m.group(1) : ctx.defaultRun();
  }

  /** A lifecycle report: the run's level and every statistic the tool wrote. */
  private static void summary(JsonNode s, String run, RecordSink sink) {
    JsonNode load = s.path("load_summary");
    if (!load.isObject() || !s.path("successes").isObject()) {
      sink.reject(1, "not an inference-perf lifecycle report: no load_summary and successes", null, 0, 0);
      return;
    }
    Double rate = PeerJson.positive(load.get("requested_rate"));
    Double concurrency = PeerJson.positive(load.get("concurrency"));
    String kind = concurrency != null ? "concurrency" : rate != null ? "request_rate" : null;
    Double level = concurrency != null ? concurrency : rate;
    String conflict = sink.runLevel(run, kind, level, null, "inference-perf stage");
    if (conflict != null) {
      sink.reject(1, conflict, null, 0, 0);
      return;
    }
    for (String f : new String[] {"count", "send_duration", "requested_rate", "achieved_rate", "concurrency"}) {
      figure(sink, run, level, f, "value", load.get(f), f.equals("send_duration") ? "s"
          : f.endsWith("rate") ? "requests/s" : f.equals("count") ? "count" : "requests");
    }
    stats(sink, run, level, "schedule_delay", load.path("schedule_delay"), "s");
    JsonNode ok = s.path("successes");
    figure(sink, run, level, "successes", "count", ok.get("count"), "count");
    figure(sink, run, level, "failures", "count", s.path("failures").get("count"), "count");
    figure(sink, run, level, "benchmark_time_seconds", "value", s.get("benchmark_time_seconds"), "s");
    for (Iterator<Map.Entry<String, JsonNode>> it = ok.path("latency").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> m = it.next();
      stats(sink, run, level, m.getKey(), m.getValue(), "s");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = ok.path("throughput").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> m = it.next();
      figure(sink, run, level, m.getKey(), "value", m.getValue(), m.getKey().startsWith("requests") ? "requests/s"
          : m.getKey().contains("tokens") ? "tokens/s" : "1/s");
    }
    for (String lengths : new String[] {"prompt_len", "output_len", "prompt_tokens", "output_tokens"}) {
      stats(sink, run, level, lengths, ok.path(lengths), "tokens");
    }
    extras(sink, run, level, ok, s.path("failures"));
    sink.record();
  }

  /** What a multi-modal payload statistic counts, by its name in the report (0.5 on). */
  private static final Map<String, String> MEDIA_UNITS = Map.of(
      "count", "count", "pixels", "pixels", "bytes", "bytes", "aspect_ratio", "ratio", "frames", "frames",
      "seconds", "s", "filesize", "bytes", "duration", "s");

  /**
   * The rest of what the tool wrote (0.5 on): the prompt tokens' cached / uncached split, the
   * request sizes, the multi-modal payloads (image_count, video_frames, audio_seconds, …), the
   * requests whose token count disagreed, the goodput figures; the failed requests' latency and
   * prompt lengths (failed_request_latency, failed_prompt_len / failed_prompt_tokens) and their
   * count per error label (error_count, stat = the label).
   */
  private static void extras(RecordSink sink, String run, Double level, JsonNode ok, JsonNode failures) {
    for (String split : new String[] {"cached", "uncached"}) {
      figure(sink, run, level, "prompt_tokens", split, ok.path("prompt_tokens").get(split), "tokens");
    }
    stats(sink, run, level, "request_size_bytes", ok.path("request_size_bytes"), "bytes");
    for (String media : new String[] {"image", "video", "audio"}) {
      for (Iterator<Map.Entry<String, JsonNode>> it = ok.path(media).fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> m = it.next();
        stats(sink, run, level, media + "_" + m.getKey(), m.getValue(), MEDIA_UNITS.getOrDefault(m.getKey(), ""));
      }
    }
    figure(sink, run, level, "token_count_mismatches", "value", ok.get("token_count_mismatches"), "requests");
    for (Iterator<Map.Entry<String, JsonNode>> it = ok.path("goodput_metrics").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> m = it.next();
      String k = m.getKey();
      figure(sink, run, level, k, "value", m.getValue(), k.endsWith("percentage") ? "%"
          : k.equals("request_goodput") ? "requests/s" : k.equals("token_goodput") ? "tokens/s" : "requests");
    }
    stats(sink, run, level, "failed_request_latency", failures.path("request_latency"), "s");
    stats(sink, run, level, "failed_prompt_len", failures.path("prompt_len"), "tokens");
    stats(sink, run, level, "failed_prompt_tokens", failures.path("prompt_tokens"), "tokens");
    for (Iterator<Map.Entry<String, JsonNode>> it = failures.path("by_label").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> m = it.next();
      figure(sink, run, level, "error_count", m.getKey(), m.getValue().get("count"), "requests");
    }
  }

  /** {mean, min, max, median, pNN}: each a figure. */
  private static void stats(RecordSink sink, String run, Double level, String metric, JsonNode d, String unit) {
    for (Iterator<Map.Entry<String, JsonNode>> it = d.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (STATS.contains(e.getKey()) || e.getKey().matches("p\\d+(?:\\.\\d+)?")) {
        figure(sink, run, level, metric, e.getKey(), e.getValue(), unit);
      } else if (e.getKey().equals("total")) {
        figure(sink, run, level, metric, "total", e.getValue(), unit);
      }
    }
  }

  private static void figure(RecordSink sink, String run, Double level, String metric, String stat, JsonNode v,
      String unit) {
    if (v != null && v.isNumber() && Double.isFinite(v.asDouble())) {
      sink.reportedMetric(run, level, metric, stat, v.asDouble(), unit);
    }
  }

  /** The per-request array: the parser on its START_ARRAY. */
  private static long requests(JsonParser p, ParseContext ctx, RecordSink sink) throws IOException {
    RequestRecord req = new RequestRecord();
    int clockId = sink.clock(new ClockSpec("steady", "inference-perf perf_counter, s (" + ctx.sourceName() + ")",
        1, null, false));
    return PeerJson.elements(p, sink, false, (r, index, line) -> {
      long[] chunks = request(req, r, index, line, ctx, clockId);
      long key = sink.request(req, null, 0, 0);
      if (key >= 0) {
        for (int i = 0; i < chunks.length; i += 2) {
          sink.token(key, i / 2, chunks[i], (int) chunks[i + 1], ChunkKind.CONTENT);
        }
        sink.endOfStream(key);
        sink.record();
      }
    });
  }

  /** Fills the request; returns its chunks as {ts_ns, n_tokens} pairs (n_tokens -1: unknown). */
  private static long[] request(RequestRecord req, JsonNode r, int index, long line, ParseContext ctx, int clockId)
      throws PeerJson.Bad {
    if (!r.isObject()) {
      throw new PeerJson.Bad("expected an object");
    }
    req.reset();
    req.lineNo = line;
    req.run = ctx.defaultRun();
    req.requestId = Integer.toString(index);
    req.engine = "inference-perf";
    req.clockId = clockId;
    BigDecimal start = PeerJson.seconds(r, "start_time");
    if (start == null) {
      throw new PeerJson.Bad("no start_time");
    }
    req.arrivalNs = Checked.secondsToNs("start_time", start);
    BigDecimal end = PeerJson.seconds(r, "end_time");
    if (end != null) {
      req.finishedNs = Checked.secondsToNs("end_time", end);
    }
    JsonNode info = r.path("info");
    // 0.6+: response_metrics; 0.5: response_info; 0.2–0.4: on info itself
    JsonNode resp = info.path("response_metrics").isObject() ? info.get("response_metrics")
        : info.path("response_info").isObject() ? info.get("response_info") : info;
    JsonNode input = info.path("request_metrics").path("text").path("input_tokens");
    req.promptTokens = count(input.isNumber() ? input : info.get("input_tokens"), "input_tokens");
    req.outputTokens = count(resp.get("output_tokens"), "output_tokens");
    JsonNode error = r.get("error");
    if (error != null && !error.isNull()) {
      req.status = "error";
      String type = error.path("error_type").asText("");
      String msg = error.path("error_msg").asText("");
      req.error = type + (msg.isEmpty() ? "" : ": " + msg);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("^HTTP Error (\\d{3})\\b").matcher(type);
      if (m.find()) {
        req.httpStatus = Integer.parseInt(m.group(1));
      }
    } else {
      req.status = "ok";
    }
    // with a tokenizer the tool rewrites output_token_times to one time per token (a chunk's
    // tokens at its time) and keeps chunk_times one per chunk: the per-token list holds the sizes
    JsonNode chunkTimes = resp.path("chunk_times");
    JsonNode tokenTimes = resp.path("output_token_times");
    boolean perToken = !(chunkTimes.isArray() && chunkTimes.size() > 0 && chunkTimes.size() >= tokenTimes.size());
    JsonNode times = perToken ? tokenTimes : chunkTimes;
    long[] out = new long[times.size() * 2];
    int n = 0;
    long prev = Long.MIN_VALUE;
    for (JsonNode v : times) {
      if (!v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < 0) {
        throw new PeerJson.Bad("a chunk time is not a number of seconds: " + v);
      }
      long ns = Checked.secondsToNs("chunk time", v.decimalValue());
      if (ns < prev) {
        throw new PeerJson.Bad("chunk times go backwards: " + v);
      }
      if (perToken && ns == prev) {
        out[n - 1]++; // one more token of the chunk before: the tool stamped each token of a chunk with its time
        continue;
      }
      out[n++] = ns;
      out[n++] = perToken ? 1 : -1;
      prev = ns;
    }
    if (perToken && n == 2 * times.size() && !times.isEmpty()) {
      // no chunk held several tokens: whether a time is a token or a chunk is not known
      for (int i = 1; i < n; i += 2) {
        out[i] = -1;
      }
    }
    if (n > 0) {
      req.firstTokenNs = out[0];
      req.lastTokenNs = out[n - 2];
    }
    return java.util.Arrays.copyOf(out, n);
  }

  private static Integer count(JsonNode v, String name) throws PeerJson.Bad {
    if (v == null || v.isNull()) {
      return null;
    }
    String problem = v.isNumber() ? Checked.countProblem(name, v.numberValue()) : name + ": not a number";
    if (problem != null || v.asDouble() != Math.rint(v.asDouble())) {
      throw new PeerJson.Bad(problem != null ? problem : name + ": " + v + " is not a whole number");
    }
    return v.asInt();
  }
}
