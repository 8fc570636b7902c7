package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The peers' own test cases (src/test/resources/real-logs/peers, copied from shared/real-logs
 * with their provenance), reproduced by tokentime: each case's input is ingested (or, where the
 * peer's test builds records in code, written as canonical rows and ingested), and the values the
 * peer's test asserts are read back from tokentime's views of that peer's definitions
 * (genai_perf_metrics, aiperf_metrics, vllm_bench_metrics, llmperf_metrics).
 */
class PeerCasesTest {
  static final Path ROOT = Path.of("src/test/resources/real-logs/peers");
  static final ObjectMapper JSON = new ObjectMapper();

  /** Cases reproduced here, and the ones reproduced elsewhere or not at all (with the reason). */
  static final Set<String> HERE = Set.of("genai-perf/llm-parser-openai-chat",
      "genai-perf/llm-parser-hf-generate-head", "genai-perf/session-metrics-head",
      "aiperf/ttft", "aiperf/ttft-head", "aiperf/ttst", "aiperf/request-latency",
      "aiperf/benchmark-duration", "aiperf/inter-token-latency", "aiperf/inter-chunk-latency-list-head",
      "aiperf/derived-throughputs", "aiperf/derived-metrics-head", "aiperf/good-request-count",
      "genai-perf/goodput-calculator",
      "vllm/failed-request-accounting", "vllm/peak-concurrency-half-open", "llmperf/leaderboard-groq-70b");
  static final Map<String, String> ELSEWHERE = Map.of(
      "genai-perf/sse-preprocessing-head", "GenaiPerfExportFormatTest (parser-level: chunk kinds per response)",
      "genai-perf/real-console-goodput-doc-head", "not reproducible: a console table from genai-perf's"
          + " docs, with no input file behind it (its checks are consistency checks of the table)");

  @TempDir
  Path tmp;

  @Test
  void everyCaseFolderIsReproducedOrExplained() throws IOException {
    Set<String> found = new TreeSet<>();
    try (Stream<Path> tools = Files.list(ROOT)) {
      for (Path tool : tools.filter(Files::isDirectory).toList()) {
        try (Stream<Path> cases = Files.list(tool)) {
          cases.filter(Files::isDirectory).forEach(c -> found.add(tool.getFileName() + "/" + c.getFileName()));
        }
      }
    }
    Set<String> known = new TreeSet<>(HERE);
    known.addAll(ELSEWHERE.keySet());
    assertEquals(known, found, "a peer case folder without a reproduction (or a stale entry)");
  }

  // ---------------------------------------------------------------- genai-perf

  @ParameterizedTest
  @ValueSource(strings = {"llm-parser-openai-chat", "llm-parser-hf-generate-head"})
  void genaiPerfParserCasesReproduceEveryStatistic(String name) throws Exception {
    Path dir = ROOT.resolve("genai-perf").resolve(name);
    JsonNode expected = JSON.readTree(dir.resolve(Files.exists(dir.resolve("expected.json"))
        ? "expected.json" : "expected_head.json").toFile());
    try (TestDb t = new TestDb(tmp)) {
      Path f = copy(dir.resolve("profile_export.json"), name + "/profile_export.json");
      t.ingest(f);
      JsonNode exp = expected.get("experiments").get(0);
      JsonNode lists = exp.get("asserted_per_request_and_system");
      // genai-perf counts lengths with its tokenizer; without it, the asserted counts are set
      setLengths(t, name, lists.get("output_sequence_lengths"), lists.get("input_sequence_lengths"));
      assertEquals(exp.get("mode").asText(), t.value("SELECT level_kind FROM runs WHERE run = '" + name + "'"));
      assertEquals(Double.parseDouble(exp.get("value").asText()),
          ((Number) t.value("SELECT level FROM runs WHERE run = '" + name + "'")).doubleValue());
      Map<String, Map<String, Double>> got = metrics(t, "genai_perf_metrics", name);
      int checked = 0;
      Iterator<Map.Entry<String, JsonNode>> it = exp.get("implied_statistics_raw_units").fields();
      while (it.hasNext()) {
        var m = it.next();
        double scale = isTime(m.getKey()) ? 1e6 : 1; // genai-perf exports ms; the test asserts ns
        Iterator<Map.Entry<String, JsonNode>> stats = m.getValue().fields();
        while (stats.hasNext()) {
          var s = stats.next();
          Double v = got.getOrDefault(m.getKey(), Map.of()).get(s.getKey());
          assertNotNull(v, name + ": " + m.getKey() + " " + s.getKey() + " missing; got " + got.get(m.getKey()));
          assertClose(s.getValue().asDouble(), v * scale, name + ": " + m.getKey() + " " + s.getKey());
          checked++;
        }
      }
      assertTrue(checked > 80, "checked " + checked);
    }
  }

  @Test
  void genaiPerfSessionMetrics() throws Exception {
    Path dir = ROOT.resolve("genai-perf/session-metrics-head");
    JsonNode s = JSON.readTree(dir.resolve("expected_head.json").toFile())
        .get("asserted_session_metrics").get("session-id-123");
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(copy(dir.resolve("profile_export.json"), "sessions/profile_export.json"));
      setLengths(t, "sessions", s.get("output_sequence_lengths"), s.get("input_sequence_lengths"));
      Map<String, Map<String, Double>> got = new LinkedHashMap<>();
      for (List<Object> r : t.rows("SELECT metric, stat, value FROM genai_perf_session_metrics"
          + " WHERE session_id = 'session-id-123'")) {
        got.computeIfAbsent((String) r.get(0), k -> new LinkedHashMap<>()).put((String) r.get(1),
            ((Number) r.get(2)).doubleValue());
      }
      checkList(got, "request_latency", s.get("request_latencies"), 1e6);
      checkList(got, "time_to_first_token", s.get("time_to_first_tokens"), 1e6);
      checkList(got, "output_sequence_length", s.get("output_sequence_lengths"), 1);
      checkList(got, "input_sequence_length", s.get("input_sequence_lengths"), 1);
      assertNull(got.get("time_to_second_token"), "non-streaming: no TTST");
      assertNull(got.get("inter_token_latency"), "non-streaming: no ITL");
      assertClose(s.get("request_throughputs").get(0).asDouble(), got.get("request_throughput").get("avg"), "session rps");
      assertClose(s.get("output_token_throughputs").get(0).asDouble(), got.get("output_token_throughput").get("avg"), "session tps");
    }
  }

  @Test
  void genaiPerfGoodputCalculator() throws Exception {
    // genai-perf's test feeds per-request metric lists straight to the goodput calculator: the
    // same lists, as canonical rows, through tokentime's genai_perf_goodput macro. The test's
    // throughput SLO (per-request output throughput >= 5e8) decides no request here (every
    // request it would fail already fails the ITL SLO) and is left out; the asserted goodput
    // divides by a 10 s duration the test gives, so the count is what carries over.
    JsonNode in = JSON.readTree(ROOT.resolve("genai-perf/goodput-calculator/metrics_and_constraints.json").toFile());
    JsonNode exp = JSON.readTree(ROOT.resolve("genai-perf/goodput-calculator/expected.json").toFile()).get("asserted");
    JsonNode c = in.get("test_compute").get("constraints");
    try (TestDb t = new TestDb(tmp)) {
      StringBuilder jsonl = new StringBuilder();
      for (String e : List.of("experiment_1", "experiment_2")) {
        JsonNode x = in.get("test_compute").get(e);
        for (int i = 0; i < 2; i++) {
          // TTFT and ITL in ns as listed; OSL 2, so ITL = last - first token
          long ttft = x.get("time_to_first_tokens_ns").get(i).asLong();
          long itl = x.get("inter_token_latencies_ns").get(i).asLong();
          jsonl.append(String.format("{\"request_id\":\"%d\",\"run\":\"%s\",\"arrival_ns\":0,\"tokens_ns\":[%d,%d],"
              + "\"output_tokens\":2}%n", i, e, ttft, ttft + itl));
        }
      }
      t.ingest(t.write("in/goodput/runs.jsonl", jsonl.toString()));
      for (String e : List.of("experiment_1", "experiment_2")) {
        Object good = t.value("SELECT good_requests FROM genai_perf_goodput(" + c.get("time_to_first_token_ms").asDouble()
            + ", " + c.get("inter_token_latency_ms").asDouble() + ", NULL) WHERE run = '" + e + "'");
        assertEquals(exp.get("test_compute").get(e).get("good_requests").asLong(), ((Number) good).longValue(), e);
      }
    }
  }

  // ---------------------------------------------------------------- AIPerf

  @ParameterizedTest
  @ValueSource(strings = {"ttft", "ttft-head", "ttst", "request-latency", "benchmark-duration",
      "inter-token-latency", "inter-chunk-latency-list-head"})
  void aiperfMetricCasesReproduce(String name) throws Exception {
    Path dir = ROOT.resolve("aiperf").resolve(name);
    JsonNode records = JSON.readTree(dir.resolve("records.json").toFile()).get("cases");
    JsonNode expected = JSON.readTree(dir.resolve("expected.json").toFile()).get("expected");
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("in/" + name + "/records.jsonl", canonicalRecords(records)));
      Map<String, Map<String, Map<String, Double>>> byRun = new LinkedHashMap<>();
      for (List<Object> r : t.rows("SELECT run, metric, stat, value FROM aiperf_metrics")) {
        byRun.computeIfAbsent((String) r.get(0), k -> new LinkedHashMap<>())
            .computeIfAbsent((String) r.get(1), k -> new LinkedHashMap<>())
            .put((String) r.get(2), ((Number) r.get(3)).doubleValue());
      }
      int checked = 0;
      Iterator<Map.Entry<String, JsonNode>> it = expected.fields();
      while (it.hasNext()) {
        var e = it.next();
        if (!e.getValue().isObject()) {
          continue; // prose
        }
        Map<String, Map<String, Double>> got = byRun.getOrDefault(e.getKey(), Map.of());
        Iterator<Map.Entry<String, JsonNode>> fields = e.getValue().fields();
        while (fields.hasNext()) {
          var f = fields.next();
          String metric = f.getKey();
          if (metric.startsWith("error")) {
            // AIPerf refuses the record or has no value: tokentime has no value either (the record
            // was rejected at ingest, or the metric does not apply)
            String m = aiperfMetricOf(name);
            assertNull(got.get(m), name + "/" + e.getKey() + ": expected no " + m + " (" + f.getValue().asText()
                + "), got " + got.get(m));
            checked++;
          } else if (metric.equals("benchmark_duration")) {
            assertClose(f.getValue().asDouble(), got.get(metric).get("avg") * 1e9, name + "/" + e.getKey());
            checked++;
          } else if (!metric.equals("derivation")) {
            List<Double> values = new ArrayList<>();
            for (JsonNode v : f.getValue()) {
              if (v.isArray()) {
                v.forEach(x -> values.add(x.asDouble())); // ICL lists are flattened for statistics
              } else {
                values.add(v.asDouble());
              }
            }
            checkStats(got.get(metric), Numpy.stats(values), 1e6, name + "/" + e.getKey() + " " + metric);
            checked++;
          }
        }
      }
      assertTrue(checked >= 2, "checked " + checked);
    }
  }

  @Test
  void aiperfRejectsWhatAiperfRefuses() throws Exception {
    // AIPerf refuses a response before the request started; tokentime rejects the line with its reason
    JsonNode records = JSON.readTree(ROOT.resolve("aiperf/request-latency/records.json").toFile()).get("cases");
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("in/rl/records.jsonl", canonicalRecords(records)));
      String reason = (String) t.value("SELECT string_agg(reason, ';') FROM rejects");
      assertTrue(reason.contains("timestamps decrease"), reason);
    }
  }

  @Test
  void aiperfDerivedThroughputs() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      StringBuilder s = new StringBuilder();
      // 100 requests whose starts and ends span 5 s: request throughput 100 / 5 = 20
      for (int i = 0; i < 100; i++) {
        long start = i * 1_000_000L;
        long end = i == 99 ? 5_000_000_000L : start + 1000;
        s.append(record("rt", "r" + i, start, List.of(end), 1));
      }
      // a duration of zero: no value (AIPerf: "Benchmark duration is required and must be greater than 0")
      s.append(record("rt-zero", "z", 0, List.of(0L), 1));
      // OSL 10, 20, 30 over 5 s: 12 tokens/s
      s.append(record("ot", "a", 0, List.of(1_000_000_000L), 10));
      s.append(record("ot", "b", 0, List.of(2_000_000_000L), 20));
      s.append(record("ot", "c", 0, List.of(5_000_000_000L), 30));
      // the fetched (Oct 2025) cases: 1000 tokens over 2 s and 750 over 1.5 s are 500 tokens/s
      s.append(record("ot2", "a", 0, List.of(2_000_000_000L), 1000));
      s.append(record("ot3", "a", 0, List.of(1_500_000_000L), 750));
      // output token throughput per user = 1 / ITL: ITL 100 ms gives 10; ITL 0 and none give no value
      s.append(record("tpu", "a", 0, List.of(100_000_000L, 200_000_000L), 2));
      s.append(record("tpu-zero", "a", 0, List.of(100_000_000L, 100_000_000L), 2));
      s.append(record("tpu-none", "a", 0, List.of(100_000_000L), 1));
      t.ingest(t.write("in/derived/records.jsonl", s.toString()));
      Map<String, Map<String, Map<String, Double>>> got = new LinkedHashMap<>();
      for (List<Object> r : t.rows("SELECT run, metric, stat, value FROM aiperf_metrics")) {
        got.computeIfAbsent((String) r.get(0), k -> new LinkedHashMap<>())
            .computeIfAbsent((String) r.get(1), k -> new LinkedHashMap<>())
            .put((String) r.get(2), ((Number) r.get(3)).doubleValue());
      }
      JsonNode a = JSON.readTree(ROOT.resolve("aiperf/derived-throughputs/expected.json").toFile()).get("expected");
      JsonNode b = JSON.readTree(ROOT.resolve("aiperf/derived-metrics-head/expected.json").toFile()).get("expected");
      assertClose(a.get("request_throughput").get(0).asDouble(), got.get("rt").get("request_throughput").get("avg"), "rt");
      assertNull(got.get("rt-zero").get("request_throughput"), "zero duration: no value");
      assertClose(a.get("output_token_throughput").get(0).asDouble(), got.get("ot").get("output_token_throughput").get("avg"), "ot");
      assertClose(b.get("output_token_throughput").get(0).asDouble(), got.get("ot2").get("output_token_throughput").get("avg"), "ot2");
      assertClose(b.get("output_token_throughput").get(1).asDouble(), got.get("ot3").get("output_token_throughput").get("avg"), "ot3");
      assertClose(b.get("output_token_throughput_per_user").get(0).asDouble(),
          got.get("tpu").get("output_token_throughput_per_user").get("avg"), "tpu");
      assertNull(got.get("tpu-zero").get("output_token_throughput_per_user"), "ITL 0: no value");
      assertNull(got.get("tpu-none").get("output_token_throughput_per_user"), "no ITL: no value");
    }
  }

  @Test
  void aiperfGoodRequestCount() throws Exception {
    JsonNode records = JSON.readTree(ROOT.resolve("aiperf/good-request-count/records.json").toFile()).get("cases");
    JsonNode exp = JSON.readTree(ROOT.resolve("aiperf/good-request-count/expected.json").toFile()).get("expected");
    JsonNode head = JSON.readTree(ROOT.resolve("aiperf/derived-metrics-head/expected.json").toFile()).get("expected");
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("in/good/records.jsonl", canonicalRecords(records)));
      double slo = exp.get("slo_request_latency_250ms").get("slos_ms").get("request_latency").asDouble();
      assertEquals(exp.get("slo_request_latency_250ms").get("good_request_count").asLong(),
          ((Number) t.value("SELECT good_request_count FROM aiperf_goodput(NULL, NULL, " + slo
              + ") WHERE run = 'slo_request_latency_250ms'")).longValue());
      assertEquals(exp.get("no_slo").get("good_request_count").asLong(),
          ((Number) t.value("SELECT good_request_count FROM aiperf_goodput(NULL, NULL, NULL) WHERE run = 'no_slo'")).longValue());
      // goodput = good / benchmark duration: the three records span 0 .. 0.45 s
      double goodput = ((Number) t.value("SELECT goodput FROM aiperf_goodput(NULL, NULL, " + slo
          + ") WHERE run = 'slo_request_latency_250ms'")).doubleValue();
      assertClose(2 / 0.45, goodput, "goodput");
      assertTrue(head.get("goodput").get(0).asDouble() == 15.0, "the fetched case: 15 good in 1 s");
    }
  }

  // ---------------------------------------------------------------- vLLM

  @Test
  void vllmFailedRequestAccounting() throws Exception {
    JsonNode in = JSON.readTree(ROOT.resolve("vllm/failed-request-accounting/input.json").toFile());
    JsonNode exp = JSON.readTree(ROOT.resolve("vllm/failed-request-accounting/expected.json").toFile());
    try (TestDb t = new TestDb(tmp)) {
      for (String variant : List.of("outputs_timeout", "outputs_server_error")) {
        t.ingest(t.write("in/" + variant + "/result.json", vllmResult(in.get(variant), in.get("dur_s").asDouble())));
        Map<String, Map<String, Double>> got = metrics(t, "vllm_bench_metrics", variant);
        JsonNode a = exp.get("asserted").get(variant);
        assertEquals(a.get("completed").asDouble(), got.get("completed").get("value"), variant);
        assertEquals(a.get("failed").asDouble(), got.get("failed").get("value"), variant);
        JsonNode implied = exp.get("implied_not_asserted");
        assertClose(implied.get("request_throughput").asDouble(), got.get("request_throughput").get("value"), variant);
        assertClose(implied.get("output_throughput").asDouble(), got.get("output_throughput").get("value"), variant);
        assertClose(implied.get("total_token_throughput").asDouble(), got.get("total_token_throughput").get("value"), variant);
        assertClose(implied.get("mean_ttft_ms").asDouble(), got.get("ttft").get("mean"), variant);
        assertClose(implied.get("mean_tpot_ms").asDouble(), got.get("tpot").get("mean"), variant);
        assertClose(implied.get("mean_itl_ms").asDouble(), got.get("itl").get("mean"), variant);
        assertClose(implied.get("p99_itl_ms").asDouble(), got.get("itl").get("p99"), variant);
        assertClose(implied.get("mean_e2el_ms").asDouble(), got.get("e2el").get("mean"), variant);
        assertClose(implied.get("total_input_tokens").asDouble(), got.get("total_input_tokens").get("value"), variant);
        assertClose(implied.get("total_output_tokens").asDouble(), got.get("total_output_tokens").get("value"), variant);
      }
      String err = (String) t.value("SELECT error FROM requests WHERE run = 'outputs_timeout' AND status = 'error'");
      assertTrue(err.contains("ServerTimeoutError"), err);
    }
  }

  @Test
  void vllmPeakConcurrencyIsAHalfOpenSweep() throws Exception {
    JsonNode cases = JSON.readTree(ROOT.resolve("vllm/peak-concurrency-half-open/input.json").toFile()).get("cases");
    JsonNode exp = JSON.readTree(ROOT.resolve("vllm/peak-concurrency-half-open/expected.json").toFile()).get("asserted");
    try (TestDb t = new TestDb(tmp)) {
      Iterator<Map.Entry<String, JsonNode>> it = cases.fields();
      List<Path> files = new ArrayList<>();
      while (it.hasNext()) {
        var c = it.next();
        ObjectNode r = JSON.createObjectNode();
        r.put("backend", "vllm");
        r.put("duration", 2.0);
        ArrayNode starts = r.putArray("start_times");
        ArrayNode lat = r.putArray("latencies");
        ArrayNode ttfts = r.putArray("ttfts");
        ArrayNode itls = r.putArray("itls");
        ArrayNode out = r.putArray("output_lens");
        ArrayNode errors = r.putArray("errors");
        for (JsonNode iv : c.getValue()) {
          double start = iv.get(0).asDouble();
          double end = iv.get(1).asDouble();
          starts.add(start);
          lat.add(end - start);
          ttfts.add(end - start);
          itls.addArray();
          out.add(1);
          errors.add("");
        }
        r.put("request_throughput", 1.0);
        r.put("mean_e2el_ms", 1.0);
        files.add(t.write("in/" + c.getKey() + "/result.json", JSON.writeValueAsString(r)));
      }
      t.ingest(files.toArray(new Path[0]));
      Iterator<Map.Entry<String, JsonNode>> e = exp.fields();
      while (e.hasNext()) {
        var c = e.next();
        Object peak = t.value("SELECT coalesce(max(value), 0) FROM vllm_bench_metrics WHERE run = '" + c.getKey()
            + "' AND metric = 'max_concurrent_requests'");
        assertEquals(c.getValue().get("peak").asDouble(), ((Number) peak).doubleValue(), c.getKey());
      }
    }
  }

  // ---------------------------------------------------------------- LLMPerf

  @Test
  void llmperfLeaderboardRunMatchesItsOwnSummary() throws Exception {
    Path dir = ROOT.resolve("llmperf/leaderboard-groq-70b");
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(copy(dir.resolve("individual_responses.json"), "groq/groq_70b_individual_responses.json"),
          copy(dir.resolve("summary.json"), "groq/groq_70b_summary.json"));
      assertEquals(150L, t.count("SELECT count(*) FROM requests WHERE run = 'groq'"));
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"));
      // every statistic of a per-request metric in LLMPerf's own summary.json, recomputed
      List<List<Object>> rows = t.rows("SELECT m.metric, m.stat, m.value AS reported, c.value AS computed"
          + " FROM reported_metrics AS m LEFT JOIN llmperf_metrics AS c USING (run, metric, stat)"
          + " WHERE m.run = 'groq' AND m.stat <> 'value'");
      assertEquals(60, rows.size(), "6 metrics x (6 quantiles + mean, min, max, stddev)");
      for (List<Object> r : rows) {
        assertNotNull(r.get(3), r.get(0) + " " + r.get(1) + " not computed");
        assertClose(((Number) r.get(2)).doubleValue(), ((Number) r.get(3)).doubleValue(), r.get(0) + " " + r.get(1));
      }
      for (String m : List.of("num_completed_requests", "num_requests_started", "number_errors", "error_rate")) {
        Object reported = t.value("SELECT value FROM reported_metrics WHERE run = 'groq' AND metric = '" + m + "'");
        Object computed = t.value("SELECT value FROM llmperf_metrics WHERE run = 'groq' AND metric = '" + m + "'");
        assertClose(((Number) reported).doubleValue(), ((Number) computed).doubleValue(), m);
      }
      // the sample std: the population std would differ in the 3rd significant digit
      double std = ((Number) t.value("SELECT value FROM llmperf_metrics WHERE run = 'groq' AND metric = 'ttft_s'"
          + " AND stat = 'stddev'")).doubleValue();
      assertClose(0.04545771907205833, std, "ttft stddev (ddof 1)");
      // peer_comparison puts the reported and the recomputed figures side by side
      double diff = ((Number) t.value("SELECT max(abs(reported_minus_convention)) FROM peer_comparison"
          + " WHERE run = 'groq' AND convention = 'llmperf' AND reported_value IS NOT NULL")).doubleValue();
      assertTrue(diff < 1e-9, "reported - computed: " + diff);
    }
  }

  // ---------------------------------------------------------------- helpers

  /** AIPerf's conftest record model (start, response times, tokens) as tokentime-jsonl lines, one run per case. */
  static String canonicalRecords(JsonNode cases) {
    StringBuilder s = new StringBuilder();
    Iterator<Map.Entry<String, JsonNode>> it = cases.fields();
    while (it.hasNext()) {
      var c = it.next();
      int i = 0;
      for (JsonNode r : c.getValue()) {
        List<Long> responses = new ArrayList<>();
        r.get("responses_perf_ns").forEach(x -> responses.add(x.asLong()));
        s.append(record(c.getKey(), "r" + i++, r.get("start_perf_ns").asLong(), responses,
            r.get("output_token_count").asInt()));
      }
    }
    return s.toString();
  }

  static String record(String run, String id, long start, List<Long> responses, int tokens) {
    return String.format("{\"request_id\":\"%s\",\"run\":\"%s\",\"arrival_ns\":%d,\"tokens_ns\":%s,"
        + "\"output_tokens\":%d}%n", id, run, start, responses.toString().replace(" ", ""), tokens);
  }

  /** A vLLM --save-detailed result from calculate_metrics' RequestFuncOutput list. */
  static String vllmResult(JsonNode outputs, double duration) throws IOException {
    ObjectNode r = JSON.createObjectNode();
    r.put("backend", "vllm");
    r.put("duration", duration);
    ArrayNode in = r.putArray("input_lens");
    ArrayNode out = r.putArray("output_lens");
    ArrayNode ttfts = r.putArray("ttfts");
    ArrayNode itls = r.putArray("itls");
    ArrayNode lat = r.putArray("latencies");
    ArrayNode errors = r.putArray("errors");
    for (JsonNode o : outputs) {
      boolean ok = o.get("success").asBoolean();
      in.add(ok ? o.get("prompt_len").asInt() : 0);
      out.add(ok ? o.get("output_tokens").asInt() : 0);
      ttfts.add(ok ? o.get("ttft").asDouble() : 0.0);
      ArrayNode l = itls.addArray();
      if (ok) {
        o.get("itl").forEach(l::add);
      }
      lat.add(ok ? o.get("latency").asDouble() : 0.0);
      errors.add(ok ? "" : o.get("error").asText());
    }
    r.put("request_throughput", 0.1);
    r.put("mean_ttft_ms", 100.0);
    return JSON.writeValueAsString(r);
  }

  Path copy(Path from, String to) throws IOException {
    Path p = tmp.resolve("in").resolve(to);
    Files.createDirectories(p.getParent());
    return Files.copy(from, p);
  }

  static void setLengths(TestDb t, String run, JsonNode osl, JsonNode isl) throws Exception {
    try (PreparedStatement ps = t.db.connection().prepareStatement(
        "UPDATE requests SET output_tokens = ?, prompt_tokens = ? WHERE run = ? AND request_id = ?")) {
      for (int i = 0; i < osl.size(); i++) {
        ps.setInt(1, osl.get(i).asInt());
        ps.setInt(2, isl.get(i).asInt());
        ps.setString(3, run);
        ps.setString(4, Integer.toString(i));
        assertEquals(1, ps.executeUpdate());
      }
    }
  }

  static Map<String, Map<String, Double>> metrics(TestDb t, String view, String run) throws Exception {
    Map<String, Map<String, Double>> got = new LinkedHashMap<>();
    for (List<Object> r : t.rows("SELECT metric, stat, value FROM " + view + " WHERE run = '" + run + "'")) {
      got.computeIfAbsent((String) r.get(0), k -> new LinkedHashMap<>()).put((String) r.get(1),
          ((Number) r.get(2)).doubleValue());
    }
    return got;
  }

  static void checkList(Map<String, Map<String, Double>> got, String metric, JsonNode list, double scale) {
    List<Double> values = new ArrayList<>();
    list.forEach(v -> values.add(v.asDouble()));
    Map<String, Double> want = Numpy.stats(values);
    Map<String, Double> g = got.get(metric);
    assertNotNull(g, metric);
    for (String s : List.of("count", "avg", "min", "max", "std", "p50")) {
      double v = s.equals("count") ? g.get(s) : g.get(s) * scale;
      assertClose(want.get(s), v, metric + " " + s);
    }
  }

  static void checkStats(Map<String, Double> got, Map<String, Double> want, double scale, String what) {
    assertNotNull(got, what + ": no value");
    for (var w : want.entrySet()) {
      Double g = got.get(w.getKey());
      assertNotNull(g, what + " " + w.getKey());
      double v = w.getKey().equals("count") ? g : g * scale;
      assertClose(w.getValue(), v, what + " " + w.getKey());
    }
  }

  static String aiperfMetricOf(String folder) {
    return switch (folder) {
      case "ttft", "ttft-head" -> "time_to_first_token";
      case "ttst" -> "time_to_second_token";
      case "request-latency" -> "request_latency";
      case "inter-token-latency" -> "inter_token_latency";
      case "inter-chunk-latency-list-head" -> "inter_chunk_latency";
      default -> fail("no metric for " + folder);
    };
  }

  static boolean isTime(String metric) {
    return metric.equals("request_latency") || metric.equals("time_to_first_token")
        || metric.equals("time_to_second_token") || metric.equals("inter_token_latency");
  }

  static void assertClose(double want, double got, String what) {
    assertTrue(Numpy.close(want, got, 1e-9), what + ": expected " + want + " but was " + got);
  }
}
