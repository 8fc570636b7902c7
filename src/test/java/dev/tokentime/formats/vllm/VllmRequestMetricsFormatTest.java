package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** vllm-request-metrics: the real V0 RequestOutput print, V1 RequestStateStats and response metrics. */
class VllmRequestMetricsFormatTest {
  static final VllmRequestMetricsFormat FMT = new VllmRequestMetricsFormat();

  @Test
  void realV0RequestOutputPrint() throws Exception {
    Parse p = Parse.real(FMT, "requestoutput-metrics-repr.txt", Parse.ctx(null, null, false, null));
    assertEquals(1, p.lines);
    assertEquals(1, p.sink.records);
    RequestRecord r = p.full.request("0");
    // epoch seconds of a Python float carry about 1 µs
    assertEquals(1716350294386253000L, r.arrivalNs);
    assertEquals(1716350294387249000L, r.scheduledNs);
    assertEquals(1716350294624398000L, r.firstTokenNs);
    assertEquals(1716350296063825000L, r.finishedNs);
    assertEquals(NONE, r.lastTokenNs, "V0's last_token_time is not the last token here (it equals arrival)");
    assertEquals("length", r.finishReason);
    assertEquals(32, r.outputTokens);
    assertEquals(32, r.promptTokens);
    assertEquals(1_000, p.sink.clocks.get(0).resolutionNs());
    assertTrue(r.extras.get("time_in_queue_ms").startsWith("0.99587"), r.extras.toString());
  }

  @Test
  void v1StatsResponseMetricsAndBadLines() throws Exception {
    String text = ""
        + "RequestOutput(request_id=7, prompt=None, outputs=[CompletionOutput(index=0, text='x', token_ids=[1, 2, 3], finish_reason=stop)], finished=True, metrics=RequestStateStats(num_generation_tokens=3, arrival_time=1760000000.5, queued_ts=100.0, scheduled_ts=100.25, first_token_ts=100.5, last_token_ts=101.0, first_token_latency=0.75, is_corrupted=False), lora_request=None)\n"
        + "{\"id\":\"chatcmpl-9\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":4,\"prompt_tokens_details\":{\"cached_tokens\":8}},\"metrics\":{\"time_to_first_token_ms\":40.5,\"queue_time_ms\":3.0,\"mean_itl_ms\":12.0,\"generation_time_ms\":80.0,\"tokens_per_second\":50.0}}\n"
        + "data: {\"id\":\"chatcmpl-10\",\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2},\"metrics\":{\"time_to_first_token_ms\":10,\"queue_time_ms\":1}}\n"
        + "data: [DONE]\n"
        + "{\"id\":\"chatcmpl-11\",\"choices\":[]}\n"
        + "{\"id\":\"chatcmpl-12\",\"metrics\":{\"queue_time_ms\":\"slow\"}}\n"
        + "{\"id\":\"chatcmpl-13\",\"metrics\":{\"queue_time_ms\":1\n";
    Parse p = Parse.text(FMT, text, Parse.ctx(null, null, false, null));
    assertEquals(7, p.lines);
    assertEquals(3, p.sink.records);
    assertEquals(2, p.sink.other);
    assertEquals(List.of(6L, 7L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertEquals("queue_time_ms: expected a number, got \"slow\"", p.sink.rejects.get(0).reason());
    RequestRecord v1 = p.full.request("7");
    assertEquals(1760000000500000000L, v1.arrivalNs);
    assertEquals(750.0, v1.ttftMs);
    assertEquals(250.0, v1.queueMs);
    assertEquals(250.0, v1.prefillMs);
    assertEquals(500.0, v1.decodeMs);
    assertEquals(3, v1.outputTokens);
    assertEquals(NONE, v1.firstTokenNs, "monotonic engine times are never taken as wall-clock timestamps");
    RequestRecord m = p.full.request("chatcmpl-9");
    assertEquals(40.5, m.prefillMs, "its TTFT is measured from scheduling: our prefill");
    assertNull(m.ttftMs);
    assertEquals(3.0, m.queueMs);
    assertEquals(12.0, m.tpotMs);
    assertEquals(12, m.promptTokens);
    assertEquals(4, m.outputTokens);
    assertEquals(8, m.cachedTokens);
    assertEquals("stop", m.finishReason);
    assertNull(m.extras.get("output"), "no text without --keep-text");
    assertEquals(2, p.full.request("chatcmpl-10").outputTokens);
  }
}
