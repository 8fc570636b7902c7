package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The result JSON of the GKE latency profile generator (Google's fork of benchmark_serving.py):
 * before, "cannot tell the format" (and, named with --from vllm-bench-json, a reject). Its three
 * layouts on constructed files (constructed/gke-lpg, README there), the heads published in
 * ai-on-gke and inference-benchmark pull requests (real-logs/gke-lpg, cut as published), and the
 * refusals on strings.
 */
class GkeLpgFormatTest {
  static final Path CONSTRUCTED = Path.of("src/test/resources/constructed/gke-lpg");
  static final Path REAL = Path.of("src/test/resources/real-logs/gke-lpg");
  static final Path AI_ON_GKE = CONSTRUCTED.resolve("benchmark-vllm-1.0qps-20241101-171502-meta-llama-Llama-2-7b-hf.json");
  static final Path IHC = CONSTRUCTED.resolve("benchmark-vllm-10.0qps-20250402-101112-meta-llama-Llama-3.1-8B-Instruct.json");
  static final Path FIRST = CONSTRUCTED.resolve("jetstream-20qps-gemma-7b-20240925-180211.json");

  @TempDir
  Path tmp;

  final GkeLpgFormat format = new GkeLpgFormat();
  final FormatRegistry registry = FormatRegistry.standard();

  String sniff(Path p) throws IOException {
    byte[] b = Files.readAllBytes(p);
    InputFormat f = registry.sniff(new Sample(p.getFileName().toString(), b, Math.min(b.length, 64 << 10)));
    return f == null ? null : f.id();
  }

  CollectingSink read(Path p) throws IOException {
    return Parsing.parse(format, Files.readAllBytes(p), "dir");
  }

  CollectingSink read(String text) throws IOException {
    return Parsing.parse(format, text);
  }

  static List<String> reasons(CollectingSink s) {
    return s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList();
  }

  @Test
  void aiOnGkeResultIsARunAtItsRequestRate() throws IOException {
    assertEquals("gke-lpg-json", sniff(AI_ON_GKE));
    CollectingSink s = read(AI_ON_GKE);
    assertEquals(1, s.records);
    assertEquals(List.of(), s.rejects);
    assertEquals("request_rate", s.levels.get("dir")[0]);
    assertEquals(1.0, s.levels.get("dir")[1]);
    List<String> r = s.reported;
    // request and per-output-token latency in ms, per-token latency and TTFT in seconds
    assertTrue(r.contains("dir 1.0 latency avg 6284.16 ms"), r.toString());
    assertTrue(r.contains("dir 1.0 latency p99 11702.4 ms"), r.toString());
    assertTrue(r.contains("dir 1.0 per_output_token_latency median 64.9 ms"), r.toString());
    assertTrue(r.contains("dir 1.0 per_token_latency avg 0.03693258923504509 s"), r.toString());
    assertTrue(r.contains("dir 1.0 TTFT p90 0.6 s"), r.toString());
    assertTrue(r.contains("dir 1.0 output_len sd 50.1 tokens"), r.toString());
    // throughput is output tokens a second beside throughput_rps
    assertTrue(r.contains("dir 1.0 throughput value 66.70035430825739 tokens/s"), r.toString());
    assertTrue(r.contains("dir 1.0 throughput_rps value 0.6302395682669989 requests/s"), r.toString());
    assertTrue(r.contains("dir 1.0 output_tokens_per_min value 4002.0212584954434 tokens/min"), r.toString());
    assertTrue(r.contains("dir 1.0 total_output_token value 6350.0 tokens"), r.toString());
    assertTrue(r.contains("dir 1.0 num_prompts_succeeded value 60.0 requests"), r.toString());
    assertTrue(r.contains("dir 1.0 ServerDisconnectedError value 0.0 requests"), r.toString());
    assertTrue(r.contains("dir 1.0 request_rate value 1.0 requests/s"), r.toString());
    // the server's Prometheus figures, a unit only where the metric's name says it
    assertTrue(r.contains("dir 1.0 vllm:time_to_first_token_seconds P99 0.18 s"), r.toString());
    assertTrue(r.contains("dir 1.0 vllm:gpu_cache_usage_perc Mean 0.031 null"), r.toString());
    // 12 run figures, 6 error counts, 6 × 7 statistics, 7 + 6 server figures
    assertEquals(12 + 6 + 42 + 13, r.size(), r.toString());
  }

  @Test
  void inferenceBenchmarkResultOf2025IsInMilliseconds() throws IOException {
    assertEquals("gke-lpg-json", sniff(IHC));
    CollectingSink s = read(IHC);
    assertEquals(1, s.records);
    assertEquals(List.of(), s.rejects);
    assertEquals(10.0, s.levels.get("dir")[1]);
    List<String> r = s.reported;
    assertTrue(r.contains("dir 10.0 TTFT avg 4726.53264292717 ms"), "TTFT_ms, named TTFT in ms: " + r);
    assertTrue(r.contains("dir 10.0 ITL min 0.008500099182128906 ms"), r.toString());
    assertTrue(r.contains("dir 10.0 per_token_latency p99 208.02486801858666 ms"), r.toString());
    assertTrue(r.contains("dir 10.0 latency median 23990.890625 ms"), r.toString());
    assertTrue(r.contains("dir 10.0 normalized_time_per_output_token p99 421.6 ms"), r.toString());
    assertTrue(r.contains("dir 10.0 tokens_per_sec value 565.2528310529709 tokens/s"), r.toString());
    assertTrue(r.contains("dir 10.0 TimeoutError value 1.0 requests"), r.toString());
    assertTrue(r.contains("dir 10.0 vllm:prompt_tokens_total Rate 310.2 null"), r.toString());
    assertTrue(r.contains("dir 10.0 vllm:request_queue_time_seconds P95 30.1 s"), r.toString());
    assertTrue(r.stream().noneMatch(x -> x.startsWith("dir 10.0 vllm:request_queue_time_seconds Median")),
        "Prometheus' NaN (no sample in the window) is no figure: " + r);
  }

  @Test
  void theFirstLayoutIsInSecondsWithItsServerFiguresAsText() throws IOException {
    assertEquals("gke-lpg-json", sniff(FIRST));
    CollectingSink s = read(FIRST);
    assertEquals(List.of(), s.rejects);
    assertEquals(20.0, s.levels.get("dir")[1]);
    List<String> r = s.reported;
    // September 2024: only averages, request latency and per-output-token latency in seconds
    assertTrue(r.contains("dir 20.0 latency avg 7.175992427666982 s"), r.toString());
    assertTrue(r.contains("dir 20.0 per_output_token_latency avg 0.35792783426739533 s"), r.toString());
    assertTrue(r.contains("dir 20.0 num_prompts value 600.0 requests"), r.toString());
    assertTrue(r.contains("dir 20.0 jetstream_prefill_backlog_size Std 42.846703490467036 null"), r.toString());
    assertTrue(r.stream().noneMatch(x -> x.contains(" throughput ")), "this layout has no throughput: " + r);
  }

  @Test
  void publishedHeadsAreClaimedAndRejectedAsCut() throws IOException {
    Object[][] heads = {{"aiongke-pr850-head.json", 30L}, {"aiongke-pr868-head.json", 21L}, {"ihc-pr34-head.json", 35L}};
    for (Object[] h : heads) {
      Path p = REAL.resolve((String) h[0]);
      assertEquals("gke-lpg-json", sniff(p), p.toString());
      CollectingSink s = read(p);
      assertEquals(0, s.records, p.toString());
      assertEquals(List.of(h[1] + ": truncated JSON: the input ends inside a value; the result's metrics were not"
          + " read whole, none of its figures kept"), reasons(s), p.toString());
      assertEquals(List.of(), s.reported, "the unit of a figure may depend on keys after the cut");
    }
  }

  static final String HEAD = "{\"metrics\": {\"num_prompts_attempted\": 3, \"num_prompts_succeeded\": 3, \"queries_per_second\": 2.5, ";
  static final String TAIL = "\"benchmark_time\": 3.0, \"throughput_rps\": 1.0, \"throughput\": 30.0,"
      + " \"total_output_token\": 90, \"avg_latency\": 1000.0, \"median_latency\": 900.0, \"p99_latency\": 1900.0}";

  @Test
  void badFiguresAreRejectsNamingThemAndTheRestIsKept() throws IOException {
    CollectingSink s = read(HEAD + "\"request_rate\": 2.0, \"avg_TTFT\": -0.5, \"sd_TTFT\": 0.1,"
        + " \"total_input_tokens\": 2.5, \"tokens_per_min\": \"fast\", \"p90_TTFT\": Infinity, \"min_TTFT\": NaN, " + TAIL + "}");
    assertEquals(1, s.records);
    assertEquals(List.of(
        "1: metrics.tokens_per_min: expected a number, got \"fast\"; not kept",
        "1: avg_TTFT out of range: -0.5 (a latency, count or throughput is not negative); not kept",
        "1: total_input_tokens: 2.5 is no whole number (a count of requests or tokens); not kept",
        "1: p90_TTFT: Infinity is no finite number; not kept"), reasons(s));
    assertTrue(s.reported.contains("dir 2.0 TTFT sd 0.1 s"), s.reported.toString());
    assertTrue(s.reported.contains("dir 2.0 latency p99 1900.0 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir 2.0 queries_per_second value 2.5 requests/s"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(x -> x.contains("TTFT min")), "numpy's NaN of no value is no figure");
  }

  @Test
  void theDefaultInfiniteRateIsNoLevelAndZerosOfNoSuccessAreNoFigures() throws IOException {
    CollectingSink s = read("{\"metrics\": {\"num_prompts_attempted\": 3, \"num_prompts_succeeded\": 0,"
        + " \"request_rate\": Infinity, \"benchmark_time\": 3.0, \"throughput_rps\": 1.0, \"throughput\": 0.0,"
        + " \"total_output_token\": 0, \"avg_latency\": 0, \"median_latency\": 0, \"sd_latency\": 0, \"min_latency\": 0,"
        + " \"max_latency\": 0, \"p90_latency\": 0, \"p99_latency\": 0, \"TimeoutError\": 3},"
        + " \"summary_stats\": {\"stats\": [{\"request_rate\": Infinity}]}}");
    assertEquals(1, s.records);
    assertEquals(List.of(), s.rejects);
    assertNull(s.levels.get("dir")[0], "every request sent at once: no rate");
    assertTrue(s.reported.contains("dir null TimeoutError value 3.0 requests"), s.reported.toString());
    assertTrue(s.reported.contains("dir null throughput value 0.0 tokens/s"), s.reported.toString());
    assertTrue(s.reported.stream().noneMatch(x -> x.contains("latency") || x.contains("request_rate")), s.reported.toString());
  }

  @Test
  void refusalsSayWhy() throws IOException {
    CollectingSink rate = read(HEAD + "\"request_rate\": -1, " + TAIL + "}");
    assertEquals(0, rate.records);
    assertEquals(List.of("1: metrics.request_rate: a request rate must be a positive number (got -1.0); the run has"
        + " no level, none of its figures kept"), reasons(rate));
    assertEquals(List.of(), rate.reported);

    // a vLLM result named with --from gke-lpg-json
    CollectingSink vllm = read(VllmBenchFormatTest.DETAILED);
    assertEquals(List.of("1: " + GkeLpgFormat.NOT_OURS), reasons(vllm));
    CollectingSink array = read("[1, 2]");
    assertEquals(1, array.rejects.size());
    assertTrue(array.rejects.get(0).reason().startsWith(GkeLpgFormat.NOT_OURS), reasons(array).toString());

    // cut after the metrics: the figures are whole and kept, the cut is a reject
    CollectingSink cut = read(HEAD + "\"request_rate\": 2.0, " + TAIL + ",\n\"dimensions\": {\"backend\": \"vl");
    assertEquals(1, cut.records);
    assertEquals(List.of("2: truncated JSON: the input ends inside a value (after the metrics, which are kept);"
        + " nothing after this point could be read"), reasons(cut));
    assertTrue(cut.reported.contains("dir 2.0 latency avg 1000.0 ms"), cut.reported.toString());

    CollectingSink repeated = read(HEAD + "\"request_rate\": 2.0, \"avg_latency\": 5.0, " + TAIL + "}");
    assertEquals(List.of("1: metrics.avg_latency: repeated in the object (the first is kept); not kept"), reasons(repeated));
    assertTrue(repeated.reported.contains("dir 2.0 latency avg 5.0 ms"), repeated.reported.toString());
    assertEquals(1, repeated.reported.stream().filter(x -> x.contains("latency avg")).count());

    // a second copy appended (>>)
    String one = HEAD + "\"request_rate\": 2.0, " + TAIL + "}";
    CollectingSink twice = read(one + "\n" + one);
    assertEquals(1, twice.records);
    assertEquals(1, twice.rejects.size());
    assertTrue(twice.rejects.get(0).reason().startsWith("more JSON after the result object"), reasons(twice).toString());
  }

  @Test
  void neitherThisFormatNorVllmsClaimsTheOthersFiles() throws IOException {
    VllmBenchFormat vllm = new VllmBenchFormat();
    for (Path p : List.of(AI_ON_GKE, IHC, FIRST, REAL.resolve("aiongke-pr850-head.json"), REAL.resolve("ihc-pr34-head.json"))) {
      byte[] b = Files.readAllBytes(p);
      assertEquals(0, vllm.sniff(new Sample(p.getFileName().toString(), b, b.length)), p.toString());
    }
    for (Path p : List.of(Path.of("sample-logs/peers/vllm-bench/vllm-bench-result.json"),
        Path.of("src/test/resources/real-logs/tools/vllm-ascend-nightly-2025-02/serving_llama8B_tp1_qps_inf.json"),
        Path.of("src/test/resources/real-logs/tools/vllm-2026-gemma4-rate8/result-long-rate8.json"),
        Path.of("src/test/resources/real-logs/tools/vllm-bench-allfailed-2026-benchmaxxing/run_1_TP4_DP2_CTX2048_C100_P100_O128.json"),
        Path.of("src/test/resources/real-logs/tools/vllm-dstack-pd-1p3d-c128/1p3d_conc128_in128_out2048_20250914_020816.json"))) {
      byte[] b = Files.readAllBytes(p);
      Sample sample = new Sample(p.getFileName().toString(), b, Math.min(b.length, 64 << 10));
      assertEquals(0, format.sniff(sample), p.toString());
      assertEquals("vllm-bench-json", registry.sniff(sample).id(), p.toString());
    }
    // the fork's result named with --from vllm-bench-json: a reject, never its figures as vLLM's
    CollectingSink asVllm = Parsing.parse(vllm, Files.readAllBytes(AI_ON_GKE), "dir");
    assertEquals(0, asVllm.records);
    assertEquals(List.of(), asVllm.reported);
  }

  @Test
  void aFolderOfResultsIsARunPerFileInTheDatabase() throws Exception {
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(tmp)) {
      t.ingest(dev.tokentime.app.IngestOptions.of(List.of(CONSTRUCTED.toString())));
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"));
      assertEquals(3L, t.count("SELECT count(*) FROM sources WHERE format = 'gke-lpg-json'"));
      assertEquals(List.of(List.of("request_rate", 1.0), List.of("request_rate", 10.0), List.of("request_rate", 20.0)),
          t.rows("SELECT level_kind, level FROM runs ORDER BY level"));
      assertEquals(4726.53264292717, (Double) t.value("SELECT value FROM reported_metrics WHERE metric = 'TTFT'"
          + " AND stat = 'avg' AND unit = 'ms'"), 1e-9);
      assertEquals(0L, t.count("SELECT count(*) FROM requests"), "the tool writes no per-request data");
    }
  }
}
