package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sample-logs/wrapped: one short vLLM log in each wrapper a collector puts around lines (CRI with
 * partial lines, kubectl --timestamps, docker json-file, compose, docker desktop, stern, journald
 * short and JSON, syslog 3164 and 5424, a CI runner, GitHub Actions, Ray, a fork's tag, ANSI,
 * nested ones). Each gives the rows of the bare log, with the wrapper's time where it has a year
 * and a fraction, and the wrapper's identity as instance: expected/expected.json, written with the
 * samples by expected/make_samples.py from the times it wrote (no tokentime code).
 */
class WrappedSamplesTest {
  static final Path DIR = Path.of("sample-logs/wrapped");

  @TempDir
  Path tmp;

  @Test
  void everyWrapperReadsLikeTheBareLine() throws Exception {
    JsonNode want = new ObjectMapper().readTree(DIR.resolve("expected/expected.json").toFile());
    try (TestDb t = new TestDb(tmp)) {
      IngestResult r = t.ingest(new IngestOptions(List.of(DIR.toString()), null, null, false, false, false,
          null, want.get("year").asInt()));
      assertEquals(List.of(), r.failedChecks());
      List<String> diffs = new ArrayList<>();
      for (JsonNode f : want.get("files")) {
        String file = f.get("file").asText();
        IngestResult.FileResult got = r.files().stream().filter(x -> x.path().endsWith("/" + file)).findFirst()
            .orElseThrow(() -> new AssertionError(file + " not ingested: " + r.skipped()));
        check(diffs, file + " format", "vllm-log", got.format());
        check(diffs, file + " lines", f.get("lines").asLong(), got.lines());
        check(diffs, file + " records", f.get("records").asLong(), got.records());
        check(diffs, file + " other", f.get("other").asLong(), got.otherLines());
        check(diffs, file + " rejected", f.get("rejected").asLong(), got.rejected());
        JsonNode rq = f.get("request");
        List<List<Object>> rows = t.rows("SELECT arrival_ns, queued_ns, first_token_ns, last_token_ns, finished_ns,"
            + " prompt_tokens, output_tokens, status, http_status, instance FROM requests r JOIN sources s"
            + " USING (source_id) WHERE r.request_id = '" + rq.get("request_id").asText() + "'");
        check(diffs, file + " request rows", 1, rows.size());
        if (rows.size() == 1) {
          List<Object> row = rows.get(0);
          String[] cols = {"arrival_ns", "queued_ns", "first_token_ns", "last_token_ns", "finished_ns",
              "prompt_tokens", "output_tokens", "status", "http_status", "instance"};
          for (int i = 0; i < cols.length; i++) {
            JsonNode w = rq.get(cols[i]);
            Object expected = w.isNull() ? null : w.isNumber() ? (Object) w.asLong() : w.asText();
            Object actual = row.get(i) instanceof Number n ? (Object) n.longValue() : row.get(i);
            check(diffs, file + " request " + cols[i], expected, actual);
          }
        }
        JsonNode st = f.get("stats");
        List<List<Object>> stats = t.rows("SELECT ts_ns, running, waiting, kv_usage, instance FROM engine_stats e"
            + " JOIN sources s USING (source_id) WHERE s.path LIKE '%/" + file + "'");
        check(diffs, file + " stats rows", 1, stats.size());
        if (stats.size() == 1) {
          check(diffs, file + " stats ts", st.get("ts_ns").asLong(), ((Number) stats.get(0).get(0)).longValue());
          check(diffs, file + " stats running", st.get("running").asLong(), ((Number) stats.get(0).get(1)).longValue());
          check(diffs, file + " stats kv", st.get("kv_usage").asDouble(), ((Number) stats.get(0).get(3)).doubleValue());
          check(diffs, file + " stats instance", st.get("instance").asText(), stats.get(0).get(4));
        }
        check(diffs, file + " version event ts", f.get("version_ts_ns").asLong(), t.count(
            "SELECT min(ts_ns) FROM engine_events e JOIN sources s USING (source_id) WHERE s.path LIKE '%/"
            + file + "' AND kind = 'version'"));
        if (f.has("inner_tz")) {
          // vLLM's own time, 7 h behind the wrapper's: the offset found is kept in clocks
          check(diffs, file + " inner clock", 1L, t.count("SELECT count(*) FROM clocks c WHERE c.tz = '"
              + f.get("inner_tz").asText() + "' AND c.scope LIKE '%" + file + "'"));
        }
        if (f.has("wrapper_tz")) {
          check(diffs, file + " wrapper clock", 1L, t.count("SELECT count(*) FROM clocks c WHERE c.tz = '"
              + f.get("wrapper_tz").asText() + "' AND c.resolution_ns = 1000000 AND c.scope LIKE '%" + file + "'"));
        }
      }
      assertEquals(List.of(), diffs);
      assertTrue(r.files().size() >= want.get("files").size());
    }
  }

  private static void check(List<String> diffs, String what, Object expected, Object actual) {
    boolean same = expected == null ? actual == null
        : expected instanceof Double d && actual instanceof Double a ? Math.abs(d - a) < 1e-9
        : expected.equals(actual);
    if (!same) {
      diffs.add(what + ": expected " + expected + ", got " + actual);
    }
  }
}
