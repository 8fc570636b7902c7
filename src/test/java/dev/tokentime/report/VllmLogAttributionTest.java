package dev.tokentime.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.summary.Summary;
import dev.tokentime.summary.SummaryRenderer;
import dev.tokentime.summary.SummaryService;
import dev.tokentime.testing.Generated;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generated vLLM text log at concurrency 16 against 8 batch slots: half the requests wait for a
 * slot. The log has Received (arrival), Added (the engine took it) and the first token, no
 * scheduled time, so every output attributes TTFT the same way: a sub-millisecond pre-queue and
 * the rest as queue + prefill, not split, beside the engine's waiting count.
 */
class VllmLogAttributionTest {
  @TempDir
  Path tmp;

  @Test
  void summaryViewsAndFindingsAgreeOnOneAttribution() throws Exception {
    Path gen = Generated.into(tmp.resolve("gen"), "--form", "vllm-log", "--levels", "16", "--requests", "60",
        "--seed", "7");
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(IngestOptions.of(List.of(gen.toString())));
      // a directory per level: the run is c16, at concurrency 16 by its name
      assertEquals(List.of(List.of("c16", "concurrency", 16.0)), t.rows("SELECT run, level_kind, level FROM runs"));
      // Added is the engine taking the request (the frontend's 0.1-0.5 ms before it), not its scheduling
      assertEquals(List.of(60L, 0L, 0L), t.rows("SELECT count(*), count(*) FILTER (WHERE pre_queue_ms >= 1), "
          + "count(queue_ms) FROM request_latency").get(0));
      assertTrue(t.count("SELECT count(*) FROM request_latency WHERE ttft_ms > 1000") >= 20, "requests that queued");
      assertEquals(8L, ((Number) t.value("SELECT waiting_max FROM engine_summary")).longValue());
      assertEquals(List.of("pre-queue, queue + prefill (not split)"),
          t.rows("SELECT DISTINCT parts_basis FROM ttft_breakdown").get(0));
      double share = ((Number) t.value("SELECT queue_prefill_share FROM ttft_breakdown WHERE percentile = 95")).doubleValue();
      assertTrue(share > 0.999 && share <= 1, "queue + prefill share " + share);
      assertEquals(Boolean.TRUE, t.value("SELECT max(abs(pre_queue_share + queue_prefill_share - 1)) < 1e-12 "
          + "FROM ttft_breakdown"));

      Summary s = new SummaryService().summarize(t.db, Set.of());
      Summary.Stats both = s.runs().get(0).metrics().get("queue_prefill_ms");
      Summary.Stats ttft = s.runs().get(0).metrics().get("ttft_ms");
      Summary.Stats pre = s.runs().get(0).metrics().get("pre_queue_ms");
      assertEquals(60, both.count());
      assertEquals(ttft.mean() - pre.mean(), both.mean(), 1e-6);
      assertEquals(0, s.runs().get(0).metrics().get("queue_ms").count());
      String text = SummaryRenderer.render(s, OutputFormat.TEXT, 200, "");
      assertTrue(text.contains("queue_prefill_ms = TTFT - pre-queue"), text);
      assertTrue(text.lines().anyMatch(l -> l.strip().startsWith("queue_prefill_ms ")), text);

      ReportData d = new ReportService().gather(t.db, new ReportService.Request(Set.of(), null, "", "x.duckdb"));
      String ttftFinding = Findings.of(d).stream().filter(f -> f.startsWith("Where TTFT went")).findFirst().orElseThrow();
      assertTrue(ttftFinding.contains("the engine's queue + prefill (not split) dominates in c16"), ttftFinding);
      assertTrue(ttftFinding.contains("requests waiting on average (at most 8)"), ttftFinding);
      assertFalse(ttftFinding.contains("no run has"), ttftFinding);
      ChartSpec chart = ReportCharts.ttft(d);
      assertEquals(List.of("pre-queue", "queue", "prefill", "queue + prefill (not split)"),
          chart.series().stream().map(ChartSpec.Series::name).toList());
    }
  }
}
