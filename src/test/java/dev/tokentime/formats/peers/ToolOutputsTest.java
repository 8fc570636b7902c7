package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.RecordingSink;
import dev.tokentime.testing.TestDb;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Load-test tools' result files as published (src/test/resources/real-logs/tools, PROVENANCE.md
 * there): each is recognised as its tool's and read without a reject; the figures each fix was
 * made for are checked by value.
 */
class ToolOutputsTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/tools");

  /** file → format, records, rejects. */
  static final Map<String, String> READS = new TreeMap<>(Map.ofEntries(
      Map.entry("vllm-dstack-pd-1p3d-c128/1p3d_conc128_in128_out2048_20250914_020816.json", "vllm-bench-json 1 0"),
      // late 2024: no request_throughput in the lines
      Map.entry("sglang-dc-online/llama_3_3_70b_online_output.jsonl", "sglang-bench-jsonl 7 0"),
      Map.entry("sglang-tonyli-pd-local/pd_local.jsonl", "sglang-bench-jsonl 1 0"),
      // SGLang 2026 with --output-details: the run's line and its 100 requests
      Map.entry("sglang-2026-output-details-c100/H100_tp4_dp2_in1024_out128_p100_c100_38769a.jsonl", "sglang-bench-jsonl 101 0"),
      Map.entry("aiperf-databloom-llama32/profile_export.jsonl", "aiperf-jsonl 20 0"),
      // AIPerf 0.8: a sum column before p1
      Map.entry("aiperf-databloom-llama32/profile_export_aiperf.csv", "aiperf-summary 37 0"),
      Map.entry("aiperf-databloom-timeouts/profile_export.jsonl", "aiperf-jsonl 20 0"),
      Map.entry("aiperf-databloom-timeouts/profile_export_aiperf.csv", "aiperf-summary 3 0"),
      Map.entry("aiperf-databloom-timeouts/profile_export_aiperf.json", "aiperf-summary 1 0"),
      Map.entry("llmperf-2023-triton-llm-2req/meta-llama-Llama-2-7b-chat-hf_550_150_individual_responses.json", "llmperf-json 2 0"),
      Map.entry("llmperf-2023-triton-llm-2req/meta-llama-Llama-2-7b-chat-hf_550_150_summary.json", "llmperf-json 1 0"),
      Map.entry("vllm-2026-gemma4-rate8/result-long-rate8.json", "vllm-bench-json 1 0"),
      // latency percentiles alone (no throughputs): vllm-request-metrics took it and stored nothing
      Map.entry("vllm-ascend-nightly-2025-02/serving_llama8B_tp1_qps_inf.json", "vllm-bench-json 1 0"),
      Map.entry("aiperf-sweep-akamas/profile_export_aiperf_sweep.json", "aiperf-summary 1 0"),
      Map.entry("aiperf-sweep-akamas/concurrency_16/profile_export_aiperf.json", "aiperf-summary 1 0"),
      // a pre-release keyed by display names
      Map.entry("aiperf-prerelease-2025-06/profile_export_aiperf.json", "aiperf-summary 1 0"),
      Map.entry("aiperf-0.3-plotfixture-c1/profile_export.jsonl", "aiperf-jsonl 10 0"),
      Map.entry("aiperf-0.3-plotfixture-c1/profile_export_aiperf.json", "aiperf-summary 1 0"),
      Map.entry("aiperf-0.12-mlx-probe-c1/profile_export.jsonl", "aiperf-jsonl 5 0"),
      Map.entry("aiperf-0.12-mlx-probe-c1/profile_export_aiperf.json", "aiperf-summary 1 0"),
      // AIPerf 0.10 (2026): the CSV's 45 figures (its empty GPU telemetry table's header is other), the JSON a record
      Map.entry("aiperf-0.10-multiturn-ngrok-c2/profile_export_aiperf.csv", "aiperf-summary 45 0"),
      Map.entry("aiperf-0.10-multiturn-ngrok-c2/profile_export_aiperf.json", "aiperf-summary 1 0"),
      Map.entry("aiperf-0.10-multiturn-ngrok-c2/profile_export.jsonl", "aiperf-jsonl 1 0"),
      // the console's three tables and its panel: one run, no reject
      Map.entry("aiperf-0.12-mlx-probe-c1/profile_export_console.txt", "aiperf-console 29 0"),
      // perf_analyzer's export of 2023, no response_outputs: its 3 requests (2 with responses), none rejected
      Map.entry("perf-analyzer-2023-decoupled-docs-example/decoupled_output_file.json", "genai-perf-export 3 0"),
      // genai-perf's CSV of May 2024 (ns, "Num Output Token"): its 7 figure rows
      Map.entry("genai-perf-2024-05-csv-ns/profile_export_genai_perf.csv", "genai-perf-summary 7 0"),
      // genai-perf analyze's sweep CSV (2024-12): a run per configuration (5), the GPU table other lines
      Map.entry("genai-perf-analyze-2024-12-gpt2-c32/analyze_export_genai_perf.csv", "genai-perf-analyze-csv 5 0"),
      // GuideLLM 0.2: the benchmark (its level and statistics) and its one request record
      Map.entry("guidellm-0.2-fixture/benchmarks.json", "guidellm-json 2 0"),
      // the same report as GuideLLM's YAML test asset, which starts with the document start "---"
      Map.entry("guidellm-0.2-fixture-yaml/benchmarks.yaml", "guidellm-json 2 0"),
      // GuideLLM 0.5 (a dev build of March 2026): one synchronous benchmark, 23 successful records and
      // 1 incomplete, warm-up and cool-down outside its window
      Map.entry("guidellm-0.5-dev-qwen3-30b-sync/Qwen_Qwen3-30B-A3B_tp4_quant-fp8_benchmarks.json", "guidellm-json 25 0"),
      // the same run's console log: its latency, token and throughput tables ("cannot tell the format" before)
      Map.entry("guidellm-0.5-dev-qwen3-30b-sync/Qwen_Qwen3-30B-A3B_tp4_quant-fp8_bench.log", "guidellm-console 3 0"),
      // inference-perf: a report of the tool's statistics, a record; its per-request file, a record each
      Map.entry("inference-perf-0.5-two-stage-pr705/per_request_lifecycle_metrics.json", "inference-perf-json 6 0"),
      Map.entry("inference-perf-0.5-two-stage-pr705/stage_1_lifecycle_metrics.json", "inference-perf-json 1 0"),
      Map.entry("inference-perf-0.5-two-stage-pr705/summary_lifecycle_metrics.json", "inference-perf-json 1 0"),
      Map.entry("inference-perf-kubecon-2025-stage0/stage_0_lifecycle_metrics.json", "inference-perf-json 1 0"),
      // inference-perf's own per-stage benchmark report, schema 0.2.1 (a reject each before)
      Map.entry("inference-perf-br-0.2.1-partials-pr705/inference-perf.partial.stage_0.yaml", "llmd-benchmark-report 1 0"),
      Map.entry("inference-perf-br-0.2.1-partials-pr705/inference-perf.partial.stage_1.yaml", "llmd-benchmark-report 1 0"),
      // SGLang bench_offline_throughput's console block, under its own title: 7 figures
      Map.entry("sglang-offline-embedding-2025-i9674/offline.txt", "sglang-bench-console 7 0"),
      // trtllm-bench 1.2 with banners on their own lines; its figures pasted as two runs' columns:
      // a reject each (5), never a setting
      Map.entry("trtllm-bench-1.2-two-column-paste-pr9459/comment.txt", "trtllm-bench-report 19 5"),
      Map.entry("aiperf-doc-2026-all-timeout/profile_export_aiperf.json", "aiperf-summary 1 0"),
      // a 2026 build's CSV: sum right after avg ("cannot tell the format" before)
      Map.entry("aiperf-0.8-2026-smoke-100k/profile_export_aiperf.csv", "aiperf-summary 25 0"),
      Map.entry("aiperf-0.8-2026-smoke-100k/profile_export_aiperf.json", "aiperf-summary 1 0"),
      // its console: the Error Summary's one row (its message wrapped over two more) and 12 figures
      Map.entry("aiperf-0.8-2026-smoke-100k/profile_export_console.txt", "aiperf-console 13 0"),
      // vLLM's offline benchmarks' --output-json (vllm bench throughput, vllm bench latency)
      Map.entry("vllm-offline-dstack-2024-11/nvidia-throughput_test_ip128_op2048_np8.json", "vllm-bench-offline-json 1 0"),
      Map.entry("vllm-offline-dstack-2024-11/nvidia-latency_test_ip2048_op2048_np4.json", "vllm-bench-offline-json 1 0"),
      Map.entry("vllm-offline-dstack-2024-11/Meta-Llama-3.1-405B-Instruct-FP8-KV_throughput_req16_in32784_out2048_.json",
          "vllm-bench-offline-json 1 0"),
      // EvalScope perf 0.17's benchmark_summary.json: one record, its 15 figures
      Map.entry("evalscope-0.17-blog-qwen3-235b-c10/benchmark_summary.json", "evalscope-perf 1 0"),
      // genai-bench 2024: the run's figures and the 2 requests the fixture keeps; its metadata, alone, a reject saying what it is
      Map.entry("genai-bench-2024-sglang-h100-c1/D100_100_text-to-text_num_concurrency_1_time_60s.json", "genai-bench-json 3 0"),
      Map.entry("genai-bench-2024-sglang-h100-c1/experiment_metadata.json", "genai-bench-json 0 1"),
      // llm-load-test 2024, non-streaming: 36 requests, its config (the level) and its summary (NaN statistics no figure)
      Map.entry("llm-load-test-2024-nonstreaming-c2/output.json", "llm-load-test-json 38 0"),
      // gptManagerBenchmark's summary: its 11 figures (num_samples, printed twice, once)
      Map.entry("trtllm-gptmanagerbenchmark-0.11-rate10/summary.txt", "trtllm-gptmanager-benchmark 11 0"),
      // MLPerf v6.1's endpoints harness: each scenario's result_summary.json ("cannot tell the format" before)
      Map.entry("mlperf-endpoints-v6.1-vr-nvl72-deepseek-r1/Interactive/performance/result_summary.json", "mlperf-endpoints-json 1 0"),
      Map.entry("mlperf-endpoints-v6.1-vr-nvl72-deepseek-r1/Offline/performance/result_summary.json", "mlperf-endpoints-json 1 0"),
      // and the report it prints beside it: 48 figures
      Map.entry("mlperf-endpoints-v6.1-vr-nvl72-deepseek-r1/Offline/report.txt", "mlperf-endpoints-console 48 0")));

  static ParseContext ctx(String file) {
    return new ParseContext(file, "tools", false, null, null, Instant.parse("2026-06-30T00:00:00Z"), null);
  }

  static RecordingSink read(String file, byte[] b, String[] format) throws IOException {
    InputFormat f = FormatRegistry.standard().sniff(new Sample(Path.of(file).getFileName().toString(), b, b.length));
    assertNotNull(f, file + " is recognised");
    format[0] = f.id();
    RecordingSink s = new RecordingSink();
    f.parse(new ByteArrayInputStream(b), ctx(file), s);
    return s;
  }

  @Test
  void everyFileIsRecognisedAndRead() throws IOException {
    for (var e : READS.entrySet()) {
      String[] format = new String[1];
      RecordingSink s = read(e.getKey(), Files.readAllBytes(DIR.resolve(e.getKey())), format);
      assertEquals(e.getValue(), format[0] + " " + s.c.records + " " + s.c.rejects.size(), e.getKey());
    }
  }

  @TempDir
  Path tmp;

  /** vllm-ascend's nightly result holds percentiles only: each is a reported figure of the tool's. */
  /**
   * AIPerf's console opens with an "Error Summary" table when requests failed: its rows were
   * rejected as figures ("Type: expected a number, got 'ClientConnectorError'"). Its counts are the
   * JSON's error_summary, read as the JSON's are.
   */
  @Test
  void aiperfsConsoleErrorSummaryIsTheJsonsErrorCount() throws IOException {
    String[] format = new String[1];
    String dir = "aiperf-0.8-2026-smoke-100k/";
    RecordingSink console = read(dir + "profile_export_console.txt",
        Files.readAllBytes(DIR.resolve(dir + "profile_export_console.txt")), format);
    RecordingSink json = read(dir + "profile_export_aiperf.json",
        Files.readAllBytes(DIR.resolve(dir + "profile_export_aiperf.json")), format);
    List<String> errors = console.c.reported.stream().filter(r -> r.contains(" error_count ")).toList();
    assertEquals(List.of("tools null error_count ClientConnectorError 18586.0 requests"), errors);
    assertEquals(errors.stream().map(r -> r.substring(r.indexOf(" error_count"))).toList(),
        json.c.reported.stream().filter(r -> r.contains(" error_count ")).map(r -> r.substring(r.indexOf(" error_count"))).toList());
  }

  /**
   * AIPerf 0.10's record: its metadata beyond the fields known before (credit_issued_ns,
   * agent_depth, record_processor_id) was dropped unsaid; the server's cached prompt tokens
   * (usage_prompt_cache_read_tokens) are the request's cached_tokens.
   */
  @Test
  void aiperf010MetadataIsKeptAndItsCachedTokensRead() throws IOException {
    String f = "aiperf-0.10-multiturn-ngrok-c2/profile_export.jsonl";
    RecordingSink s = read(f, Files.readAllBytes(DIR.resolve(f)), new String[1]);
    var r = s.requests.get(0);
    assertEquals(Integer.valueOf(343), r.cachedTokens);
    assertEquals(Integer.valueOf(680), r.promptTokens);
    assertEquals("1785304801662802811", r.extras.get("credit_issued_ns"));
    assertEquals("0", r.extras.get("agent_depth"));
    assertEquals("record_processor_52a722bc", r.extras.get("record_processor_id"));
    assertEquals("worker_b145cf91", r.extras.get("worker_id"));
    assertEquals(null, r.extras.get("request_start_ns"), "read into arrival, not repeated");
  }

  @Test
  void aResultOfPercentilesAloneIsAVllmResult() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(DIR.resolve("vllm-ascend-nightly-2025-02").toString())));
      assertEquals(List.of(List.of("ttft", "mean", 13479.217), List.of("ttft", "p99", 16596.107),
          List.of("tpot", "mean", 183.776)), t.rows("SELECT metric, stat, round(value, 3) FROM reported_metrics"
              + " WHERE (metric = 'ttft' AND stat IN ('mean', 'p99')) OR (metric = 'tpot' AND stat = 'mean')"
              + " ORDER BY metric DESC, stat"));
    }
  }

  /**
   * A sweep's results directory: one vllm bench serve result per level side by side (and vllm bench
   * sweep's run=N.json repeats). Named by the folder alone, the folder's one run took the first
   * file's level and refused the other's ("run res is at concurrency 4; this record says
   * concurrency 2"). Each is now a run of its own, named by folder and file.
   */
  @Test
  void resultFilesSideBySideAreRunsOfTheirOwn() throws Exception {
    Path res = Files.createDirectories(tmp.resolve("res"));
    for (int c : new int[] {2, 4}) {
      Files.writeString(res.resolve("vllm-c" + c + ".json"), "{\"backend\": \"vllm\", \"max_concurrency\": " + c
          + ", \"completed\": 8, \"duration\": 2.0, \"request_throughput\": " + (c * 1.5) + ", \"mean_ttft_ms\": 40.0}");
    }
    Path sweep = Files.createDirectories(tmp.resolve("SERVE--max_num_seqs=8-BENCH--max_concurrency=2"));
    for (int r : new int[] {0, 1}) {
      Files.writeString(sweep.resolve("run=" + r + ".json"), "{\"backend\": \"vllm\", \"max_concurrency\": 2,"
          + " \"completed\": 8, \"duration\": 2.0, \"request_throughput\": " + (11.95 - r * 0.3) + ", \"mean_ttft_ms\": 40.0}");
    }
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(res.toString(), sweep.toString())));
      assertEquals(0, r.files().stream().mapToLong(IngestResult.FileResult::rejected).sum(), r.files().toString());
      assertEquals(List.of(
          List.of("SERVE--max_num_seqs=8-BENCH--max_concurrency=2/run=0", 2.0, 0, 11.95),
          List.of("SERVE--max_num_seqs=8-BENCH--max_concurrency=2/run=1", 2.0, 1, 11.65),
          List.of("res/vllm-c2", 2.0, -1, 3.0), List.of("res/vllm-c4", 4.0, -1, 6.0)),
          t.rows("SELECT run, u.level, coalesce(repeat, -1), round(value, 2) FROM runs AS u JOIN reported_metrics USING (run)"
              + " WHERE metric = 'request_throughput' ORDER BY run"));
    }
  }

  /**
   * The LLMPerf leaderboard's layout (ray-project/llmperf-leaderboard): raw_data/individual/X.json
   * and raw_data/summary/X.json are one provider's run, raw_data/X; named by their folders, every
   * provider's records were the run "individual", their statistics the run "summary", and no figure
   * met its requests. A real pair of LLMPerf files stands in for two providers.
   */
  @Test
  void theLlmperfLeaderboardsFoldersAreOneRunPerProvider() throws Exception {
    Path src = DIR.resolve("llmperf-2023-triton-llm-2req");
    Path raw = tmp.resolve("raw_data");
    for (String provider : List.of("anyscale_7b", "bedrock_7b")) {
      Files.createDirectories(raw.resolve("individual"));
      Files.createDirectories(raw.resolve("summary"));
      // leading spaces, one count per provider: identical files would be one file read once (and
      // one that begins with another, a later reading of it)
      String pad = " ".repeat(provider.length());
      Files.writeString(raw.resolve("individual").resolve(provider + ".json"), pad + Files.readString(
          src.resolve("meta-llama-Llama-2-7b-chat-hf_550_150_individual_responses.json")));
      Files.writeString(raw.resolve("summary").resolve(provider + ".json"), pad + Files.readString(
          src.resolve("meta-llama-Llama-2-7b-chat-hf_550_150_summary.json")));
    }
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(raw.toString())));
      assertEquals(0, r.files().stream().mapToLong(IngestResult.FileResult::rejected).sum(), r.files().toString());
      assertEquals(List.of(List.of("raw_data/anyscale_7b", 2L, 1L), List.of("raw_data/bedrock_7b", 2L, 1L)),
          t.rows("SELECT run, (SELECT count(*) FROM requests AS q WHERE q.run = u.run),"
              + " (SELECT count(DISTINCT source_id) FROM reported_metrics AS m WHERE m.run = u.run) FROM runs AS u ORDER BY run"));
      // the tool's figures sit beside its requests' own
      assertTrue(t.count("SELECT count(*) FROM peer_comparison WHERE convention = 'llmperf' AND reported_value IS NOT NULL"
          + " AND convention_value IS NOT NULL") > 0);
    }
  }

  /**
   * vllm bench sweep's layout: each combination's folder holds run=N.json (the result with its
   * run_number), summary.json (the same results again, as one array) and, with
   * --warmup-num-prompts, warmup.json (run_number -1). Read as a folder, the summary counted every
   * run twice (it was not recognised: skipped, but a copy of it alone is the runs' only record) and
   * the warm-up was a third run of the level. The summary and the warm-up are now left out and
   * listed; named alone, the summary's elements are the runs, repeats by their run_number.
   */
  @Test
  void aVllmSweepFolderIsItsRunFilesOnce() throws Exception {
    Path comb = Files.createDirectories(tmp.resolve("exp/SERVE--max_num_seqs=32-BENCH--max_concurrency=8"));
    StringBuilder summary = new StringBuilder("[\n");
    for (int n = -1; n <= 1; n++) {
      String result = "{\"date\": \"20260105-101010\", \"backend\": \"vllm\", \"num_prompts\": 40, \"max_concurrency\": 8,"
          + " \"completed\": 40, \"duration\": 4.0, \"request_throughput\": " + (10.0 + n) + ", \"mean_ttft_ms\": 40.0,"
          + " \"max_num_seqs\": 32, \"run_number\": " + n + "}";
      Files.writeString(comb.resolve(n < 0 ? "warmup.json" : "run=" + n + ".json"), result);
      if (n >= 0) {
        summary.append(n > 0 ? ",\n" : "").append(result);
      }
    }
    Files.writeString(comb.resolve("summary.json"), summary.append("\n]").toString());
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(tmp.resolve("exp").toString())));
      assertEquals(List.of("run=0.json", "run=1.json"),
          r.files().stream().map(f -> Path.of(f.path()).getFileName().toString()).sorted().toList());
      assertEquals(List.of("summary.json", "warmup.json"), r.skipped().stream()
          .filter(s -> s.reason().startsWith(IngestResult.Skipped.LEFT_OUT))
          .map(s -> Path.of(s.path()).getFileName().toString()).sorted().toList());
      String comb8 = "SERVE--max_num_seqs=32-BENCH--max_concurrency=8/";
      assertEquals(List.of(List.of(comb8 + "run=0", 8.0, 0, 10.0), List.of(comb8 + "run=1", 8.0, 1, 11.0)),
          t.rows("SELECT run, u.level, repeat, value FROM runs AS u JOIN reported_metrics USING (run)"
              + " WHERE metric = 'request_throughput' ORDER BY run"));
      assertEquals(0L, t.rows("SELECT count(*) FROM reported_metrics WHERE metric = 'run_number'").get(0).get(0));
    }
    // a shell glob names every file of the folder: the same files are left out
    try (TestDb t = new TestDb(tmp.resolve("db1"))) {
      List<String> all = new java.util.ArrayList<>();
      try (var files = Files.list(comb)) {
        files.forEach(f -> all.add(f.toString()));
      }
      IngestResult r = t.ingest(IngestOptions.of(all));
      assertEquals(2, r.files().size(), r.files().toString());
      assertEquals(2L, t.count("SELECT count(*) FROM runs"));
    }
    try (TestDb t = new TestDb(tmp.resolve("db2"))) {
      t.ingest(IngestOptions.of(List.of(comb.resolve("summary.json").toString())));
      assertEquals(List.of(List.of(0, 10.0), List.of(1, 11.0)),
          t.rows("SELECT repeat, value FROM runs AS u JOIN reported_metrics USING (run)"
              + " WHERE metric = 'request_throughput' ORDER BY repeat"));
    }
  }

  /**
   * A sweep's folder of results and their console logs, one name per run (llm-benchmaxxing's
   * run_N_….json beside run_N_….txt): each result and its log are one run at one level; before,
   * the logs of two rates fell into one folder run whose level was whichever file came first.
   */
  @Test
  void aResultAndItsConsoleLogOfOneNameAreOneRunBesideOthers() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("sweep"));
    String json = Files.readString(DIR.resolve("vllm-2026-gemma4-rate8/result-long-rate8.json"));
    String log = Files.readString(Path.of("src/test/resources/real-logs/console/vllm-bench-serve-2026-rate8.log"));
    for (int rate : new int[] {4, 8}) {
      Files.writeString(dir.resolve("run_rate" + rate + ".json"), json.replace("\"request_rate\": 8.0", "\"request_rate\": " + rate + ".0"));
      Files.writeString(dir.resolve("run_rate" + rate + ".txt"), log.replace("request_rate=8.0", "request_rate=" + rate + ".0")
          .replace("Traffic request rate: 8.0", "Traffic request rate: " + rate + ".0")
          .replace("Request rate configured (RPS):           8.00", "Request rate configured (RPS):           " + rate + ".00"));
    }
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(dir.toString())));
      assertEquals(0, r.files().stream().mapToLong(IngestResult.FileResult::rejected).sum(), r.files().toString());
      assertEquals(List.of(List.of("sweep/run_rate4", 4.0, 2L), List.of("sweep/run_rate8", 8.0, 2L)),
          t.rows("SELECT run, any_value(u.level), count(DISTINCT source_id) FROM runs AS u"
              + " JOIN reported_metrics USING (run) GROUP BY run ORDER BY run"));
    }
  }

  /**
   * GuideLLM 0.5's report of a synchronous run with warm-up and cool-down: guidellm_metrics,
   * computed from its request records inside the measured window (19 of 23), gives every figure
   * the report states for its successful requests (108 of them), to float noise.
   */
  @Test
  void guidellm05ReportIsReproducedFromItsRecords() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(DIR.resolve("guidellm-0.5-dev-qwen3-30b-sync/Qwen_Qwen3-30B-A3B_tp4_quant-fp8_benchmarks.json"));
      assertEquals(List.of(List.of(1.0, 19.0)), t.rows("SELECT level, value FROM reported_metrics"
          + " WHERE metric = 'requests_successful'"));
      assertEquals(108L, t.count("SELECT count(*) FROM guidellm_metrics g JOIN reported_metrics r USING (run, metric, stat)"));
      assertEquals(List.of(), t.rows("SELECT metric, stat, g.value, r.value FROM guidellm_metrics g"
          + " JOIN reported_metrics r USING (run, metric, stat) WHERE abs(g.value - r.value) > 1e-5 * greatest(abs(r.value), 1e-3)"));
      assertEquals(58.101, ((Number) t.value("SELECT value FROM guidellm_metrics WHERE metric = 'time_to_first_token_ms'"
          + " AND stat = 'median'")).doubleValue(), 1e-3);
    }
  }

  /**
   * GuideLLM's report and its console log side by side are one run: peer_comparison takes the
   * report's figure (full precision) where both state it, and the log's (to one decimal) alone.
   */
  @Test
  void guidellmsLogBesideItsReportIsTheSameRun() throws Exception {
    String sql = "SELECT reported_value FROM peer_comparison WHERE convention = 'guidellm' AND metric = 'ttft_ms'"
        + " AND stat = 'p50'";
    try (TestDb t = new TestDb(tmp.resolve("both"))) {
      IngestResult r = t.ingest(DIR.resolve("guidellm-0.5-dev-qwen3-30b-sync"));
      assertEquals(List.of("guidellm-console", "guidellm-json"), r.files().stream().map(IngestResult.FileResult::format).sorted().toList());
      assertEquals(1L, t.count("SELECT count(*) FROM runs"));
      assertEquals(58.101, ((Number) t.value(sql)).doubleValue(), 1e-3);
    }
    try (TestDb t = new TestDb(tmp.resolve("log"))) {
      t.ingest(DIR.resolve("guidellm-0.5-dev-qwen3-30b-sync/Qwen_Qwen3-30B-A3B_tp4_quant-fp8_bench.log"));
      assertEquals(58.1, ((Number) t.value(sql)).doubleValue(), 1e-9);
    }
  }

  /** A run whose every request timed out still has AIPerf's error count in aiperf_metrics. */
  @Test
  void anAllErrorRunKeepsItsErrorCount() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(DIR.resolve("aiperf-databloom-timeouts").toString())));
      assertEquals(List.of(List.of("aiperf-databloom-timeouts", "error_request_count", 20.0)),
          t.rows("SELECT run, metric, value FROM aiperf_metrics"));
      t.ingest(IngestOptions.of(List.of(DIR.resolve("aiperf-databloom-llama32").toString())));
      assertEquals(List.of(List.of(10.0, 10.0)), t.rows("SELECT max(value) FILTER (metric = 'error_request_count'),"
          + " max(value) FILTER (metric = 'request_count') FROM aiperf_metrics WHERE run = 'aiperf-databloom-llama32'"));
    }
  }

  /**
   * LLMPerf's per-request records of 2023 carry no start times: its throughputs cannot be rebuilt,
   * and peer_comparison says so on those rows instead of leaving them blank. A 2026 vllm bench
   * serve result and its console log are one run at one level (the log announces its rate before
   * its block).
   */
  @Test
  void reportedFiguresTokentimeCannotComputeSayWhy() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(DIR.resolve("llmperf-2023-triton-llm-2req").toString())));
      List<List<Object>> rows = t.rows("SELECT metric, convention_value, reported_value IS NOT NULL, not_reproducible"
          + " FROM peer_comparison WHERE convention = 'llmperf' AND metric IN ('output_tokens_per_s', 'requests_per_s')"
          + " ORDER BY metric");
      assertEquals(2, rows.size(), rows.toString());
      for (List<Object> r : rows) {
        assertEquals(null, r.get(1));
        assertEquals(true, r.get(2));
        assertTrue(String.valueOf(r.get(3)).startsWith("not computed: the run's requests carry no start times"), r.toString());
      }
      t.write("vllm-2026/result-long-rate8.json", Files.readString(DIR.resolve("vllm-2026-gemma4-rate8/result-long-rate8.json")));
      t.write("vllm-2026/bench-long-rate8.log", Files.readString(Path.of("src/test/resources/real-logs/console/vllm-bench-serve-2026-rate8.log")));
      t.ingest(IngestOptions.of(List.of(tmp.resolve("vllm-2026").toString())));
      assertEquals(List.of(List.of("request_rate", 8.0)), t.rows("SELECT level_kind, level FROM runs WHERE run = 'vllm-2026'"));
      assertEquals(List.of(List.of(8.0)), t.rows("SELECT DISTINCT level FROM reported_metrics"
          + " WHERE run = 'vllm-2026'"));
    }
  }

  /**
   * AIPerf of other versions: a pre-release's display names are the tags the later files use; a
   * statistic's count is a count, not a figure in the metric's unit; 0.12's console is one run
   * whatever its tables; a run's figure in JSON, CSV and console is compared at the JSON's
   * precision; a per-request file of part of the run says so where the tool's figures are shown.
   */
  @Test
  void aiperfOfOtherVersions() throws Exception {
    RecordingSink pre = read("aiperf-prerelease-2025-06/profile_export_aiperf.json", Files.readAllBytes(DIR.resolve("aiperf-prerelease-2025-06/profile_export_aiperf.json")),
        new String[1]);
    // "run level metric stat value unit"
    assertTrue(pre.c.reported.contains("tools null time_to_first_token avg 30.4630958 ms"), pre.c.reported.toString());
    assertTrue(pre.c.reported.contains("tools null time_to_first_token count 10.0 count"), pre.c.reported.toString());
    assertTrue(pre.c.reported.stream().noneMatch(m -> m.contains("Time to")), pre.c.reported.toString());
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(DIR.resolve("aiperf-0.12-mlx-probe-c1").toString())));
      assertEquals(List.of(List.of("aiperf-0.12-mlx-probe-c1", "concurrency", 1.0)), t.rows("SELECT run, level_kind, level FROM runs"));
      assertEquals(List.of(List.of(635.0, "count"), List.of(15177.251624999999, "ms")), t.rows("SELECT value, unit FROM reported_metrics"
          + " WHERE metric = 'inter_chunk_latency' AND stat IN ('count', 'sum') AND source_id = (SELECT source_id FROM sources"
          + " WHERE path LIKE '%.json') ORDER BY stat"));
      // the CSV's HTTP Blocked and the JSON's http_req_blocked are one metric; the console's and
      // the CSV's Effective Latency (CO-aware) and the JSON's effective_latency too
      assertEquals(List.of(List.of("aiperf-console", 3657.54), List.of("aiperf-summary", 3657.54), List.of("aiperf-summary", 3657.54)),
          t.rows("SELECT s.format, round(m.value, 2) FROM reported_metrics m JOIN sources s USING (source_id)"
              + " WHERE m.metric = 'effective_latency' AND m.stat = 'avg' ORDER BY s.format, s.path"));
      assertEquals(List.of(), t.rows("SELECT DISTINCT metric FROM reported_metrics WHERE metric LIKE '%co\\_aware%' ESCAPE '\\'"));
      assertEquals(List.of(), t.rows("SELECT DISTINCT metric FROM reported_metrics WHERE metric LIKE 'http\\_%' ESCAPE '\\'"
          + " AND metric NOT LIKE 'http\\_req\\_%' ESCAPE '\\'"));
      assertEquals(List.of(List.of(621.582, 0.0)), t.rows("SELECT round(reported_value, 3), abs(round(reported_minus_convention, 3))"
          + " FROM peer_comparison WHERE convention = 'aiperf' AND metric = 'ttft_ms' AND stat = 'mean'"));
    }
    try (TestDb t = new TestDb(tmp.resolve("b"))) {
      t.ingest(IngestOptions.of(List.of(DIR.resolve("aiperf-0.3-plotfixture-c1").toString())));
      List<List<Object>> notes = t.rows("SELECT DISTINCT not_reproducible FROM peer_comparison"
          + " WHERE convention = 'aiperf' AND reported_value IS NOT NULL");
      assertEquals(List.of(List.of("the tool counted 64 requests, the run holds 10: its figures are of requests tokentime does not have")),
          notes);
    }
  }

  /**
   * AIPerf's sweep aggregate: one run per swept concurrency, its per-request figures as a run's
   * export gives them (the first equals the concurrency-16 run's own file), and no std (across
   * trials there, 0 with one trial). AIPerf 0.11's run file sets its load per phase.
   */
  @Test
  void anAiperfSweepAggregateIsOneRunPerValue() throws IOException {
    String sweep = "aiperf-sweep-akamas/profile_export_aiperf_sweep.json";
    RecordingSink s = read(sweep, Files.readAllBytes(DIR.resolve(sweep)), new String[1]);
    assertEquals(List.of(16.0, 32.0, 64.0, 96.0, 128.0, 192.0, 256.0, 320.0, 384.0, 512.0, 640.0, 768.0),
        s.c.levels.values().stream().map(l -> (Double) l[1]).sorted().toList());
    assertEquals("concurrency", s.c.levels.get("tools")[0]);
    assertEquals(16.0, s.c.levels.get("tools")[1]);
    assertEquals(768.0, s.c.levels.get("tools#12")[1]);
    assertTrue(s.c.reported.contains("tools 16.0 time_to_first_token avg 28.736161119863013 ms"), s.c.reported.toString());
    assertTrue(s.c.reported.contains("tools 16.0 time_to_first_token p99 66.76023583999999 ms"), s.c.reported.toString());
    assertTrue(s.c.reported.stream().noneMatch(r -> r.contains(" std ")), "a sweep's std is across trials");
    String run = "aiperf-sweep-akamas/concurrency_16/profile_export_aiperf.json";
    RecordingSink one = read(run, Files.readAllBytes(DIR.resolve(run)), new String[1]);
    assertEquals(16.0, one.c.levels.get("tools")[1], "input_config.phases[0].concurrency");
    assertTrue(one.c.reported.contains("tools 16.0 time_to_first_token avg 28.736161119863013 ms"), one.c.reported.toString());
  }

  /**
   * A run in which every request failed: vLLM writes 0.0 for each latency statistic (its mean of
   * an empty list), in the JSON and on the console. Those are no figures and are not kept; the
   * counts are, and the summary shows them for a run with no request rows of its own.
   */
  @Test
  void aRunWithoutSuccessKeepsItsCountsNotItsPlaceholderLatencies() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(DIR.resolve("vllm-bench-allfailed-2026-benchmaxxing").toString())));
      assertEquals(List.of(List.of("vllm-bench-console", 11L, 405L), List.of("vllm-bench-json", 1L, 0L)),
          t.rows("SELECT format, records, other_lines FROM sources ORDER BY format"));
      assertEquals(List.of(), t.rows("SELECT metric, stat, value FROM reported_metrics WHERE unit = 'ms'"));
      assertEquals(List.of(List.of("vllm-bench-console", 0.0, 100.0), List.of("vllm-bench-json", 0.0, 100.0)),
          t.rows("SELECT format, max(requests) FILTER (WHERE metric = 'completed'), max(requests) FILTER (WHERE metric = 'failed')"
              + " FROM tool_request_counts GROUP BY format ORDER BY format"));
      String text = dev.tokentime.summary.SummaryRenderer.text(new dev.tokentime.summary.SummaryService().summarize(t.db, java.util.Set.of()), 120);
      assertTrue(text.contains("the tool counted completed 0, failed 100 (vllm-bench-console, vllm-bench-json)"), text);
      assertTrue(!text.contains("0 ok, 0 failed"), text);
      // the levels table, the report's tables and its findings say so too (were "failed 0", "No rows")
      String levels = text.substring(text.indexOf("levels (median over repeats)"));
      assertEquals(List.of("concurrency  runs  ok  failed  ok (tool's count)  failed (tool's count)",
          "        100     1   0       0                  0                    100"),
          levels.lines().skip(1).filter(l -> !l.startsWith("---")).toList(), levels);
      dev.tokentime.report.ReportData d = new dev.tokentime.report.ReportService().gather(t.db,
          new dev.tokentime.report.ReportService.Request(java.util.Set.of(), null, "", "x.duckdb"));
      assertEquals(List.of(100L), d.runs().longColumn("tool_failed_requests").asList());
      assertEquals(List.of(100L), d.levels().longColumn("tool_failed_requests").asList());
      String md = dev.tokentime.report.MarkdownReport.render(d, null).markdown();
      assertTrue(md.contains("The load-test tool counted failed requests where the files hold no request rows: 100 of"
          + " 100 in vllm-bench-allfailed-2026-benchmaxxing (tool\\_run\\_counts)."), md);
      assertTrue(md.contains("| ok (tool's count) | failed (tool's count) |"), md);
    }
  }

  /**
   * AIPerf's summary of a run whose requests all timed out (its documentation's real example): the
   * failures and what they failed with are the tool's counts, kept (error_summary was dropped).
   */
  @Test
  void anAiperfRunOfTimeoutsKeepsItsErrorSummary() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(DIR.resolve("aiperf-doc-2026-all-timeout").toString())));
      assertEquals(List.of(List.of("TimeoutError", 5.0, "requests")),
          t.rows("SELECT stat, value, unit FROM reported_metrics WHERE metric = 'error_count'"));
      assertEquals(List.of(List.of("aiperf-doc-2026-all-timeout", 5L, "TimeoutError: 5")),
          t.rows("SELECT run, tool_failed_requests, tool_errors FROM tool_run_counts"));
    }
  }

  /** SGLang's total_throughput is input plus output tokens per second, not requests. */
  @Test
  void sglangTotalThroughputIsTokensPerSecond() throws IOException {
    String file = "sglang-tonyli-pd-local/pd_local.jsonl";
    RecordingSink s = read(file, Files.readAllBytes(DIR.resolve(file)), new String[1]);
    String total = s.c.reported.stream().filter(r -> r.contains(" total_throughput ")).findFirst().orElseThrow();
    assertTrue(total.endsWith(" tokens/s"), total);
    assertTrue(total.contains(" 12052.70"), total);
  }

  /**
   * A result of vLLM's benchmark_serving.py from 2024 names its figures after megabytes of
   * per-request lists, past what a sniff reads: its head (tokenizer_id, best_of) tells it.
   */
  @Test
  void a2024VllmResultIsRecognisedByItsHead() throws IOException {
    StringBuilder b = new StringBuilder("{\"date\": \"20241109-150547\", \"backend\": \"vllm\", \"model_id\": \"m\","
        + " \"tokenizer_id\": \"m\", \"best_of\": 1, \"num_prompts\": 2, \"request_rate\": 16.0, \"duration\": 1.5,"
        + " \"completed\": 2, \"total_input_tokens\": 20, \"total_output_tokens\": 4, \"request_throughput\": 1.3,"
        + " \"output_throughput\": 2.6, \"total_token_throughput\": 16.0, \"input_lens\": [10, 10],"
        + " \"output_lens\": [2, 2], \"ttfts\": [0.1, 0.2], \"itls\": [[0.05], [0.06]], \"generated_texts\": [\"");
    b.append("x".repeat(200_000)).append("\", \"y\"], \"errors\": [\"\", \"\"], \"mean_ttft_ms\": 150.0}");
    String[] format = new String[1];
    RecordingSink s = read("nvidia-vllm-16.0qps-20241109-150547.json", b.toString().getBytes(StandardCharsets.UTF_8), format);
    assertEquals("vllm-bench-json", format[0]);
    assertEquals(2, s.requests.size());
    assertEquals(0, s.c.rejects.size());
  }

  /**
   * SGLang bench_serving of March 2026 with --output-details (Scicom's llm-benchmaxxing, 100
   * requests at concurrency 100): its ttfts and itls reproduce SGLang's TTFT and ITL; it keeps no
   * per-request latencies, so the E2E tokentime rebuilds (TTFT + ITLs) ends at the last chunk, a
   * little below SGLang's (it stamps the stream's end), and peer_comparison says so.
   */
  @Test
  void sglangsDetailsReproduceItsTtftAndSayWhyE2eCannot() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("sgl2026"))) {
      t.ingest(DIR.resolve("sglang-2026-output-details-c100/H100_tp4_dp2_in1024_out128_p100_c100_38769a.jsonl"));
      List<List<Object>> rows = t.rows("SELECT metric, convention_value, reported_value, not_reproducible"
          + " FROM peer_comparison WHERE convention = 'sglang' AND stat = 'mean' AND metric IN ('ttft_ms', 'e2e_ms')"
          + " ORDER BY metric DESC");
      assertEquals("ttft_ms", rows.get(0).get(0));
      assertEquals(((Number) rows.get(0).get(2)).doubleValue(), ((Number) rows.get(0).get(1)).doubleValue(), 1e-3);
      assertNull(rows.get(0).get(3));
      assertEquals("e2e_ms", rows.get(1).get(0));
      // 5548.767 reported, 5548.748 rebuilt
      assertEquals(0.019, ((Number) rows.get(1).get(2)).doubleValue() - ((Number) rows.get(1).get(1)).doubleValue(), 2e-3);
      assertTrue(String.valueOf(rows.get(1).get(3)).startsWith("the results file has no per-request latencies: the E2E"
          + " latency is rebuilt from ttfts + itls"), rows.get(1).toString());
      // every run figure SGLang wrote, recomputed with its unit: the token totals and total_throughput too
      assertEquals(List.of(), t.rows("SELECT s.metric, s.value, r.value FROM sglang_bench_metrics s JOIN reported_metrics r"
          + " USING (run, metric, stat) WHERE s.stat = 'value' AND (abs(s.value - r.value) > 1e-3 * abs(r.value) OR s.unit <> r.unit)"));
      assertEquals(9L, t.count("SELECT count(*) FROM sglang_bench_metrics s JOIN reported_metrics r USING (run, metric, stat)"
          + " WHERE s.stat = 'value'"));
    }
  }

  /**
   * genai-bench's published run file (2024: seconds, no _time_unit) was "cannot tell the format";
   * now a run at concurrency 1 with its 2 requests (ms from seconds) and the tool's figures, and
   * its experiment_metadata.json beside it is left out, named.
   */
  @Test
  void aGenaiBenchExperimentFolderIsItsRunFiles() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(DIR.resolve("genai-bench-2024-sglang-h100-c1").toString())));
      assertEquals(1, r.skipped().size(), r.skipped().toString());
      String run = "genai-bench-2024-sglang-h100-c1/D100_100_text-to-text_num_concurrency_1_time_60s";
      assertEquals(List.of(List.of(run, "concurrency", 1.0)), t.rows("SELECT run, level_kind, level FROM runs"));
      assertEquals(List.of(List.of("0", "ok", 669.5356667041779, 2530.9561993926764, 18.614205326884986, 92, 100),
          List.of("1", "ok", 33.43930281698704, 1821.7247072607279, 17.88285404443741, 89, 100)),
          t.rows("SELECT request_id, status, ttft_ms, e2e_ms, tpot_ms, prompt_tokens, output_tokens FROM requests ORDER BY request_id"));
      assertEquals(List.of(List.of(119L, 0.47234579389914955, 32.0, 31.9995250891596)), t.rows("SELECT count(*),"
          + " max(value) FILTER (metric = 'ttft' AND stat = 'p99' AND unit = 's'),"
          + " max(value) FILTER (metric = 'num_requests' AND unit = 'requests'),"
          + " max(value) FILTER (metric = 'requests_per_minute' AND unit = 'requests/min') FROM reported_metrics"));
    }
  }
}
