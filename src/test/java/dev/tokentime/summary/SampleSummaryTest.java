package dev.tokentime.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The canonical samples (sample-logs/canonical; the vLLM ones are VllmSamplesTest's) produce the numbers under sample-logs/canonical/expected/, which an
 * independent numpy script computed (compute_expected.py): every field of every run.
 */
class SampleSummaryTest {
  @TempDir
  Path tmp;

  static final Path EXPECTED = Path.of("sample-logs/canonical/expected/summary.json");

  @Test
  void samplesMatchTheIndependentlyComputedSummary() throws Exception {
    JsonNode expected = new ObjectMapper().readTree(EXPECTED.toFile());
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("sample-logs/canonical")));
      Summary s = new SummaryService().summarize(t.db, Set.of());
      JsonNode actual = new ObjectMapper().readTree(SummaryRenderer.json(s));
      assertEquals(expected.get("runs").size(), actual.get("runs").size());
      List<String> diffs = new ArrayList<>();
      for (int i = 0; i < expected.get("runs").size(); i++) {
        compare("runs[" + i + "]", expected.get("runs").get(i), actual.get("runs").get(i), diffs);
      }
      assertEquals(List.of(), diffs);
      assertEquals(0, actual.get("rejected_lines").asLong());
      assertEquals(3, actual.get("levels").size());
    }
  }

  @Test
  void jsonShapeIsStable() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("sample-logs/canonical")));
      JsonNode j = new ObjectMapper().readTree(SummaryRenderer.json(new SummaryService().summarize(t.db, Set.of())));
      assertEquals(List.of("format", "version", "definitions", "sources", "rejected_lines", "slo", "runs", "levels",
          "engines", "basis", "tool_request_counts", "tool_figures"), names(j));
      assertTrue(j.get("slo").isNull(), "no --slo, no slo figures");
      assertEquals("tokentime-summary", j.get("format").asText());
      JsonNode run = j.get("runs").get(0);
      assertEquals(List.of("run", "level_kind", "level", "repeat", "requests", "window", "throughput",
          "tokens", "goodput", "metrics"), names(run));
      assertEquals(Summary.METRICS, names(run.get("metrics")));
      assertEquals(List.of("unit", "count", "mean", "std", "min", "max", "p1", "p5", "p10", "p25", "p50",
          "p75", "p90", "p95", "p99"), names(run.get("metrics").get("ttft_ms")));
      assertEquals(List.of("output_tokens_per_s", "requests_per_s"), names(run.get("throughput")));
      assertEquals(List.of("measured", "ok", "failed", "excluded", "unfinished"), names(run.get("requests")));
    }
  }

  /**
   * A request whose end no line showed (SGLang's Receive of a request that hung, real-logs/field):
   * counted ok, as status unknown is, and said to have no end, in the JSON and the text (it read
   * "1 ok, 0 failed", as if the request had been answered); not a request of a format that logs no
   * end (TensorRT-LLM's Received and Response started lines).
   */
  @Test
  void requestsWithNoEndInTheLogAreSaidSo() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      // and TensorRT-LLM's log, which has no line that ends a request: its requests are not cut off
      t.ingest(IngestOptions.of(List.of("src/test/resources/real-logs/field/sgl-2026-receive-never-finished-hang-sgl26783.log",
          "sample-logs/canonical/c2.jsonl", "sample-logs/trtllm/trtllm-log/server.log")));
      Summary s = new SummaryService().summarize(t.db, Set.of());
      JsonNode runs = new ObjectMapper().readTree(SummaryRenderer.json(s)).get("runs");
      java.util.Map<String, List<Long>> byRun = new java.util.TreeMap<>();
      for (JsonNode r : runs) {
        byRun.put(r.get("run").asText(), List.of(r.get("requests").get("ok").asLong(),
            r.get("requests").get("unfinished").asLong()));
      }
      assertEquals(Map.of("c2", List.of(9L, 0L), "field", List.of(1L, 1L), "trtllm-log", List.of(3L, 0L)), byRun);
      String text = SummaryRenderer.text(s, 120);
      assertTrue(text.contains("requests    1 ok (1 with no end in the log), 0 failed"), text);
      assertTrue(text.contains("requests    9 ok, "), text);
    }
  }

  /**
   * Summarising some runs pools only those into the levels: with a second repeat of concurrency 4
   * in the database (c2's requests as run c4b), the summary of c4 alone shows c4's own figures at
   * that level, not the median of both repeats.
   */
  @Test
  void levelsPoolOnlyTheRunsAskedFor() throws Exception {
    Path repeat = tmp.resolve("c4b.jsonl");
    java.nio.file.Files.writeString(repeat, java.nio.file.Files.readString(Path.of("sample-logs/canonical/c2.jsonl"))
        .replace("\"run\":\"c2\"", "\"run\":\"c4b\"").replace("\"concurrency\":2", "\"concurrency\":4")
        .replace("\"c2-", "\"c4b-"));
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of("sample-logs/canonical", repeat.toString())));
      Map<String, Object> both = level4(new SummaryService().summarize(t.db, Set.of()));
      assertEquals("c4, c4b", both.get("run_names"));
      double c4 = ((Number) t.value("SELECT p95 FROM metric_stats WHERE run = 'c4' AND metric = 'e2e_ms'")).doubleValue();
      double c4b = ((Number) t.value("SELECT p95 FROM metric_stats WHERE run = 'c4b' AND metric = 'e2e_ms'")).doubleValue();
      assertTrue(Math.abs(c4 - c4b) > 1, c4 + " " + c4b);
      assertEquals((c4 + c4b) / 2, ((Number) both.get("e2e_p95_ms")).doubleValue(), 1e-9);
      Summary one = new SummaryService().summarize(t.db, Set.of("c4"));
      assertEquals(1, one.levels().size());
      Map<String, Object> alone = level4(one);
      assertEquals("c4", alone.get("run_names"));
      assertEquals(1L, ((Number) alone.get("runs")).longValue());
      assertEquals(c4, ((Number) alone.get("e2e_p95_ms")).doubleValue(), 1e-9);
      assertEquals(null, t.value("SELECT getvariable('tt_runs')"), "the selection ends with the summary");
    }
  }

  private static Map<String, Object> level4(Summary s) {
    return s.levels().stream().filter(l -> ((Number) l.get("level")).doubleValue() == 4).findFirst().orElseThrow();
  }

  static List<String> names(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }

  static void compare(String path, JsonNode want, JsonNode got, List<String> diffs) {
    if (want.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> it = want.fields();
      while (it.hasNext()) {
        var e = it.next();
        JsonNode g = got == null ? null : got.get(e.getKey());
        if (g == null) {
          diffs.add(path + "." + e.getKey() + ": missing");
        } else {
          compare(path + "." + e.getKey(), e.getValue(), g, diffs);
        }
      }
    } else if (want.isNumber()) {
      double a = want.asDouble();
      double b = got.asDouble();
      if (!got.isNumber() || Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(a))) {
        diffs.add(path + ": expected " + want + " but was " + got);
      }
    } else if (!want.asText().equals(got.asText())) {
      diffs.add(path + ": expected " + want + " but was " + got);
    }
    assertTrue(diffs.size() < 50, "many differences: " + diffs);
  }
}
