package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.StepRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every line of the real vLLM log samples (src/test/resources/real-logs/vllm, copied from
 * ../shared/real-logs/vllm with their PROVENANCE.md) is used or counted as other, per line kind,
 * with values checked so that "other" cannot hide a miss. --year 2025, zone assumed UTC.
 */
class VllmLogRealSamplesTest {
  static final VllmLogFormat LOG = new VllmLogFormat();

  @Test
  void statsLines() throws Exception {
    Parse p = Parse.real(LOG, "stats-lines.log", Parse.ctx(2025, null, false, null));
    assertEquals(47, p.lines);
    assertEquals(Map.of("stats", 43L, "prefix_cache", 1L, "spec_decode", 3L), p.kinds());
    assertEquals(47, p.sink.records);
    assertEquals(0, p.sink.other);
    assertEquals(List.of(), p.sink.rejects);
    List<EngineStatsRecord> s = p.full.stats;
    assertEquals(47, s.size());
    // line 1: ≤0.3 shape, Ray actor prefix
    EngineStatsRecord l1 = s.get(0);
    assertEquals(Parse.ns("2025-01-25T11:26:58Z"), l1.tsNs);
    assertEquals(1, l1.running);
    assertEquals(0, l1.waiting); // "Pending: 0 reqs"
    assertEquals(0, l1.swapped);
    assertEquals(77.3, l1.genTokensPerS);
    assertEquals(0.002, l1.kvUsage, 1e-12);
    assertEquals(0.0, l1.extras.get("cpu_kv_usage"));
    assertEquals("_AsyncLLMEngine pid=1974", l1.instance);
    // line 5: docker compose service prefix
    assertEquals("qwen15-fastchat-qwen2-72b-1", s.get(4).instance);
    assertEquals(0.9, s.get(4).promptTokensPerS);
    // line 8: 0.4.2 under load: 247 running, 740 pending, KV 99.7 %
    EngineStatsRecord l8 = s.get(7);
    assertEquals(247, l8.running);
    assertEquals(740, l8.waiting);
    assertEquals(0.997, l8.kvUsage, 1e-12);
    assertEquals(Parse.ns("2025-07-24T09:55:30Z"), l8.tsNs);
    // line 13: 0.5 shape with the trailing "."
    assertEquals(0.0, s.get(12).extras.get("cpu_kv_usage"));
    assertEquals(0, s.get(12).running);
    // line 19: V0 speculative metrics, every field in extras
    assertEquals(Map.of("spec_draft_acceptance_rate", 0.642, "spec_system_efficiency", 0.598,
        "spec_number_of_speculative_tokens", 3.0, "spec_number_of_accepted_tokens", 8547.0,
        "spec_number_of_draft_tokens", 13311.0, "spec_number_of_emitted_tokens", 10616.0), s.get(18).extras);
    assertNull(s.get(18).running);
    // line 20: V0 prefix cache line
    assertEquals(0.9435, s.get(19).prefixHitRate, 1e-12);
    assertEquals(0.0, s.get(19).extras.get("cpu_prefix_hit_rate"));
    // lines 34-37: DP=2, Engine 000 / 001 at the same second, MFU suffix in extras
    EngineStatsRecord l36 = s.get(35);
    assertEquals("Engine 000", l36.instance);
    assertEquals(106, l36.running);
    assertEquals(22, l36.waiting);
    assertEquals(62998.4, l36.promptTokensPerS);
    assertEquals(Map.of("mfu_tf_s_gpu", 160.6, "mfu_gb_s_gpu", 106.9), l36.extras);
    assertEquals("Engine 001", s.get(36).instance);
    assertEquals(s.get(35).tsNs, s.get(36).tsNs);
    // line 39: V1 with prefix cache hit rate, after a 200 s idle gap
    assertEquals(0.188, s.get(38).prefixHitRate, 1e-12);
    assertEquals(200_000_000_000L, s.get(38).tsNs - s.get(37).tsNs);
    // line 43: 90 waiting requests draining
    assertEquals(10, s.get(42).running);
    assertEquals(90, s.get(42).waiting);
    assertEquals(0.193, s.get(42).kvUsage, 1e-12);
    assertEquals(List.of(new ClockSpec("wall", "vllm-log " + java.nio.file.Path.of("test.log").toAbsolutePath(),
        1_000_000_000L, "UTC", true)), p.sink.clocks);
  }

  @Test
  void requestLines() throws Exception {
    Parse p = Parse.real(LOG, "request-lines.log", Parse.ctx(2025, null, false, null));
    assertEquals(14, p.lines);
    assertEquals(Map.of("received", 4L, "added", 5L, "finished", 1L, "aborted", 1L, "generated", 3L), p.kinds());
    assertEquals(14, p.sink.records);
    assertEquals(List.of(), p.sink.rejects);
    assertEquals(10, p.full.requests.size());
    // line 1: ≤0.3 Received with prompt and sampling_params, behind a compose prefix
    RequestRecord r1 = p.full.request("d9e65a86be2a42a4917ba9fee5e97d9e");
    assertEquals(Parse.ns("2025-02-22T16:52:30Z"), r1.arrivalNs);
    assertEquals("qwen15-fastchat-qwen2-72b-1", r1.instance);
    assertEquals("256", r1.extras.get("max_tokens"));
    assertFalse(r1.extras.containsKey("prompt"), "prompt text is dropped without --keep-text");
    assertNull(r1.status, "no end line: the log ended while it was in flight");
    assertEquals(1, r1.lineNo);
    // line 3: V0 Finished request, no earlier line
    RequestRecord r3 = p.full.request("d37eacc1e8fb411e99362648eab38666");
    assertEquals("ok", r3.status);
    assertEquals(Parse.ns("2025-08-05T16:38:20Z"), r3.finishedNs);
    assertEquals(NONE, r3.arrivalNs);
    // line 5: 0.6 Received with prompt_token_ids: 9 prompt tokens
    assertEquals(9, p.full.request("cmpl-3ab8b1fe7d3946de8143ce0ae9ce9652-0").promptTokens);
    // lines 6-7: Added, then Aborted 2 s later
    RequestRecord ab = p.full.request("chatcmpl-d3e09827e54548e08ed914c0fad97b6a");
    assertEquals("cancelled", ab.status);
    assertEquals("abort", ab.finishReason);
    assertEquals(2_000_000_000L, ab.finishedNs - ab.arrivalNs);
    assertEquals(ab.arrivalNs, ab.queuedNs);
    // line 9: embedding request id
    assertEquals(Parse.ns("2025-03-24T17:28:16Z"), p.full.request("embd-274c17fe22b74306a717eec0e800e04d-0").arrivalNs);
    // lines 10-11: V1 Received + Added of one request
    RequestRecord v1 = p.full.request("chatcmpl-67ed206b1edc4811911bcc917c0a0f72");
    assertEquals(Parse.ns("2025-04-10T03:44:50Z"), v1.arrivalNs);
    assertEquals(v1.arrivalNs, v1.queuedNs);
    assertEquals("8174", v1.extras.get("max_tokens"));
    // lines 12-14: three streaming deltas of one token each, reasoning output, 1 s resolution; no
    // received or added line: the excerpt joined the request mid-stream, so neither its first
    // token nor its output length is the excerpt's to say (its chunks are kept as seen)
    RequestRecord d = p.full.request("chatcmpl-97319e51c49a6410");
    assertNull(d.outputTokens);
    assertEquals("APIServer pid=1", d.instance);
    assertEquals(NONE, d.firstTokenNs);
    assertEquals(Parse.ns("2025-05-21T00:19:06Z"), d.lastTokenNs);
    assertEquals("true", d.extras.get("joined_mid_stream"));
    assertEquals(3, p.sink.tokens.size());
    p.sink.tokens.forEach(t -> {
      assertEquals(1, t.nTokens());
      assertEquals(ChunkKind.REASONING, t.kind());
      assertEquals(Parse.ns("2025-05-21T00:19:06Z"), t.tsNs());
    });
  }

  @Test
  void requestLinesKeepThePromptOnlyWhenAsked() throws Exception {
    Parse p = Parse.real(LOG, "request-lines.log", Parse.ctx(2025, null, true, null));
    assertEquals("'Who is afraid of the big bad wolf?'",
        p.full.request("cmpl-3ab8b1fe7d3946de8143ce0ae9ce9652-0").extras.get("prompt"));
  }

  @Test
  void accessLinesWithoutRequestLinesAreCounted() throws Exception {
    Parse p = Parse.real(LOG, "access-lines.log", Parse.ctx(2025, null, false, null));
    assertEquals(6, p.lines);
    assertEquals(Map.of("access", 6L), p.kinds());
    assertEquals(3, p.sink.other, "the 200s: no request line to tie them to");
    // the 400s are failed requests of their own, but no line of the file has a time: a request
    // without one is rejected, never stored as a row of NULL times
    assertEquals(3, p.sink.rejects.size());
    assertTrue(p.sink.rejects.stream().allMatch(r -> r.reason().startsWith("no timestamp: an HTTP 400")),
        p.sink.rejects.toString());
    assertEquals(0, p.sink.records);
    assertTrue(p.full.requests.isEmpty());
  }

  @Test
  void iterationLines() throws Exception {
    Parse p = Parse.real(LOG, "iteration-lines.log", Parse.ctx(2025, null, false, null));
    assertEquals(Map.of("iteration", 3L), p.kinds());
    assertEquals(3, p.sink.records);
    List<StepRecord> s = p.full.steps;
    assertEquals(List.of(745L, 746L, 747L), s.stream().map(x -> x.iter).toList());
    StepRecord first = s.get(0);
    assertEquals(0, first.ctxRequests);
    assertEquals(0, first.ctxTokens);
    assertEquals(1, first.genRequests);
    assertEquals(1, first.genTokens);
    assertEquals(0.02, first.durationMs);
    assertEquals("EngineCore pid=437", first.instance);
    assertEquals(Parse.ns("2025-09-02T08:46:16Z"), first.tsNs);
    assertEquals(0, s.get(2).epoch);
  }
}
