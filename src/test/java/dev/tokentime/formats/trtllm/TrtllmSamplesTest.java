package dev.tokentime.formats.trtllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled TensorRT-LLM samples (sample-logs/trtllm) give, through the views, the numbers that
 * sample-logs/trtllm/expected/make_samples.py computed from the times it generated them with.
 */
class TrtllmSamplesTest {
  static final Path SAMPLES = Path.of("sample-logs/trtllm");

  @TempDir
  Path tmp;

  final List<String> diffs = new ArrayList<>();
  int checked;

  void compare(String what, JsonNode want, Object got) {
    checked++;
    if (got == null || !want.isNumber() && !want.isBoolean()) {
      if (got == null || !want.asText().equals(String.valueOf(got))) {
        diffs.add(what + ": expected " + want + " but was " + got);
      }
      return;
    }
    double w = want.asDouble();
    double g = got instanceof Boolean b ? (b ? 1 : 0) : ((Number) got).doubleValue();
    if (Math.abs(w - g) > 1e-9 + 1e-12 * Math.abs(w)) {
      diffs.add(what + ": expected " + want + " but was " + got);
    }
  }

  /** Compares {run: {request_id: {column: value}}} with a view's rows by run and request_id. */
  void byRequest(TestDb t, String view, JsonNode runs) throws Exception {
    Iterator<Map.Entry<String, JsonNode>> it = runs.fields();
    while (it.hasNext()) {
      var run = it.next();
      Iterator<Map.Entry<String, JsonNode>> reqs = run.getValue().fields();
      while (reqs.hasNext()) {
        var req = reqs.next();
        Map<String, Object> row = row(t, "SELECT * FROM " + view + " WHERE run = '" + run.getKey()
            + "' AND request_id = '" + req.getKey() + "'");
        Iterator<Map.Entry<String, JsonNode>> cols = req.getValue().fields();
        while (cols.hasNext()) {
          var c = cols.next();
          compare(view + " " + run.getKey() + "/" + req.getKey() + " " + c.getKey(), c.getValue(),
              row == null ? null : row.get(c.getKey()));
        }
      }
    }
  }

  static Map<String, Object> row(TestDb t, String sql) throws Exception {
    var table = t.table(sql);
    if (table.rows().size() != 1) {
      return null;
    }
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < table.columns().size(); i++) {
      m.put(table.columns().get(i), table.rows().get(0)[i]);
    }
    return m;
  }

  @Test
  void everySampleGivesItsExpectedNumbers() throws Exception {
    JsonNode e = new ObjectMapper().readTree(SAMPLES.resolve("expected/trtllm_expected.json").toFile());
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(IngestOptions.of(List.of(SAMPLES.toString())));
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"), t.rows("SELECT * FROM rejects").toString());
      assertEquals(0L, t.count("SELECT count(*) FROM checks WHERE violations > 0"), t.rows("SELECT * FROM checks").toString());
      byRequest(t, "request_latency", e.get("request_latency"));
      byRequest(t, "trtllm_request_phases", e.get("trtllm_request_phases"));
      byRequest(t, "trtllm_request_batches", e.get("trtllm_request_batches"));

      JsonNode gaps = e.get("trtllm_iteration_gaps").get("trtllm-serve");
      List<List<Object>> got = t.rows("SELECT after_iter, next_iter, missing, gap_ms FROM trtllm_iteration_gaps"
          + " WHERE run = 'trtllm-serve' ORDER BY after_iter");
      assertEquals(gaps.size(), got.size(), got.toString());
      for (int i = 0; i < gaps.size(); i++) {
        String[] cols = {"after_iter", "next_iter", "missing", "gap_ms"};
        for (int c = 0; c < cols.length; c++) {
          compare("gap " + i + " " + cols[c], gaps.get(i).get(cols[c]), got.get(i).get(c));
        }
      }

      JsonNode timeline = e.get("batch_size_timeline_steps_10ms").get("trtllm-serve");
      List<List<Object>> buckets = t.rows("SELECT t_s, batch_mean, batch_max, coverage FROM batch_size_timeline_at(0.01)"
          + " WHERE run = 'trtllm-serve' AND method = 'steps' ORDER BY t_s");
      assertEquals(timeline.size(), buckets.size(), buckets.toString());
      for (int i = 0; i < timeline.size(); i++) {
        String[] cols = {"t_s", "batch_mean", "batch_max", "coverage"};
        for (int c = 0; c < cols.length; c++) {
          compare("bucket " + i + " " + cols[c], timeline.get(i).get(cols[c]), buckets.get(i).get(c));
        }
      }

      JsonNode clock = e.get("trtllm_clock_offsets").get("trtllm-serve");
      Map<String, Object> offset = row(t, "SELECT * FROM trtllm_clock_offsets WHERE run = 'trtllm-serve'");
      for (String c : new String[] {"pairs", "offset_ns", "spread_ms"}) {
        compare("clock offset " + c, clock.get(c), offset == null ? null : offset.get(c));
      }
      assertTrue(Math.abs(((Number) offset.get("offset_ns")).longValue() - clock.get("true_offset_ns").asLong())
          < 1_000_000, "the estimate is within a millisecond of the offset the sample was made with");

      Iterator<Map.Entry<String, JsonNode>> rep = e.get("reported_metrics").get("trtllm-bench").fields();
      while (rep.hasNext()) {
        var m = rep.next();
        String[] ms = m.getKey().split("/");
        compare("reported " + m.getKey(), m.getValue(), t.value("SELECT value FROM reported_metrics WHERE run = 'trtllm-bench'"
            + " AND metric = '" + ms[0] + "' AND stat = '" + ms[1] + "'"));
      }
      // trtllm-bench's own mean TTFT is the mean of tokentime's per-request TTFT on its request_json
      compare("bench avg_ttft_ms vs request_latency", e.get("reported_metrics").get("trtllm-bench").get("avg_ttft_ms/value"),
          t.value("SELECT avg(ttft_ms) FROM request_latency WHERE run = 'trtllm-bench'"));

      JsonNode counts = e.get("counts");
      compare("serve requests", counts.get("trtllm-serve").get("requests"), t.value("SELECT count(*) FROM requests WHERE run = 'trtllm-serve'"));
      compare("serve steps", counts.get("trtllm-serve").get("steps"), t.value("SELECT count(*) FROM steps JOIN sources USING (source_id) WHERE run = 'trtllm-serve'"));
      compare("triton fragments", counts.get("triton-trace").get("fragments"), t.value("SELECT records FROM sources WHERE run = 'triton-trace'"));
    }
    assertEquals(List.of(), diffs);
    assertTrue(checked > 150, "checked " + checked);
  }
}
