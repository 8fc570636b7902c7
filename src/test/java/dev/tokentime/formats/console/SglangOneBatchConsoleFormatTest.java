package dev.tokentime.formats.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.formats.console.PerfAnalyzerFormatsTest.Read;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SGLang bench_one_batch_server's printed cases: a run each at its batch size, the figures under
 * the names and units of its result line (sglang-bench-jsonl); the warm-up case is no run.
 */
class SglangOneBatchConsoleFormatTest {
  @Test
  void theWarmUpIsNoRunAndTheCaseIsOneAtItsBatchSize() throws IOException {
    Read r = PerfAnalyzerFormatsTest.read(PerfAnalyzerFormatsTest.CONSOLE.resolve(
        "sglang-one-batch-server-warmup-terraform-tutorial.txt"));
    PerfAnalyzerFormatsTest.counts(r, "sglang-one-batch-console", 8, 19, 0);
    assertEquals(List.of("r 16.0 batch_size value 16.0 requests", "r 16.0 input_len value 1024.0 tokens",
        "r 16.0 output_len value 1024.0 tokens", "r 16.0 latency value 12.55 s",
        "r 16.0 input_throughput value 50307.77 tokens/s", "r 16.0 output_throughput value 1340.45 tokens/s",
        "r 16.0 last_ttft value 0.33 s", "r 16.0 last_gen_throughput value 1337.14 tokens/s"), r.sink().reported);
    assertEquals("concurrency", r.sink().levels.get("r")[0]);
    assertEquals(16.0, r.sink().levels.get("r")[1]);
  }

  @Test
  void the2024And2025PrintsAndACutFigure() throws IOException {
    // 2024: no warm-up markers, token/s, the overall throughput; 2025: ttft (the last request's)
    Read r = PerfAnalyzerFormatsTest.read("one_batch.log", "batch size: 1\nlatency: 0.42 s\noutput throughput: 19.05 token/s\n"
        + "(input + output) throughput: 2457.14 token/s\n"
        + "batch size: 64\ninput_len: 1024\noutput_len: 8\nlatency: 1.93 s\nttft: 1.52 s\n"
        + "last generation throughput: 96.61 tok/s\ninput throughput: 43115.7 tok/s\noutput throughput: 1248.8 tok/s\n"
        + "acc_length: 2.41 \ncache hit rate: 0.0000\nlatency: 3.1\n\nResults are saved to result.jsonl\n");
    PerfAnalyzerFormatsTest.counts(r, "sglang-one-batch-console", 14, 2, 1);
    assertEquals(15, r.sink().rejects.get(0).lineNo());
    assertTrue(r.sink().rejects.get(0).reason().startsWith("a cut line"), r.sink().rejects.toString());
    List<String> m = r.sink().reported;
    assertTrue(m.containsAll(List.of("r 1.0 output_throughput value 19.05 tokens/s", "r 1.0 overall_throughput value 2457.14 tokens/s",
        "r#2 64.0 last_ttft value 1.52 s", "r#2 64.0 last_gen_throughput value 96.61 tokens/s",
        "r#2 64.0 acc_length value 2.41 tokens", "r#2 64.0 cache_hit_rate value 0.0 ratio")), m.toString());
    assertEquals(64.0, r.sink().levels.get("r#2")[1]);
  }

  @Test
  void aBatchSizeNoRunCanHaveIsARejectAndItsFiguresNoRunsFigures() throws IOException {
    Read r = PerfAnalyzerFormatsTest.read("one_batch.log", "batch size: 0\nlatency: 1.0 s\nttft: 0.1 s\n"
        + "batch size: " + "9".repeat(400) + "\nlatency: 1.0 s\nttft: 0.1 s\n"
        + "batch size: 4\nlatency: 2.0 s\nttft: 0.1 s\n");
    PerfAnalyzerFormatsTest.counts(r, "sglang-one-batch-console", 3, 4, 2);
    assertEquals(List.of("bench_one_batch_server's batch size: concurrency must be a whole number of requests, 1 or more",
        "bench_one_batch_server's batch size: concurrency must be a whole number of requests, 1 or more"),
        r.sink().rejects.stream().map(x -> x.reason()).toList());
    assertEquals(List.of("r"), List.copyOf(r.sink().levels.keySet()));
    assertEquals(List.of("r 4.0 batch_size value 4.0 requests", "r 4.0 latency value 2.0 s", "r 4.0 last_ttft value 0.1 s"),
        r.sink().reported);
  }

  @Test
  void aBatchSizeWithoutItsFiguresIsNotClaimed() {
    for (String text : List.of("batch size: 4\nsomething\n", "latency: 0.42 s\noutput throughput: 19.05 token/s\n")) {
      byte[] b = text.getBytes(StandardCharsets.UTF_8);
      InputFormat f = FormatRegistry.standard().sniff(new Sample("x.log", b, b.length));
      assertNull(f == null ? null : f.id(), text);
    }
  }
}
