package dev.tokentime.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The levels table at 120 columns (issue 23: it kept an empty label and runs of 1 and dropped
 * throughput and E2E; durations read 35718.330).
 */
class LevelTextTest {
  private static Map<String, Object> level(double c, double ttftP50, double e2eP99, double tokS) {
    Map<String, Object> l = new LinkedHashMap<>();
    for (String col : SummaryRenderer.LEVEL_COLUMNS) {
      l.put(col, null);
    }
    l.put("level_kind", "concurrency");
    l.put("level", c);
    l.put("label", null);
    l.put("runs", 1L);
    l.put("ok_requests", (long) (100 * c));
    l.put("failed_requests", 0L);
    for (String m : List.of("ttft", "itl", "e2e")) {
      for (String p : List.of("p50", "p90", "p99")) {
        l.put(m + "_" + p + "_ms", m.equals("itl") ? 13.5 : ttftP50);
      }
    }
    l.put("ttft_p50_ms", ttftP50);
    l.put("e2e_p99_ms", e2eP99);
    l.put("output_tokens_per_s", tokS);
    l.put("requests_per_s", tokS / 200);
    l.put("mean_input_tokens", 512.4);
    l.put("mean_output_tokens", 200.0 + c);
    return l;
  }

  @Test
  void at120ColumnsEmptyAndConstantColumnsGoFirstAndDurationsReadInTheirUnit() {
    List<Map<String, Object>> levels = new ArrayList<>(List.of(level(1, 41.7, 4330.483, 72.8),
        level(16, 4860, 14200, 313.2), level(64, 35718.330, 44700, 311.0)));
    Summary s = new Summary("tokentime-summary", 1, "", 1, 0, null, List.of(), levels, List.of(), List.of(), List.of(), List.of());
    String text = SummaryRenderer.levelText(s, 120);
    String header = text.lines().findFirst().orElseThrow();
    assertTrue(header.length() <= 120, text);
    assertTrue(header.startsWith("concurrency"), "the constant level kind names the level column: " + header);
    for (String kept : List.of("ttft p50", "ttft p99", "itl p50", "itl p99", "e2e p50", "e2e p99", "out tok/s")) {
      assertTrue(header.contains(kept), kept + " is what the methodology reads: " + header);
    }
    assertFalse(header.contains("label") || header.contains("runs") || header.contains("failed"), header);
    assertTrue(text.contains("(every level: runs 1, failed 0, mean in 512.4)"), text);
    assertTrue(header.contains("itl p90"), "a latency the same at every level stays: " + header);
    assertTrue(text.contains("35.7 s"), text);
    assertTrue(text.contains("41.7 ms"), text);
    assertTrue(text.contains("4.33 s"), text);
    assertFalse(text.contains("35718"), text);

    // wide enough, nothing but the empty and constant columns goes
    String wide = SummaryRenderer.levelText(s, 400);
    assertTrue(wide.lines().findFirst().orElseThrow().contains("mean out"), wide);
    assertFalse(wide.contains("not shown"), wide);
    // narrower, the lowest priority goes first and is named
    String narrow = SummaryRenderer.levelText(s, 100);
    assertTrue(narrow.lines().findFirst().orElseThrow().length() <= 100, narrow);
    assertTrue(narrow.contains("not shown at this width: mean out"), narrow);
    assertTrue(narrow.lines().findFirst().orElseThrow().contains("e2e p99"), narrow);
    assertEquals(3 + 2 + 2, narrow.lines().count(), narrow);
  }

  @Test
  void aRunsMetricTableShowsDurationsInTheirUnit() {
    Map<String, Summary.Stats> metrics = new LinkedHashMap<>();
    metrics.put("e2e_ms", new Summary.Stats("ms", 3, 35718.330, null, null, null, null, null, null, null,
        0.4321, null, 1250.0, 41.7, 700_000.0));
    Summary.RunSummary r = new Summary.RunSummary("c64", null, null, null, null, null, null, null, null, metrics);
    var t = SummaryRenderer.metricTable(r);
    assertEquals(List.of("e2e_ms", 3L, "35.7 s", "432 µs", "1.25 s", "41.7 ms", "11.7 min"),
        java.util.Arrays.asList(t.rows().get(0)));
  }
}
