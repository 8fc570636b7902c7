package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.CollectingSink;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SGLang bench_serving JSONL on strings: one run per line, Python's Infinity, bad lines. */
class SglangBenchFormatTest {
  final SglangBenchFormat format = new SglangBenchFormat();

  static final String LINE = "{\"backend\":\"sglang\",\"request_rate\":Infinity,\"max_concurrency\":null,\"duration\":1.0,"
      + "\"completed\":2,\"total_output_tokens_retokenized\":5,\"request_throughput\":2.0,\"mean_e2e_latency_ms\":110.0,"
      + "\"p95_itl_ms\":38.0,\"input_lens\":[10,20],\"output_lens\":[3,2],\"ttfts\":[0.1,0.05],\"itls\":[[0.02,0.04],[0.01]],"
      + "\"generated_texts\":[\"abc\",\"de\"],\"errors\":[\"\",\"\"]}";

  @Test
  void eachLineIsARun() throws IOException {
    CollectingSink s = Parsing.parse(format, LINE + "\n" + LINE.replace("Infinity", "8.0") + "\n");
    assertEquals(List.of("dir", "dir", "dir#2", "dir#2"), s.requests.stream().map(CollectingSink.Req::run).toList());
    assertEquals(null, s.levels.get("dir")[0], "an infinite rate without a concurrency cap is no level");
    assertEquals(8.0, s.levels.get("dir#2")[1]);
    assertTrue(s.reported.contains("dir null e2e_latency mean 110.0 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir null itl p95 38.0 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir null duration value 1.0 s"), s.reported.toString());
    assertEquals(6, s.records, "2 run lines + 4 request entries");
    assertEquals(List.of(100_000_000L, 120_000_000L, 160_000_000L),
        s.tokens.subList(0, 3).stream().map(CollectingSink.Tok::tsNs).toList(), "request-relative times");
    assertEquals(4, s.clocks.size(), "no start times: one clock per request");
  }

  /** SGLang's LoRA bench writes the duration twice, once as benchmark_duration_s: seconds both times (it was a count). */
  @Test
  void aDurationInSecondsByItsNameIsInSeconds() throws IOException {
    CollectingSink s = Parsing.parse(format, LINE.replace("\"duration\":1.0", "\"benchmark_duration_s\":1.5,\"duration\":1.5") + "\n");
    assertTrue(s.reported.contains("dir null benchmark_duration_s value 1.5 s"), s.reported.toString());
    // a rate named in per-second units is no duration (only *duration_s is)
    CollectingSink rate = Parsing.parse(format, LINE.replace("\"duration\":1.0", "\"duration\":1.0,\"request_throughput_req_s\":3.0") + "\n");
    assertTrue(rate.reported.contains("dir null request_throughput_req_s value 3.0 requests/s"), rate.reported.toString());
    // a key neither tool writes (a wrapper's gamma shape, a per-GPU figure) has no unit guessed:
    // InferenceX's burstiness was a "count"
    CollectingSink odd = Parsing.parse(format, LINE.replace("\"duration\":1.0", "\"duration\":1.0,\"burstiness\":1.0,"
        + "\"tput_per_gpu\":812.5") + "\n");
    assertTrue(odd.reported.contains("dir null burstiness value 1.0 null"), odd.reported.toString());
    assertTrue(odd.reported.contains("dir null tput_per_gpu value 812.5 null"), odd.reported.toString());
  }

  /**
   * bench_one_batch_server's result lines (the shape of SGLang 0.5.13's, written here by hand; the
   * public ones found sit in a repository of unknown licence): "format not recognised" before, and
   * forced, latency and TTFT were counts and the throughputs requests/s. A run each, at the batch's
   * concurrency; -1, SGLang's "does not apply", is no figure.
   */
  @Test
  void oneBatchResultsAreARunAtTheBatchSize() throws IOException {
    String line = "{\"run_name\": \"default\", \"batch_size\": 33, \"input_len\": 8192, \"output_len\": 65536,"
        + " \"latency\": 3998.5722, \"input_throughput\": 3374.0, \"output_throughput\": 551.92, \"overall_throughput\": 608.47,"
        + " \"last_ttft\": 80.1232, \"last_gen_throughput\": 66.18, \"acc_length\": -1.0, \"cache_hit_rate\": null}";
    byte[] b = (line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals("sglang-bench-jsonl", dev.tokentime.ingest.FormatRegistry.standard()
        .sniff(new dev.tokentime.ingest.Sample("results_b33.jsonl", b, b.length)).id());
    CollectingSink s = Parsing.parse(format, line + "\n" + line.replace("\"batch_size\": 33", "\"batch_size\": 64") + "\n");
    assertEquals(List.of(), s.rejects);
    assertEquals(33.0, s.levels.get("dir")[1]);
    assertEquals(64.0, s.levels.get("dir#2")[1]);
    for (String want : List.of("dir 33.0 latency value 3998.5722 s", "dir 33.0 last_ttft value 80.1232 s",
        "dir 33.0 overall_throughput value 608.47 tokens/s", "dir 33.0 last_gen_throughput value 66.18 tokens/s",
        "dir 33.0 output_len value 65536.0 tokens", "dir 33.0 batch_size value 33.0 requests")) {
      assertTrue(s.reported.contains(want), want + " in " + s.reported);
    }
    assertTrue(s.reported.stream().noneMatch(r -> r.contains("acc_length")), s.reported.toString());
    // a batch of 2.5 requests, a negative latency, a hit rate of 57.3: rejects, not figures or levels
    // (the line's other figures are kept, as for any bad field of a result: BenchResult)
    CollectingSink bad = Parsing.parse(format, line.replace("\"batch_size\": 33", "\"batch_size\": 2.5") + "\n"
        + line.replace("\"latency\": 3998.5722", "\"latency\": -3.0") + "\n"
        + line.replace("\"cache_hit_rate\": null", "\"cache_hit_rate\": 57.3") + "\n");
    assertEquals(List.of("1: batch_size: 2.5 is no number of requests", "2: latency: -3.0 out of range",
        "3: cache_hit_rate: 57.3 out of range (a share, 0 to 1)"),
        bad.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
    assertTrue(bad.reported.stream().noneMatch(r -> r.contains("batch_size value 2.5") || r.contains("latency value -3.0")
        || r.contains("cache_hit_rate")), bad.reported.toString());
    assertEquals(null, bad.levels.get("dir")[1], "no level from a batch of 2.5");
  }

  @Test
  void badLinesAreRejected() throws IOException {
    String wrongType = LINE.replace("\"output_lens\":[3,2]", "\"output_lens\":[3,\"two\"]");
    CollectingSink s = Parsing.parse(format, LINE.substring(0, 60) + "\n" + wrongType + "\n[1]\n\n");
    List<String> reasons = s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList();
    assertEquals(3, reasons.size(), reasons.toString());
    assertTrue(reasons.get(0).startsWith("1: truncated JSON"), reasons.get(0));
    assertTrue(reasons.get(1).startsWith("2: output_lens[1]: expected"), reasons.get(1));
    assertTrue(reasons.get(2).startsWith("3: not a JSON object"), reasons.get(2));
    assertEquals(1, s.other);
  }

  /**
   * A script's own text lines between the runs it appended (sgl-project/sglang#12389:
   * "max_prefill:8192,max_running_requests:64,…" before each run): each is a reject saying so, the
   * file is still recognised, and its one run keeps the file's run name (it was "dir#2": the
   * rejected line before it had taken the first).
   */
  @Test
  void textLinesAmongTheRunsAreRejectsThatTakeNoRunName() throws IOException {
    String text = "max_prefill:8192,max_running_requests:64,torch_compile:False,is_dp:False";
    String file = text + "\n" + LINE + "\n\n" + text + "\n";
    CollectingSink s = Parsing.parse(format, file);
    assertEquals(List.of("dir", "dir"), s.requests.stream().map(CollectingSink.Req::run).toList());
    assertEquals(List.of(1L, 4L), s.rejects.stream().map(CollectingSink.Rej::lineNo).toList());
    assertTrue(s.rejects.get(0).reason().startsWith("not a JSON record: a line of text"), s.rejects.get(0).reason());
    byte[] b = file.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(90, format.sniff(new dev.tokentime.ingest.Sample("bench.jsonl", b, b.length)));
  }

  /**
   * sglang.benchmark (2026): a trace replayed at its own times writes "request_rate": "trace"
   * (the whole line was a reject), and its metrics module writes its dataclass's totals
   * (total_input, …) and --output-details nested in "details" (read as nothing, no reject).
   * Files built from the writers: src/test/resources/constructed/sglang-bench-2026 (README).
   */
  @Test
  void the2026LayoutsTraceRateTotalsAndNestedDetails() throws Exception {
    java.nio.file.Path dir = java.nio.file.Path.of("src/test/resources/constructed/sglang-bench-2026");
    CollectingSink trace = Parsing.parse(format, java.nio.file.Files.readAllBytes(dir.resolve("mooncake-trace-timestamps.jsonl")), "dir");
    assertEquals(List.of(), trace.rejects);
    assertEquals(2, trace.requests.size());
    assertEquals(null, trace.levels.get("dir")[0], "a replayed trace sets no rate");
    assertTrue(trace.reported.contains("dir null ttft mean 50.0 ms"), trace.reported.toString());

    CollectingSink nested = Parsing.parse(format, java.nio.file.Files.readAllBytes(dir.resolve("sglang_1207_2_50_3.jsonl")), "dir");
    assertEquals(List.of(), nested.rejects);
    assertEquals(2, nested.requests.size());
    assertEquals(6, nested.tokens.size(), "3 chunks each, from ttfts and itls");
    for (String f : List.of("total_input_tokens value 100.0 tokens", "total_output_tokens value 6.0 tokens",
        "total_output_tokens_retokenized value 6.0 tokens", "output_throughput_retokenized value 1.5 tokens/s",
        "total_throughput_retokenized value 26.5 tokens/s", "itl max 20.0 ms")) {
      assertTrue(nested.reported.contains("dir 4.0 " + f), f + " in " + nested.reported);
    }
  }
}
