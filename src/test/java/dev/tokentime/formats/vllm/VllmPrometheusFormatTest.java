package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.EngineStatsRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** vllm-prometheus: real /metrics fragments, scrapes with timestamps, and query_range JSON. */
class VllmPrometheusFormatTest {
  static final VllmPrometheusFormat PROM = new VllmPrometheusFormat();

  @Test
  void realExpositionFragmentsTakeTheirTimeFromAt() throws Exception {
    Instant at = Instant.parse("2025-08-01T12:00:00Z");
    Parse p = Parse.real(PROM, "prometheus-exposition.txt", Parse.ctx(null, null, false, at));
    assertEquals(73, p.lines);
    // 17 HELP/TYPE lines, one _count, four http_* samples; every vLLM sample is used
    assertEquals(51, p.sink.records);
    assertEquals(22, p.sink.other);
    assertEquals(List.of(), p.sink.rejects);
    List<EngineStatsRecord> s = p.full.stats;
    assertEquals(3, s.size());
    EngineStatsRecord bloom = s.stream().filter(r -> "bigscience/bloom-560m".equals(r.instance)).findFirst().orElseThrow();
    assertEquals(Map.of("cpu_cache_usage_perc", 0.0, "prompt_tokens_total", 1196.0,
        "generation_tokens_total", 218152.0), bloom.extras);
    assertEquals(Parse.ns("2025-08-01T12:00:00Z"), bloom.tsNs);
    EngineStatsRecord e1 = s.stream().filter(r -> "engine 1 / /home/jovyan/qwen3-8b".equals(r.instance)).findFirst().orElseThrow();
    assertEquals(Map.of("gpu_prefix_cache_queries_total", 26.0), e1.extras);
    // one scrape: histogram buckets start their series but give no interval yet
    assertEquals(List.of(), p.sink.histograms);
  }

  @Test
  void scrapesWithTimestampsGiveGaugesAndHistogramDeltasWithRenamesAndResets() throws Exception {
    String labels = "engine=\"0\",model_name=\"m\"";
    String text = ""
        + "# TYPE vllm:num_requests_running gauge\n"
        + "vllm:num_requests_running{" + labels + "} 3 1773761883000\n"
        + "vllm:num_requests_waiting{" + labels + "} 1 1773761883000\n"
        + "vllm:gpu_cache_usage_perc{" + labels + "} 0.5 1773761883000\n"
        + "vllm:time_per_output_token_seconds_bucket{" + labels + ",le=\"0.05\"} 10 1773761883000\n"
        + "vllm:time_per_output_token_seconds_bucket{" + labels + ",le=\"+Inf\"} 12 1773761883000\n"
        + "vllm:num_requests_running{" + labels + "} 4 1773761893000\n"
        + "vllm:time_per_output_token_seconds_bucket{" + labels + ",le=\"0.05\"} 25 1773761893000\n"
        + "vllm:time_per_output_token_seconds_bucket{" + labels + ",le=\"+Inf\"} 30 1773761893000\n"
        + "vllm:time_per_output_token_seconds_bucket{" + labels + ",le=\"0.05\"} 4 1773761903000\n"
        + "vllm:num_requests_running{" + labels + "} NaN-ish 1773761903000\n"
        + "vllm:num_requests_running{engine=\"0\",model_name=\"m 1773761903000\n";
    Parse p = Parse.text(PROM, text, Parse.ctx(null, null, false, null));
    assertEquals(12, p.lines);
    assertEquals(9, p.sink.records);
    assertEquals(1, p.sink.other);
    assertEquals(List.of(11L, 12L), p.sink.rejects.stream().map(r -> r.lineNo()).toList());
    assertTrue(p.sink.rejects.get(0).reason().contains("is not a number"), p.sink.rejects.get(0).reason());
    assertTrue(p.sink.rejects.get(1).reason().contains("truncated"), p.sink.rejects.get(1).reason());
    EngineStatsRecord first = p.full.stats.get(0);
    assertEquals(3, first.running);
    assertEquals(1, first.waiting);
    assertEquals(0.5, first.kvUsage);
    assertEquals("engine 0 / m", first.instance);
    assertEquals(4, p.full.stats.get(1).running);
    // renamed to the V1 name; 10→25 and 12→30 are deltas; 25→4 is a reset (the new count is 4)
    assertEquals(List.of(
        "vllm:inter_token_latency_seconds{engine=0, exposed_as=vllm:time_per_output_token_seconds, model_name=m} 1773761883000000000..1773761893000000000 le=0.05 count=15.0",
        "vllm:inter_token_latency_seconds{engine=0, exposed_as=vllm:time_per_output_token_seconds, model_name=m} 1773761883000000000..1773761893000000000 le=Infinity count=18.0",
        "vllm:inter_token_latency_seconds{engine=0, exposed_as=vllm:time_per_output_token_seconds, model_name=m} 1773761893000000000..1773761903000000000 le=0.05 count=4.0"),
        p.sink.histograms);
  }

  @Test
  void aRepeatedSeriesWithoutTimestampsIsRejected() throws Exception {
    Parse p = Parse.text(PROM, "vllm:num_requests_running{model_name=\"m\"} 1\nvllm:num_requests_running{model_name=\"m\"} 2\n",
        Parse.ctx(null, null, false, Instant.parse("2025-08-01T12:00:00Z")));
    assertEquals(1, p.sink.records);
    assertEquals(1, p.sink.rejects.size());
    assertTrue(p.sink.rejects.get(0).reason().contains("repeats in a file without sample timestamps"));
  }

  @Test
  void queryRangeMatrixJson() throws Exception {
    String json = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n"
        + "{\"metric\":{\"__name__\":\"vllm:num_requests_waiting\",\"engine\":\"0\",\"model_name\":\"m\",\"job\":\"vllm\"},"
        + "\"values\":[[1737152880,\"2\"],[1737152895,\"7\"]]},\n"
        + "{\"metric\":{\"__name__\":\"vllm:num_requests_running\",\"engine\":\"0\",\"model_name\":\"m\"},"
        + "\"values\":[[1737152880,\"5\"],[1737152895,\"6\"]]},\n"
        + "{\"metric\":{\"__name__\":\"vllm:e2e_request_latency_seconds_bucket\",\"le\":\"1.0\",\"model_name\":\"m\"},"
        + "\"values\":[[1737152880,\"100\"],[1737152895,\"130\"]]},\n"
        + "{\"metric\":{},\"values\":[[1737152880,\"0.3\"]]},\n"
        + "{\"metric\":{\"__name__\":\"vllm:num_requests_running\"},\"values\":[[1737152880,\"x\"]]}\n"
        + "]}}";
    Parse p = Parse.text(PROM, json, Parse.ctx(null, null, false, null));
    assertEquals(5, p.lines, "a series is a unit");
    assertEquals(3, p.sink.records);
    assertEquals(1, p.sink.other, "a series without a vLLM name (a rate() result)");
    assertEquals(1, p.sink.rejects.size());
    assertEquals(2, p.full.stats.size());
    EngineStatsRecord r = p.full.stats.get(0);
    assertEquals(Parse.ns("2025-01-17T22:28:00Z"), r.tsNs);
    assertEquals(5, r.running);
    assertEquals(2, r.waiting);
    assertEquals(7, p.full.stats.get(1).waiting);
    assertEquals(List.of("vllm:e2e_request_latency_seconds{model_name=m} 1737152880000000000..1737152895000000000 le=1.0 count=30.0"),
        p.sink.histograms);
    assertEquals(1_000_000, p.sink.clocks.get(0).resolutionNs());
  }
}
