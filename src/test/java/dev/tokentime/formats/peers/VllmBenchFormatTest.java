package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.CollectingSink;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** vllm bench serve / benchmark_serving.py result JSON on strings. */
class VllmBenchFormatTest {
  final VllmBenchFormat format = new VllmBenchFormat();

  static final String DETAILED = "{\"backend\":\"vllm\",\"max_concurrency\":8,\"request_rate\":\"inf\",\"duration\":2.0,"
      + "\"completed\":2,\"mean_ttft_ms\":150.0,\"p99_itl_ms\":30.0,\"request_throughput\":1.0,"
      + "\"input_lens\":[10,20],\"output_lens\":[3,1],\"ttfts\":[0.1,0.2],\"itls\":[[0.01,0.02],[]],"
      + "\"start_times\":[5.0,5.5],\"latencies\":[0.13,0.2],\"generated_texts\":[\"abc\",\"d\"],\"errors\":[\"\",\"\"]}";

  /**
   * A run with a speculator: the acceptance figures, per position too, as its console prints them
   * (the file's per-position figures are fractions, vllm 0.25.1's result: 0.85, 0.7167, 0.5944).
   * A multi-turn run's durations in ms are ms.
   */
  @Test
  void speculativeDecodingFiguresWithTheirUnitsAndEachPosition() throws IOException {
    CollectingSink s = Parsing.parse(format, "{\"backend\":\"vllm\",\"max_concurrency\":4,\"completed\":2,"
        + "\"spec_decode_acceptance_rate\":47.16,\"spec_decode_acceptance_length\":4.77,\"spec_decode_num_drafts\":446819,"
        + "\"spec_decode_draft_tokens\":3574552,\"spec_decode_accepted_tokens\":1685779,"
        + "\"spec_decode_per_position_acceptance_rates\":[0.8227,0.6616],\"avg_conversation_duration_ms\":96998.812}");
    for (String f : List.of("spec_decode_acceptance_rate value 47.16 %", "spec_decode_acceptance_length value 4.77 tokens",
        "spec_decode_num_drafts value 446819.0 count", "spec_decode_draft_tokens value 3574552.0 tokens",
        "spec_decode_per_position_acceptance_rates position_0 82.27 %",
        "spec_decode_per_position_acceptance_rates position_1 66.16 %",
        "avg_conversation_duration_ms value 96998.812 ms")) {
      assertTrue(s.reported.contains("dir 4.0 " + f), f + " in " + s.reported);
    }
  }

  /** vllm bench serve's multi-turn mode (2026) states its concurrency as multi_turn_concurrency. */
  @Test
  void aMultiTurnRunsConcurrencyIsItsLevel() throws IOException {
    CollectingSink s = Parsing.parse(format, "{\"mode\":\"multi_turn\",\"max_concurrency\":null,"
        + "\"multi_turn_concurrency\":2,\"completed\":16,\"request_throughput\":0.164,\"mean_ttft_ms\":958.3}");
    assertTrue(s.reported.contains("dir 2.0 ttft mean 958.3 ms"), s.reported.toString());
  }

  /** One start time out of range is that request's reject; the file's other requests are read. */
  @Test
  void aStartTimeOutOfRangeRejectsItsRequestOnly() throws IOException {
    CollectingSink s = Parsing.parse(format, DETAILED.replace("\"start_times\":[5.0,5.5]", "\"start_times\":[5.0,-1e19]"));
    assertEquals(1, s.requests.size());
    assertEquals(List.of("request 1: start_times[1] out of range: -1.0E19 s"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
  }

  /** NaN, Infinity and 1e400 in a run's figures were dropped unsaid (the cut-lines review): a reject each. */
  @Test
  void aFigureThatIsNoFiniteNumberIsARejectNotDroppedUnsaid() throws IOException {
    CollectingSink s = Parsing.parse(format, "{\"backend\":\"vllm\",\"max_concurrency\":4,\"completed\":2,"
        + "\"duration\":1e400,\"mean_ttft_ms\":NaN,\"p99_ttft_ms\":Infinity,\"median_ttft_ms\":12.5}\n");
    assertEquals(List.of("duration: Infinity is no finite number; not kept", "ttft mean: NaN is no finite number; not kept",
        "ttft p99: Infinity is no finite number; not kept"), s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertTrue(s.reported.contains("dir 4.0 ttft median 12.5 ms"), s.reported.toString());
    assertEquals(1, s.records);
  }

  /** A negative latency or an acceptance rate over 100 % is a reject naming it (made-up values). */
  @Test
  void aFigureOutOfRangeIsARejectNamingIt() throws IOException {
    CollectingSink s = Parsing.parse(format, "{\"backend\":\"vllm\",\"max_concurrency\":4,\"completed\":2,"
        + "\"mean_ttft_ms\":-5.0,\"spec_decode_acceptance_rate\":250.0,\"median_ttft_ms\":12.5}\n");
    assertEquals(List.of("ttft mean out of range: -5.0 (a latency, count or throughput is not negative); not kept",
        "spec_decode_acceptance_rate out of range: 250.0 % (a percentage, 0 to 100); not kept"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertTrue(s.reported.contains("dir 4.0 ttft median 12.5 ms"), s.reported.toString());
  }

  @Test
  void detailedArraysBecomeRequestsAndChunks() throws IOException {
    CollectingSink s = Parsing.parse(format, DETAILED);
    assertEquals(2, s.requests.size());
    assertEquals(3, s.records, "the run object and two request entries");
    assertEquals(List.of(5_100_000_000L, 5_110_000_000L, 5_130_000_000L, 5_700_000_000L),
        s.tokens.stream().map(CollectingSink.Tok::tsNs).toList(), "start + ttft + running sum of itls");
    assertEquals(5_000_000_000L, s.requests.get(0).arrivalNs());
    assertEquals("concurrency", s.levels.get("dir")[0]);
    assertEquals(8.0, s.levels.get("dir")[1]);
    assertTrue(s.reported.contains("dir 8.0 ttft mean 150.0 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir 8.0 itl p99 30.0 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir 8.0 duration value 2.0 s"), s.reported.toString());
    assertEquals(1, s.clocks.size(), "one perf_counter clock for the run");
  }

  @Test
  void theOlderScriptsQuirksAndAppendedResults() throws IOException {
    // benchmark_serving.py: "request_goodput:" with a colon, no failed/latencies/start_times
    String old = "{\"backend\":\"vllm\",\"request_rate\":4.0,\"duration\":10.0,\"completed\":1,\"request_goodput:\":0.1,"
        + "\"request_throughput\":0.1,\"mean_ttft_ms\":100.0,\"input_lens\":[16],\"output_lens\":[2],\"ttfts\":[0.1],"
        + "\"itls\":[[0.01]],\"generated_texts\":[\"hi\"],\"errors\":[\"\"]}";
    CollectingSink s = Parsing.parse(format, DETAILED + "\n" + old + "\n");
    assertEquals(List.of("dir", "dir", "dir#2"), s.requests.stream().map(CollectingSink.Req::run).toList());
    assertTrue(s.reported.contains("dir#2 4.0 request_goodput value 0.1 requests/s"), s.reported.toString());
    assertEquals("request_rate", s.levels.get("dir#2")[0]);
    assertEquals(0L, s.requests.get(2).arrivalNs(), "no start times: the request's own clock, from 0");
    assertEquals(2, s.clocks.size(), "the first run's clock and one request-relative clock");
  }

  @Test
  void badInputIsRejectedAndAccountedFor() throws IOException {
    String mismatch = DETAILED.replace("\"ttfts\":[0.1,0.2]", "\"ttfts\":[0.1]");
    CollectingSink a = Parsing.parse(format, mismatch);
    assertEquals(1, a.rejects.size());
    assertTrue(a.rejects.get(0).reason().contains("ttfts has 1 entries but input_lens has 2")
        || a.rejects.get(0).reason().contains("disagree"), a.rejects.get(0).reason());
    assertTrue(a.reported.size() > 0, "the run figures are kept");

    String wrongType = DETAILED.replace("\"ttfts\":[0.1,0.2]", "\"ttfts\":[0.1,\"x\"]");
    CollectingSink b = Parsing.parse(format, wrongType);
    assertTrue(b.rejects.get(0).reason().contains("ttfts[1]: expected a number"), b.rejects.toString());
    assertEquals(0, b.requests.size());

    String negative = DETAILED.replace("[[0.01,0.02],[]]", "[[0.01,-0.02],[]]");
    CollectingSink c = Parsing.parse(format, negative);
    assertEquals(1, c.requests.size());
    assertTrue(c.rejects.get(0).reason().startsWith("request 0: timestamps decrease"), c.rejects.toString());

    CollectingSink d = Parsing.parse(format, DETAILED + "\n" + DETAILED.substring(0, 80));
    assertEquals(2, d.requests.size(), "the complete first object is kept");
    assertEquals(1, d.rejects.size());
    assertTrue(d.rejects.get(0).reason().startsWith("truncated JSON"), d.rejects.get(0).reason());
    assertEquals(2, d.rejects.get(0).lineNo());

    CollectingSink e = Parsing.parse(format, Parsing.withInvalidUtf8(DETAILED.replace("\"abc\"", "\"@@\"")), "dir");
    assertTrue(e.rejects.get(0).reason().startsWith("invalid UTF-8"), e.rejects.toString());
  }
}
