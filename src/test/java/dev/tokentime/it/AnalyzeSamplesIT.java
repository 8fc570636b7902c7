package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.output.Values;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The README's first command, through the packaged jar: `analyze sample-logs/` prints a summary
 * whose numbers are those under sample-logs/canonical/expected/ (computed by numpy).
 */
class AnalyzeSamplesIT {
  static final Path EXPECTED = Path.of("sample-logs/canonical/expected/summary.json");

  @Test
  void textSummaryShowsTheExpectedNumbers() throws Exception {
    Cli.Result r = Cli.run("analyze", "sample-logs/");
    assertEquals(0, r.code(), r.err());
    JsonNode expected = new ObjectMapper().readTree(EXPECTED.toFile());
    for (JsonNode run : expected.get("runs")) {
      String name = run.get("run").asText();
      int at = r.out().indexOf("run " + name + " (concurrency");
      assertTrue(at >= 0, "run " + name + " in:\n" + r.out());
      String block = r.out().substring(at, nextRun(r.out(), at));
      JsonNode m = run.get("metrics");
      for (String metric : new String[] {"ttft_ms", "queue_ms", "prefill_ms", "itl_ms", "tpot_ms", "e2e_ms"}) {
        JsonNode s = m.get(metric);
        // text shows three significant digits in a unit that reads (29.9 ms, 300 µs); the JSON
        // test below holds the exact figures
        String row = String.format(Locale.ROOT, "%s %d %s %s %s %s %s", metric, s.get("count").asLong(),
            Values.duration(s.get("mean").asDouble()), Values.duration(s.get("p50").asDouble()),
            Values.duration(s.get("p90").asDouble()), Values.duration(s.get("p95").asDouble()),
            Values.duration(s.get("p99").asDouble()));
        assertTrue(squash(block).contains(row), "expected row <" + row + "> in:\n" + block);
      }
      String tput = String.format(Locale.ROOT, "%.1f output tokens/s, %.3f requests/s",
          run.get("throughput").get("output_tokens_per_s").asDouble(),
          run.get("throughput").get("requests_per_s").asDouble());
      assertTrue(block.contains(tput), "expected <" + tput + "> in:\n" + block);
      long unfinished = run.get("requests").path("unfinished").asLong(); // the numpy figures name none: 0
      String reqs = run.get("requests").get("ok").asLong() + " ok"
          + (unfinished == 0 ? "" : " (" + unfinished + " with no end in the log)") + ", " + run.get("requests").get("failed").asLong()
          + " failed, " + run.get("requests").get("excluded").asLong() + " excluded (warm-up or outside the window)";
      assertTrue(block.contains(reqs), "expected <" + reqs + "> in:\n" + block);
    }
    assertTrue(r.err().contains("skipped 1 file"), r.err());
  }

  @Test
  void jsonSummaryEqualsTheExpectedNumbers() throws Exception {
    Cli.Result r = Cli.run("analyze", "sample-logs/", "--format", "json");
    assertEquals(0, r.code(), r.err());
    JsonNode actual = new ObjectMapper().readTree(r.out());
    JsonNode expected = new ObjectMapper().readTree(EXPECTED.toFile());
    java.util.List<String> diffs = new java.util.ArrayList<>();
    for (int i = 0; i < expected.get("runs").size(); i++) {
      // by name: sample-logs/peers adds runs of other levels beside the canonical ones
      JsonNode want = expected.get("runs").get(i);
      JsonNode got = null;
      for (JsonNode candidate : actual.get("runs")) {
        if (candidate.get("run").asText().equals(want.get("run").asText())) {
          got = candidate;
        }
      }
      if (got == null) {
        diffs.add("run " + want.get("run").asText() + " missing");
        continue;
      }
      dev.tokentime.summary.SampleSummaryTestAccess.compare("runs[" + i + "]", want, got, diffs);
    }
    assertEquals(java.util.List.of(), diffs);
  }

  static int nextRun(String s, int from) {
    int n = s.indexOf("\nrun ", from + 1);
    int l = s.indexOf("\nlevels", from + 1);
    int end = s.length();
    if (n >= 0) {
      end = Math.min(end, n);
    }
    if (l >= 0) {
      end = Math.min(end, l);
    }
    return end;
  }

  static String squash(String s) {
    return s.replaceAll("[ \\t]+", " ");
  }
}
