package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.TestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus metrics of SGLang, trtllm-serve and Triton, read as vLLM's are: the samples
 * under sample-logs/ against sample-logs/prometheus/expected/expected.json (make_samples.py),
 * SGLang's query_range JSON of two data-parallel ranks, sniffing, rejects.
 */
class PromFamiliesTest {
  static final VllmPrometheusFormat VLLM = new VllmPrometheusFormat(PromFamily.VLLM);
  static final Path EXPECTED = Path.of("sample-logs/prometheus/expected/expected.json");

  @TempDir
  Path tmp;

  static String sniff(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    var f = FormatRegistry.standard().sniff(new Sample("metrics", b, b.length));
    return f == null ? null : f.id();
  }

  @Test
  void eachEnginesMetricsAreSniffedAsItsOwn() throws Exception {
    // the line of issue 21, trtllm-serve's /prometheus/metrics
    assertEquals("trtllm-prometheus",
        sniff("e2e_request_latency_seconds_bucket{engine_type=\"undefined\",le=\"0.3\",model_name=\"undefined\"} 0.0\n"));
    assertEquals("sglang-prometheus", sniff("# HELP sglang:num_running_reqs The number of running requests.\n"
        + "# TYPE sglang:num_running_reqs gauge\n"
        + "sglang:num_running_reqs{engine_type=\"unified\",model_name=\"m\"} 0.0\n"));
    assertEquals("triton-prometheus", sniff("# TYPE nv_inference_request_success counter\n"
        + "nv_inference_request_success{model=\"ensemble\",version=\"1\"} 12\n"));
    assertEquals("vllm-prometheus", sniff("vllm:e2e_request_latency_seconds_bucket{le=\"0.3\",model_name=\"m\"} 0.0\n"));
    assertEquals("sglang-prometheus", sniff(Files.readString(
        Path.of("src/test/resources/prometheus/sglang-query-range-dp.json"))));
    assertNull(sniff("http_requests_total{code=\"200\"} 3\n"));
  }

  @Test
  void samplesGiveTheNumbersMakeSamplesWrote() throws Exception {
    JsonNode want = new ObjectMapper().readTree(EXPECTED.toFile());
    try (TestDb t = new TestDb(tmp)) {
      IngestResult r = t.ingest(IngestOptions.of(List.of("sample-logs/prometheus", "sample-logs/sglang-server/metrics.prom")));
      assertEquals(0, r.rejected());
      for (String[] f : new String[][] {{"sglang", "sglang-prometheus"}, {"trtllm", "trtllm-prometheus"},
          {"triton", "triton-prometheus"}}) {
        IngestResult.FileResult fr = r.files().stream().filter(x -> x.format().equals(f[1])).findFirst().orElseThrow();
        assertEquals(want.get(f[0]).get("lines").asLong(), fr.lines(), f[1]);
        assertEquals(want.get(f[0]).get("other_lines").asLong(), fr.otherLines(), f[1]);
      }
      // SGLang gauges: running, queued, token usage as KV usage, throughput, cache hit rate
      List<List<Object>> sg = t.rows("SELECT ts_ns // 1000000, running, waiting, kv_usage, gen_tokens_per_s,"
          + " prefix_hit_rate, instance FROM engine_stats JOIN sources USING (source_id)"
          + " WHERE format = 'sglang-prometheus' ORDER BY ts_ns");
      int i = 0;
      for (JsonNode e : want.get("sglang").get("engine_stats")) {
        List<Object> row = sg.get(i++);
        assertEquals(e.get("ts_ms").asLong(), ((Number) row.get(0)).longValue());
        assertEquals(e.get("running").asInt(), ((Number) row.get(1)).intValue());
        assertEquals(e.get("waiting").asInt(), ((Number) row.get(2)).intValue());
        assertEquals(e.get("kv_usage").asDouble(), ((Number) row.get(3)).doubleValue(), 1e-12);
        assertEquals(e.get("gen_tokens_per_s").asDouble(), ((Number) row.get(4)).doubleValue(), 1e-12);
        assertEquals(e.get("prefix_hit_rate").asDouble(), ((Number) row.get(5)).doubleValue(), 1e-12);
        assertEquals(e.get("instance").asText(), row.get(6));
      }
      assertEquals(cumulative(want.get("sglang").get("ttft_deltas")),
          counts(t, "sglang:time_to_first_token_seconds"));
      assertEquals(cumulative(want.get("trtllm").get("e2e_deltas")), counts(t, "e2e_request_latency_seconds"));
      assertEquals(want.get("trtllm").get("success_stop_second").asDouble(), ((Number) t.rows(
          "SELECT extras['request_success_total{finished_reason=stop}'] FROM engine_stats JOIN sources USING (source_id)"
          + " WHERE format = 'trtllm-prometheus' ORDER BY ts_ns DESC LIMIT 1").get(0).get(0)).doubleValue());

      // Triton: pending → waiting, the TensorRT-LLM backend's active requests → running, KV blocks
      // used / max → kv_usage; the counters stay cumulative in extras
      List<List<Object>> tri = t.rows("SELECT running, waiting, kv_usage, instance,"
          + " extras['inference_request_success'], extras['inference_request_duration_us']"
          + " FROM engine_stats JOIN sources USING (source_id) WHERE format = 'triton-prometheus' ORDER BY ts_ns");
      i = 0;
      for (JsonNode e : want.get("triton").get("engine_stats")) {
        List<Object> row = tri.get(i++);
        assertEquals(e.get("running").asInt(), ((Number) row.get(0)).intValue());
        assertEquals(e.get("waiting").asInt(), ((Number) row.get(1)).intValue());
        assertEquals(e.get("kv_usage").asDouble(), ((Number) row.get(2)).doubleValue(), 1e-12);
        assertEquals(e.get("instance").asText(), row.get(3));
        assertEquals(e.get("success").asDouble(), ((Number) row.get(4)).doubleValue());
        assertEquals(e.get("request_duration_us").asDouble(), ((Number) row.get(5)).doubleValue());
      }
      double mean = (((Number) tri.get(1).get(5)).doubleValue() - ((Number) tri.get(0).get(5)).doubleValue())
          / (((Number) tri.get(1).get(4)).doubleValue() - ((Number) tri.get(0).get(4)).doubleValue()) / 1000;
      assertEquals(want.get("triton").get("mean_request_ms").asDouble(), mean, 1e-9);
    }
  }

  @Test
  void queryRangeOfDataParallelRanksKeepsThemApart() throws Exception {
    Parse p = Parse.real(new VllmPrometheusFormat(PromFamily.SGLANG), "../../prometheus/sglang-query-range-dp.json",
        Parse.ctx(null, null, false, null));
    List<String> rows = new ArrayList<>();
    for (EngineStatsRecord e : p.full.stats) {
      rows.add(e.instance + " " + e.tsNs / 1_000_000_000L + " " + e.running + "/" + e.waiting);
    }
    assertEquals(List.of(
        "dp 0 / deepseek-ai/DeepSeek-V3 1775656800 12/4",
        "dp 0 / deepseek-ai/DeepSeek-V3 1775656815 14/0",
        "dp 1 / deepseek-ai/DeepSeek-V3 1775656800 9/1",
        "dp 1 / deepseek-ai/DeepSeek-V3 1775656815 3/0"), rows);
    assertEquals(6, p.lines);
    assertEquals(6, p.sink.records);
    assertEquals(2, p.sink.histograms.size(), "12 and 14 requests ended at or below 10 s and +Inf");
    assertTrue(p.sink.histograms.get(0).contains("12.0") || p.sink.histograms.get(1).contains("12.0"), p.sink.histograms.toString());
  }

  /** A sample of real-logs/trtllm/prometheus_metrics_samples.txt, between its header and the next. */
  static String realSample(String id) throws Exception {
    String all = Files.readString(Path.of("src/test/resources/real-logs/trtllm/prometheus_metrics_samples.txt"));
    int h = all.indexOf("=== SAMPLE " + id + " ");
    int from = all.indexOf('\n', h) + 1;
    int to = all.indexOf("=== SAMPLE ", from);
    return all.substring(from, to < 0 ? all.length() : to);
  }

  @Test
  void realScrapesOfTritonAndTrtllmServeWithAt() throws Exception {
    java.time.Instant at = java.time.Instant.parse("2025-07-01T00:00:00Z");
    // Triton (tensorrtllm_backend#667): per model, cumulative counters as Triton counts them
    Parse tri = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), realSample("PR-4"),
        Parse.ctx(null, null, false, at));
    EngineStatsRecord trt = tri.full.stats.stream().filter(e -> "tensorrt_llm / v1".equals(e.instance))
        .findFirst().orElseThrow();
    assertEquals(368632046.0, trt.extras.get("inference_request_duration_us"));
    assertEquals(232.0, trt.extras.get("inference_exec_count"));
    assertEquals(1, tri.sink.rejects.size(), "the cut last line");
    // trtllm-serve behind Dynamo (trtllm_ prefix): success counts per finish reason
    Parse tr = Parse.text(new VllmPrometheusFormat(PromFamily.TRTLLM), realSample("PR-3"),
        Parse.ctx(null, null, false, at));
    EngineStatsRecord q = tr.full.stats.get(0);
    assertEquals("Qwen/Qwen3-0.6B", q.instance);
    assertEquals(150.0, q.extras.get("trtllm_request_success_total{finished_reason=stop}"));
    assertEquals(5.0, q.extras.get("trtllm_request_success_total{finished_reason=length}"));
    assertEquals(List.of(), tr.sink.rejects);
  }

  /**
   * Triton's failures per reason (core#377, the labels in the order Triton writes them): the
   * reasons stay in extras, their sum is the total older Tritons wrote under the bare name, per
   * model; a total Triton writes itself is kept as written.
   */
  @Test
  void tritonFailuresPerReasonGiveTheTotal() throws Exception {
    java.time.Instant at = java.time.Instant.parse("2025-07-01T00:00:00Z");
    String text = "# TYPE nv_inference_request_failure counter\n"
        + "nv_inference_request_failure{model=\"llama\",reason=\"OTHER\",version=\"1\"} 1\n"
        + "nv_inference_request_failure{model=\"llama\",reason=\"BACKEND\",version=\"1\"} 4\n"
        + "nv_inference_request_failure{model=\"llama\",reason=\"CANCELED\",version=\"1\"} 2\n"
        + "nv_inference_request_failure{model=\"llama\",reason=\"REJECTED\",version=\"1\"} 0\n"
        + "nv_inference_request_failure{model=\"ensemble\",reason=\"OTHER\",version=\"1\"} 3\n"
        + "nv_inference_request_success{model=\"llama\",version=\"1\"} 93\n";
    Parse p = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), text, Parse.ctx(null, null, false, at));
    assertEquals(List.of(), p.sink.rejects);
    EngineStatsRecord llama = p.full.stats.stream().filter(e -> "llama / v1".equals(e.instance)).findFirst().orElseThrow();
    assertEquals(7.0, llama.extras.get("inference_request_failure"));
    assertEquals(4.0, llama.extras.get("inference_request_failure{reason=BACKEND}"));
    assertEquals(93.0, llama.extras.get("inference_request_success"));
    EngineStatsRecord ens = p.full.stats.stream().filter(e -> "ensemble / v1".equals(e.instance)).findFirst().orElseThrow();
    assertEquals(3.0, ens.extras.get("inference_request_failure"));

    // a real scrape of two models (PR-7), after a RHEL prompt line: every count 0, the total too
    Parse real = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), realSample("PR-7"), Parse.ctx(null, null, false, at));
    assertEquals(List.of(), real.sink.rejects);
    for (String model : List.of("densenet_onnx / v1", "cc_fraud_detect_model / v1")) {
      EngineStatsRecord r = real.full.stats.stream().filter(e -> model.equals(e.instance)).findFirst().orElseThrow();
      assertEquals(0.0, r.extras.get("inference_request_failure"), model);
      assertEquals(0.0, r.extras.get("inference_request_failure{reason=REJECTED}"), model);
      assertEquals(0, r.waiting, model);
    }

    Parse old = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON),
        "nv_inference_request_failure{model=\"llama\",version=\"1\"} 5\n", Parse.ctx(null, null, false, at));
    assertEquals(5.0, old.full.stats.get(0).extras.get("inference_request_failure"));
  }

  /**
   * The TensorRT-LLM backend's own share of KV blocks in use ({@code kv_cache_block_type="fraction"},
   * its README's scrape PR-1) is kv_usage where written, before used / max (as trtllm-iter-stats
   * prefers the iteration stats' fraction); used / max where it is not.
   */
  @Test
  void tritonKvFractionIsPreferredToUsedOverMax() throws Exception {
    java.time.Instant at = java.time.Instant.parse("2025-07-01T00:00:00Z");
    Parse p = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), realSample("PR-1"), Parse.ctx(null, null, false, at));
    assertEquals(List.of(), p.sink.rejects);
    EngineStatsRecord r = p.full.stats.stream().filter(e -> "tensorrt_llm / v1".equals(e.instance)).findFirst().orElseThrow();
    assertEquals(0.4875, r.kvUsage);
    assertEquals(1.0, r.extras.get("trt_llm_kv_cache_block_metrics{kv_cache_block_type=used}"));
    Parse noFraction = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), realSample("PR-1").replaceAll(
        "(?m)^.*kv_cache_block_type=\"fraction\".*\n", ""), Parse.ctx(null, null, false, at));
    EngineStatsRecord n = noFraction.full.stats.stream().filter(e -> "tensorrt_llm / v1".equals(e.instance)).findFirst()
        .orElseThrow();
    assertEquals(1.0 / 6239, n.kvUsage, 1e-15);
  }

  /** KV blocks in use above the most (counts of two moments): no share is derived, nothing refused. */
  @Test
  void tritonBlocksUsedAboveTheMostGiveNoKvUsage() throws Exception {
    String text = java.nio.file.Files.readString(java.nio.file.Path.of("sample-logs/prometheus/triton.prom"))
        .replace("kv_cache_block_type=\"used\",model=\"tensorrt_llm\",version=\"1\"} 310",
            "kv_cache_block_type=\"used\",model=\"tensorrt_llm\",version=\"1\"} 1500");
    Parse p = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), text, Parse.ctx(null, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    EngineStatsRecord first = p.full.stats.stream().filter(e -> e.extras.containsKey(
        "trt_llm_kv_cache_block_metrics{kv_cache_block_type=used}")).findFirst().orElseThrow();
    assertEquals(1500.0, first.extras.get("trt_llm_kv_cache_block_metrics{kv_cache_block_type=used}"));
    assertEquals(null, first.kvUsage);
  }

  /**
   * Triton's TensorRT-LLM backend (its README's scrape, PR-1): the engine's waiting requests are
   * the backend's request_type="waiting"; active stays running; scheduled, context and max stay
   * in extras.
   */
  @Test
  void tritonTrtllmBackendsWaitingRequestsAreWaiting() throws Exception {
    java.time.Instant at = java.time.Instant.parse("2025-07-01T00:00:00Z");
    Parse p = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), realSample("PR-1"), Parse.ctx(null, null, false, at));
    assertEquals(List.of(), p.sink.rejects);
    EngineStatsRecord r = p.full.stats.stream().filter(e -> "tensorrt_llm / v1".equals(e.instance)).findFirst().orElseThrow();
    assertEquals(1, r.waiting);
    assertEquals(0, r.running);
    assertEquals(1.0, r.extras.get("trt_llm_request_metrics{request_type=scheduled}"));
    assertEquals(1.0, r.extras.get("trt_llm_request_metrics{request_type=context}"));
    assertEquals(512.0, r.extras.get("trt_llm_request_metrics{request_type=max}"));
    assertNull(r.extras.get("trt_llm_request_metrics{request_type=waiting}"));

    // beside Triton's own pending count (0: the backend takes each request from Triton's queue at
    // once), the backend's count is the column, in either order of the lines; the pending count is kept
    String pending = "nv_inference_pending_request_count{model=\"tensorrt_llm\",version=\"1\"} 0\n";
    for (String text : List.of(pending + realSample("PR-1"), realSample("PR-1") + pending)) {
      Parse both = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), text, Parse.ctx(null, null, false, at));
      EngineStatsRecord b = both.full.stats.get(0);
      assertEquals(1, b.waiting);
      assertEquals(0.0, b.extras.get("inference_pending_request_count"));
    }
    // without the backend's count, Triton's pending count is the waiting requests
    Parse alone = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON),
        pending.replace("} 0", "} 4"), Parse.ctx(null, null, false, at));
    assertEquals(4, alone.full.stats.get(0).waiting);
    assertNull(alone.full.stats.get(0).extras.get("inference_pending_request_count"));
    // so it is with labels beyond the model's (a Kubernetes scrape's pod and namespace)
    Parse labelled = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON),
        "nv_inference_pending_request_count{model=\"llama\",version=\"1\",namespace=\"default\",pod=\"triton-0\"} 6\n",
        Parse.ctx(null, null, false, at));
    assertEquals(6, labelled.full.stats.get(0).waiting);
    assertEquals(java.util.Map.of(), labelled.full.stats.get(0).extras);
  }

  /**
   * A shell loop's {@code date -Is && curl …/metrics} (server#8463, PR-6): each printed time
   * dates the scrape after it, the prompt lines are other lines, and the second scrape's samples
   * are a second row rather than repeats.
   */
  @Test
  void datePrintedBeforeEachScrapeTimesIt() throws Exception {
    Parse real = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), realSample("PR-6"), Parse.ctx(null, null, false, null));
    assertEquals(List.of(), real.sink.rejects);
    assertEquals(1, real.full.stats.size());
    EngineStatsRecord first = real.full.stats.get(0);
    assertEquals("hbvllm / v1", first.instance);
    assertEquals(Parse.ns("2025-10-18T04:12:40Z"), first.tsNs);
    assertEquals(3075905.0, first.extras.get("inference_count"));
    assertEquals(858150828.0, first.extras.get("inference_request_duration_us"));

    Parse two = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), Files.readString(
        Path.of("src/test/resources/constructed/prometheus-date-lines/two-scrapes-with-date-lines.txt")),
        Parse.ctx(null, null, false, null));
    assertEquals(List.of(), two.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:40Z"), Parse.ns("2025-10-18T04:12:41Z")),
        two.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(3075910.0, two.full.stats.get(1).extras.get("inference_count"));
    assertEquals(858150999.0, two.full.stats.get(1).extras.get("inference_request_duration_us"));
    assertEquals(4, two.sink.records);

    // a series twice under one date line is still a repeat, a line cut before its value still a
    // reject, and a date line going back to an earlier scrape's time is refused
    Parse bad = Parse.text(new VllmPrometheusFormat(PromFamily.TRITON), "$ date -Is && curl -s localhost:8002/metrics\n"
        + "2025-10-18T04:12:40+00:00\n"
        + "nv_inference_count{model=\"hbvllm\",version=\"1\"} 3075905\n"
        + "nv_inference_count{model=\"hbvllm\",version=\"1\"} 3075910\n"
        + "nv_inference_request_duration_us{model=\"hbvllm\",version=\"1\"}\n"
        + "2025-10-18T04:12:41+00:00\n"
        + "nv_inference_count{model=\"hbvllm\",version=\"1\"} 3075910\n"
        + "2025-10-18T04:12:40+00:00\n", Parse.ctx(null, null, false, null));
    assertEquals(List.of(4L, 5L, 8L), bad.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertEquals(2, bad.full.stats.size());
    assertTrue(bad.sink.rejects.get(0).reason().contains("repeats after the date line of 2025-10-18T04:12:40Z"),
        bad.sink.rejects.get(0).reason());
    assertTrue(bad.sink.rejects.get(1).reason().contains("has no value"), bad.sink.rejects.get(1).reason());
    assertTrue(bad.sink.rejects.get(2).reason().contains("repeats the time of an earlier scrape"),
        bad.sink.rejects.get(2).reason());
  }

  /**
   * A loop that prints the time after each scrape ({@code curl …; date -u}): the file's first
   * scrape comes before any date line, so each date line times the scrape before it.
   */
  @Test
  void datePrintedAfterEachScrapeTimesTheScrapeBeforeIt() throws Exception {
    Parse p = Parse.text(PromFamiliesTest.VLLM, Files.readString(
        Path.of("src/test/resources/constructed/prometheus-date-lines/date-after-each-scrape.txt")),
        Parse.ctx(null, null, false, java.time.Instant.parse("2025-10-18T05:00:00Z")));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:40Z"), Parse.ns("2025-10-18T04:12:45Z"), Parse.ns("2025-10-18T04:12:50Z")),
        p.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(List.of(3, 5, 2), p.full.stats.stream().map(e -> e.running).toList());
    assertEquals(List.of(0, 1, 0), p.full.stats.stream().map(e -> e.waiting).toList());
    assertEquals(List.of(0.25, 0.4, 0.1), p.full.stats.stream().map(e -> e.kvUsage).toList());
    assertEquals(9, p.sink.records);

    // a scrape after the last date line: the file's end is that of date; curl after a one-off
    // scrape (stopped during its sleep), and so it is read: each date times the scrape after it,
    // the first scrape takes the file's time
    String text = Files.readString(Path.of("src/test/resources/constructed/prometheus-date-lines/date-after-each-scrape.txt"));
    String endsWithScrape = text + "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 7.0\n";
    String endsWithWholeScrape = endsWithScrape + "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 2.0\n"
        + "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} 0.3\n";
    Parse before = Parse.text(PromFamiliesTest.VLLM, endsWithWholeScrape, Parse.ctx(null, null, false, null));
    assertEquals(List.of(), before.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-12-31T00:00:00Z"), Parse.ns("2025-10-18T04:12:40Z"), Parse.ns("2025-10-18T04:12:45Z"),
        Parse.ns("2025-10-18T04:12:50Z")), before.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(List.of(3, 5, 2, 7), before.full.stats.stream().map(e -> e.running).toList());

    // read once (a stream that cannot be read again), the file's end is not known when its first
    // date line comes: its first scrape before any date says curl; date, and the last scrape,
    // with no date after it, is refused, saying which order the file was read in and what the
    // other order would mean
    Parse cut = Parse.once(PromFamiliesTest.VLLM, endsWithScrape, Parse.ctx(null, null, false, null));
    assertEquals(3, cut.full.stats.size());
    assertEquals(List.of(14L), cut.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(cut.sink.rejects.get(0).reason().contains("after the last date line: this file's date lines follow their"
        + " scrapes"), cut.sink.rejects.get(0).reason());

    // a last scrape missing series of the one before it is cut (curl; date stopped during its
    // curl), not a scrape after a date: read from a file too, the dates follow their scrapes
    Parse cutFile = Parse.text(PromFamiliesTest.VLLM, endsWithScrape, Parse.ctx(null, null, false, null));
    assertEquals(p.full.stats.stream().map(e -> e.tsNs).toList(), cutFile.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(List.of(14L), cutFile.sink.rejects.stream().map(r -> r.lineNo()).toList());

    // two scrapes before one date line: the earlier has none of its own and is refused whole
    Parse twice = Parse.text(PromFamiliesTest.VLLM, "vllm:num_requests_running{model_name=\"m\"} 1\n"
        + "vllm:num_requests_waiting{model_name=\"m\"} 4\n"
        + "1760760760\n"
        + "vllm:num_requests_running{model_name=\"m\"} 2\n"
        + "vllm:num_requests_running{model_name=\"m\"} 3\n"
        + "1760760765\n", Parse.ctx(null, null, false, null));
    assertEquals(List.of(4L), twice.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(twice.sink.rejects.get(0).reason().contains("has no date line after it"), twice.sink.rejects.get(0).reason());
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:40Z"), Parse.ns("2025-10-18T04:12:45Z")),
        twice.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(List.of(1, 3), twice.full.stats.stream().map(e -> e.running).toList());
    assertEquals(4, twice.full.stats.get(0).waiting);
  }

  /**
   * One scrape by hand, then a loop printing the time before each scrape: the command between
   * the first scrape and the first date line says the dates belong to the loop's scrapes after
   * them; the one-off scrape takes the time of --at.
   */
  @Test
  void oneOffScrapeBeforeADateBeforeLoopTakesTheFileTime() throws Exception {
    Parse p = Parse.text(PromFamiliesTest.VLLM, Files.readString(
        Path.of("src/test/resources/constructed/prometheus-date-lines/oneoff-scrape-then-date-before-loop.txt")),
        Parse.ctx(null, null, false, java.time.Instant.parse("2025-10-18T04:12:30Z")));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:30Z"), Parse.ns("2025-10-18T04:12:40Z"),
        Parse.ns("2025-10-18T04:12:45Z"), Parse.ns("2025-10-18T04:12:50Z")),
        p.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(List.of(1, 3, 5, 2), p.full.stats.stream().map(e -> e.running).toList());
    assertEquals(List.of(0, 0, 1, 0), p.full.stats.stream().map(e -> e.waiting).toList());
    assertEquals(8, p.sink.records);

    // a command between that only prints the time scrapes nothing: that date follows its scrape
    Parse after = Parse.text(PromFamiliesTest.VLLM, "$ curl -s localhost:8000/metrics\n"
        + "vllm:num_requests_running{model_name=\"m\"} 1\n"
        + "$ date -u\n"
        + "Sat Oct 18 04:12:40 UTC 2025\n", Parse.ctx(null, null, false, java.time.Instant.parse("2025-10-18T04:12:30Z")));
    assertEquals(List.of(), after.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:40Z")), after.full.stats.stream().map(e -> e.tsNs).toList());
  }

  /**
   * One scrape alone, then a loop printing the time before each scrape, with no prompt lines (a
   * script's output redirected to a file): only the file's end tells it from a loop printing the
   * time after each scrape. It ends with a scrape after its last date line, so each date times
   * the scrape after it (not the one before: every scrape an interval late) and the first scrape
   * takes the time of --at; the same scrapes ending with a date line are read the other way.
   */
  @Test
  void oneOffScrapeWithoutPromptsIsToldByTheFilesEnd() throws Exception {
    String text = Files.readString(
        Path.of("src/test/resources/constructed/prometheus-date-lines/oneoff-scrape-then-date-before-loop-no-prompts.txt"));
    java.time.Instant at = java.time.Instant.parse("2025-10-18T04:12:30Z");
    Parse p = Parse.text(PromFamiliesTest.VLLM, text, Parse.ctx(null, null, false, at));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:30Z"), Parse.ns("2025-10-18T04:12:40Z"),
        Parse.ns("2025-10-18T04:12:45Z"), Parse.ns("2025-10-18T04:12:50Z")),
        p.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(List.of(1, 3, 5, 2), p.full.stats.stream().map(e -> e.running).toList());
    assertEquals(List.of(0, 0, 1, 0), p.full.stats.stream().map(e -> e.waiting).toList());
    assertEquals(8, p.sink.records);
    assertEquals(11, p.lines);

    // the same lines ending with a date line (curl; date, stopped during its sleep): each date
    // times the scrape before it
    Parse after = Parse.text(PromFamiliesTest.VLLM, text + "Sat Oct 18 04:12:55 UTC 2025\n", Parse.ctx(null, null, false, at));
    assertEquals(List.of(), after.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:40Z"), Parse.ns("2025-10-18T04:12:45Z"),
        Parse.ns("2025-10-18T04:12:50Z"), Parse.ns("2025-10-18T04:12:55Z")),
        after.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(List.of(1, 3, 5, 2), after.full.stats.stream().map(e -> e.running).toList());

    // an OpenMetrics scrape (# EOF after each) and a trailing blank, prompt or comment line do not
    // change what the end is
    Parse eof = Parse.text(PromFamiliesTest.VLLM, text.replace("0.0\nSat", "0.0\n# EOF\nSat") + "# EOF\n\n$ \n",
        Parse.ctx(null, null, false, at));
    assertEquals(List.of(), eof.sink.rejects);
    assertEquals(p.full.stats.stream().map(e -> e.tsNs).toList(), eof.full.stats.stream().map(e -> e.tsNs).toList());
  }

  /**
   * A loop printing the time after each scrape ({@code curl; date}) stopped during its next
   * scrape: the file ends with a scrape after its last date line, but a cut one (a series of the
   * scrape before it missing), so it is not a one-off scrape before a {@code date; curl} loop:
   * each date times the scrape before it and the cut scrape, with no date line after it, is
   * refused (not placed a date early, nor the first scrape at the time of --at).
   */
  @Test
  void curlDateCutDuringAScrapeKeepsDatesAfterTheirScrapes() throws Exception {
    Parse p = Parse.text(PromFamiliesTest.VLLM, Files.readString(
        Path.of("src/test/resources/constructed/prometheus-date-lines/curl-date-cut-during-scrape.txt")),
        Parse.ctx(null, null, false, java.time.Instant.parse("2025-10-18T04:12:30Z")));
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:40Z"), Parse.ns("2025-10-18T04:12:45Z")),
        p.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(List.of(1, 3), p.full.stats.stream().map(e -> e.running).toList());
    assertEquals(List.of(0, 0), p.full.stats.stream().map(e -> e.waiting).toList());
    assertEquals(List.of(7L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(p.sink.rejects.get(0).reason().contains("a scrape after the last date line"),
        p.sink.rejects.get(0).reason());
    assertEquals(4, p.sink.records);
    assertEquals(7, p.lines);
  }

  /**
   * OpenMetrics' {@code # EOF} ends a scrape: two expositions each followed by {@code date +%s}
   * are two rows; without date lines or timestamps the second cannot be placed and is refused
   * whole (not merged into the first); with date lines before their scrapes, a scrape after
   * {@code # EOF} without a date line of its own is refused.
   */
  @Test
  void openMetricsEofEndsAScrape() throws Exception {
    Parse p = Parse.text(PromFamiliesTest.VLLM, Files.readString(
        Path.of("src/test/resources/constructed/prometheus-date-lines/openmetrics-eof-date-after.txt")),
        Parse.ctx(null, null, false, null));
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:40Z"), Parse.ns("2025-10-18T04:12:45Z")),
        p.full.stats.stream().map(e -> e.tsNs).toList());
    assertEquals(List.of(4, 6), p.full.stats.stream().map(e -> e.running).toList());
    assertEquals(List.of(0L, 2L), p.full.stats.stream().map(e -> e.preemptions).toList());

    // OpenMetrics' timestamps are seconds (with a fraction or without), the text format's ms
    Parse timed = Parse.text(PromFamiliesTest.VLLM, "vllm:num_requests_running{model_name=\"m\"} 4.0 1760760760\n"
        + "# EOF\n"
        + "vllm:num_requests_running{model_name=\"m\"} 6.0 1760760765.25\n"
        + "# EOF\n"
        + "vllm:num_requests_running{model_name=\"m\"} 7.0 1760760770000\n", Parse.ctx(null, null, false, null));
    assertEquals(List.of(), timed.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:40Z"), Parse.ns("2025-10-18T04:12:45.250Z"),
        Parse.ns("2025-10-18T04:12:50Z")), timed.full.stats.stream().map(e -> e.tsNs).toList());

    java.time.Instant at = java.time.Instant.parse("2025-10-18T05:00:00Z");
    Parse undated = Parse.text(PromFamiliesTest.VLLM, "vllm:num_requests_running{model_name=\"m\"} 4.0\n"
        + "# EOF\n"
        + "vllm:kv_cache_usage_perc{model_name=\"m\"} 0.5\n"
        + "vllm:num_requests_running{model_name=\"m\"} 6.0\n"
        + "# EOF\n", Parse.ctx(null, null, false, at));
    assertEquals(1, undated.full.stats.size());
    assertEquals(Parse.ns("2025-10-18T05:00:00Z"), undated.full.stats.get(0).tsNs);
    assertEquals(4, undated.full.stats.get(0).running);
    assertNull(undated.full.stats.get(0).kvUsage);
    assertEquals(List.of(3L, 4L), undated.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(undated.sink.rejects.get(0).reason().contains("a scrape after the # EOF of line 2 in a file without sample"
        + " timestamps or date lines"), undated.sink.rejects.get(0).reason());

    Parse before = Parse.text(PromFamiliesTest.VLLM, "1760760760\n"
        + "vllm:num_requests_running{model_name=\"m\"} 4.0\n"
        + "# EOF\n"
        + "vllm:kv_cache_usage_perc{model_name=\"m\"} 0.5\n"
        + "1760760765\n"
        + "vllm:num_requests_running{model_name=\"m\"} 6.0\n"
        + "# EOF\n", Parse.ctx(null, null, false, null));
    assertEquals(List.of(4L), before.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(before.sink.rejects.get(0).reason().contains("without a date line of its own"),
        before.sink.rejects.get(0).reason());
    assertEquals(List.of(4, 6), before.full.stats.stream().map(e -> e.running).toList());
    assertNull(before.full.stats.get(0).kvUsage);

    // date +%s%3N before each scrape: epoch milliseconds (the line was rejected as no sample)
    Parse millis = Parse.text(PromFamiliesTest.VLLM, "1760760760123\n"
        + "vllm:num_requests_running{model_name=\"m\"} 4.0\n"
        + "1760760765456\n"
        + "vllm:num_requests_running{model_name=\"m\"} 6.0\n", Parse.ctx(null, null, false, null));
    assertEquals(List.of(), millis.sink.rejects);
    assertEquals(List.of(Parse.ns("2025-10-18T04:12:40.123Z"), Parse.ns("2025-10-18T04:12:45.456Z")),
        millis.full.stats.stream().map(e -> e.tsNs).toList());
  }

  /** The shapes of a printed time: date -Is / -Ins / --rfc-3339 / -R, and date's default in UTC. */
  @Test
  void dateLinesOfEachShape() {
    long want = Parse.ns("2025-10-18T04:12:40Z");
    for (String line : List.of("2025-10-18T04:12:40+00:00", "2025-10-18T06:12:40+02:00", "2025-10-18T04:12:40Z",
        "2025-10-18 04:12:40+00:00", "Sat, 18 Oct 2025 04:12:40 +0000", "Sat Oct 18 04:12:40 UTC 2025",
        "Sat Oct 18 04:12:40 AM UTC 2025", "Sat Oct 18 04:12:40 GMT 2025", "1760760760")) {
      long[] t = ScrapeTime.parse(line);
      assertEquals(want, t[0] * 1_000_000_000L + t[1], line);
      assertEquals(1_000_000_000L, t[2], line);
    }
    long[] ns = ScrapeTime.parse("2025-10-18T04:12:40,123456789+00:00");
    assertEquals(want + 123456789, ns[0] * 1_000_000_000L + ns[1]);
    assertEquals(1, ns[2]);
    long[] epoch = ScrapeTime.parse("1760760760.123");
    assertEquals(want + 123_000_000, epoch[0] * 1_000_000_000L + epoch[1]);
    assertEquals(1_000_000, epoch[2]);
    assertNull(ScrapeTime.parse("17607607601")); // no time of date +%s
    long[] ms = ScrapeTime.parse("1760760760123"); // date +%s%3N
    assertEquals(want + 123_000_000, ms[0] * 1_000_000_000L + ms[1]);
    assertEquals(1_000_000, ms[2]);
    assertNull(ScrapeTime.parse("17607607601234"));
    // no offset, or a zone abbreviation that names none: not read in a guessed zone
    assertNull(ScrapeTime.parse("2025-10-18T04:12:40"));
    NumberFormatException e = org.junit.jupiter.api.Assertions.assertThrows(NumberFormatException.class,
        () -> ScrapeTime.parse("Sat Oct 18 04:12:40 CST 2025"));
    assertTrue(e.getMessage().contains("CST names no offset"), e.getMessage());
    assertNull(ScrapeTime.parse("nv_inference_count{model=\"m\",version=\"1\"} 3"));
    assertTrue(ScrapeTime.isShellPrompt("$ date -Is && curl http://localhost:7101/metrics"));
    assertTrue(ScrapeTime.isShellPrompt("root@triton-0:/opt/tritonserver# curl localhost:8002/metrics"));
    assertTrue(ScrapeTime.isShellPrompt("$"));
    assertTrue(ScrapeTime.isShellPrompt("[root@t313lp68 operator-examples]# curl localhost:8002/metrics"));
    assertTrue(!ScrapeTime.isShellPrompt("nv_inference_count{model=\"m\",version=\"1\"} 3"));
  }

  @Test
  void badValuesAreRejected() throws Exception {
    Parse p = Parse.text(new VllmPrometheusFormat(PromFamily.TRTLLM),
        "e2e_request_latency_seconds_bucket{engine_type=\"undefined\",le=\"0.3\",model_name=\"undefined\"} 0.0 1767225610000\n"
        + "e2e_request_latency_seconds_bucket{engine_type=\"undefined\",le=\"0.5\",model_name=\"undefined\"} lots 1767225610000\n"
        + "e2e_request_latency_seconds_bucket{engine_type=\"undefined\",le=\"0.8\",model_na",
        Parse.ctx(null, null, false, null));
    assertEquals(2, p.sink.rejects.size());
    assertTrue(p.sink.rejects.get(0).reason().contains("not a number"), p.sink.rejects.get(0).reason());
    assertTrue(p.sink.rejects.get(1).reason().contains("truncated"), p.sink.rejects.get(1).reason());
  }

  private static List<Double> cumulative(JsonNode perBucket) {
    List<Double> out = new ArrayList<>();
    double c = 0;
    for (JsonNode n : perBucket) {
      c += n.asDouble();
      out.add(c);
    }
    return out;
  }

  private static List<Double> counts(TestDb t, String metric) throws Exception {
    return t.rows("SELECT count FROM metric_histograms WHERE metric = '" + metric + "' ORDER BY le").stream()
        .map(x -> ((Number) x.get(0)).doubleValue()).toList();
  }
}
