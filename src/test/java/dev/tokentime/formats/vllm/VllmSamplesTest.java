package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.summary.SampleSummaryTestAccess;
import dev.tokentime.summary.Summary;
import dev.tokentime.summary.SummaryRenderer;
import dev.tokentime.summary.SummaryService;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sample-logs/vllm (a vLLM log, the OTLP spans of the same requests and two /metrics scrapes)
 * into one real database: the summary's numbers are those expected/make_samples.py computed with
 * numpy from the same made-up run, the queue/prefill split comes from the spans, the running/
 * waiting timeline from the stats lines, and each figure says its source and resolution.
 */
class VllmSamplesTest {
  static final Path EXPECTED = Path.of("sample-logs/vllm/expected/summary.json");

  @TempDir
  Path tmp;

  @Test
  void logSpansAndScrapesOfOneRunGiveTheExpectedSummary() throws Exception {
    JsonNode want = new ObjectMapper().readTree(EXPECTED.toFile()).get("runs").get(0);
    try (TestDb t = new TestDb(tmp)) {
      IngestResult r = t.ingest(IngestOptions.of(List.of("sample-logs/vllm")));
      assertEquals(0, r.rejected());
      assertEquals(List.of(), r.failedChecks());
      IngestResult.FileResult log = r.files().stream().filter(f -> f.format().equals("vllm-log")).findFirst().orElseThrow();
      assertEquals(want.get("log_lines").asLong(), log.lines());
      assertEquals(2, log.otherLines(), "the uvicorn startup line and the /health access line");

      // one row per request: the log's rows and the spans' rows are linked and merged
      assertEquals(6, t.count("SELECT count(*) FROM request_links WHERE rule = 'vllm-id: same id'"));
      assertEquals(6, t.count("SELECT count(*) FROM request_latency"));
      assertEquals(6, t.count("SELECT count(*) FROM request_latency WHERE timing_source = 'vllm-otlp-json'"
          + " AND timing_resolution_ns = 1 AND linked_rows = 2"));
      assertEquals(6, t.count("SELECT count(*) FROM requests r JOIN sources s USING (source_id)"
          + " WHERE s.format = 'vllm-log' AND r.http_status = 200"));

      Summary s = new SummaryService().summarize(t.db, Set.of());
      JsonNode got = new ObjectMapper().readTree(SummaryRenderer.json(s));
      JsonNode run = got.get("runs").get(0);
      List<String> diffs = new ArrayList<>();
      for (String part : new String[] {"run", "requests", "window", "throughput", "tokens", "metrics"}) {
        SampleSummaryTestAccess.compare(part, want.get(part), run.get(part), diffs);
      }
      JsonNode engine = got.get("engines").get(0);
      want.get("engine").fields().forEachRemaining(e ->
          SampleSummaryTestAccess.compare("engine." + e.getKey(), e.getValue(), engine.get(e.getKey()), diffs));
      assertEquals(List.of(), diffs);
      want.get("basis").fields().forEachRemaining(e -> {
        String basis = null;
        for (JsonNode b : got.get("basis")) {
          if (b.get("figure").asText().equals(e.getKey())) {
            basis = b.get("basis").asText();
          }
        }
        assertEquals(e.getValue().asText(), basis, e.getKey());
      });

      JsonNode h = want.get("histogram_deltas");
      List<List<Object>> deltas = t.rows("SELECT count FROM metric_histograms WHERE metric = '"
          + h.get("metric").asText() + "' ORDER BY le");
      List<Double> counts = new ArrayList<>();
      h.get("count").forEach(c -> counts.add(c.asDouble()));
      assertEquals(counts, deltas.stream().map(x -> ((Number) x.get(0)).doubleValue()).toList());

      // the text summary a person reads
      String text = SummaryRenderer.text(s, 200);
      assertTrue(text.contains("basis       ttft_ms, queue_ms, prefill_ms, decode_ms, tpot_ms, e2e_ms: "
          + "vllm-otlp-json requests (6, 1 ns clock)"), text);
      assertTrue(text.contains("itl_ms: vllm-log token rows (254, 1 s clock)"), text);
      assertTrue(text.contains("engine      6 snapshots: running mean 1.0, max 3; waiting mean 0.3, max 1;"
          + " KV cache max 7.5%; 1 gap (30 s without data)"), text);
    }
  }

  @Test
  void theTimelineShowsTheSilenceAsNoData() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("sample-logs/vllm/server.log")));
      assertEquals(List.of(
          List.of("snapshot", 0.0, 3, 1), List.of("snapshot", 10.0, 0, 0), List.of("snapshot", 20.0, 0, 0),
          List.of("no data", 30.0), List.of("snapshot", 60.0, 0, 0)),
          t.rows("SELECT row_kind, t_s, running, waiting FROM engine_timeline ORDER BY ts_ns, row_kind DESC")
              .stream().map(r -> r.get(2) == null ? List.of(r.get(0), r.get(1)) : r).toList());
    }
  }
}
