package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.RecordingSink;
import dev.tokentime.testing.TestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GuideLLM's benchmarks.json: its real 0.2 fixture (real-logs/tools/guidellm-0.2-fixture), a 0.5
 * report whose statistics GuideLLM's own code computed (guidellm/sweep-0.5, README there), and
 * the other layouts by their keys.
 */
class GuidellmFormatTest {
  static final Path FIXTURE = Path.of("src/test/resources/real-logs/tools/guidellm-0.2-fixture/benchmarks.json");
  static final Path SWEEP = Path.of("src/test/resources/guidellm/sweep-0.5/benchmarks.json");

  @TempDir
  Path tmp;

  @Test
  void theRealFixturesRecordReadsAsGuideLlmWroteIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.writeBytes("sync/benchmarks.json", Files.readAllBytes(FIXTURE)));
      assertEquals(List.of(List.of("sync", "concurrency", 1.0)), t.rows("SELECT run, level_kind, level FROM runs"));
      // the times as the file writes them (1749157168.1827004 s), to the ns
      assertEquals(List.of(List.of("73054dd1-486f-4894-a861-075750b82453", "ok", 257, 128,
          1749157168182700400L, 1749157168203982400L, 1749157168871792300L, 1749157168871885000L)),
          t.rows("SELECT request_id, status, prompt_tokens, output_tokens, arrival_ns, first_token_ns,"
              + " last_token_ns, finished_ns FROM requests"));
      // the record's own figures, recomputed from its times as GuideLLM 0.2 defines them (TPOT
      // without the TTFT); GuideLLM subtracted epoch seconds in doubles (about 0.24 µs apart)
      String sql = "SELECT value FROM guidellm_metrics WHERE metric = '%s' AND stat = 'mean'";
      assertNear(21.281957626342773, t.value(sql.formatted("time_to_first_token_ms")), 1e-3, "TTFT ms");
      assertNear(5.217265337705612, t.value(sql.formatted("time_per_output_token_ms")), 1e-5, "TPOT ms");
      assertNear(5.258346167136365, t.value(sql.formatted("inter_token_latency_ms")), 1e-5, "ITL ms");
      assertNear(0.6891846656799316, t.value(sql.formatted("request_latency")), 1e-6, "latency s");
      // its report's statistics of all 46 requests stay the tool's own figures
      assertEquals(List.of(List.of(46.0, 16.792535781860348, "ms")), t.rows("SELECT"
          + " max(value) FILTER (WHERE stat = 'count'), max(value) FILTER (WHERE stat = 'mean'), any_value(unit) FILTER (WHERE stat = 'mean')"
          + " FROM reported_metrics WHERE metric = 'time_to_first_token_ms'"));
      // its request totals (0.2: beside the metrics): the file keeps 1 record of the 47 it counted
      assertEquals(List.of(List.of("requests_errored", 0.0), List.of("requests_incomplete", 1.0),
          List.of("requests_successful", 46.0), List.of("requests_total", 47.0)),
          t.rows("SELECT metric, value FROM reported_metrics WHERE metric LIKE 'requests\\_%' ESCAPE '\\'"
              + " AND stat = 'value' ORDER BY metric"));
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"));
    }
  }

  @Test
  void everyStatisticOfGuideLlmsOwnCodeIsRecomputed() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.writeBytes("sweep/benchmarks.json", Files.readAllBytes(SWEEP)));
      assertEquals(List.of(List.of("sweep", "concurrency", 2.0), List.of("sweep#2", "request_rate", 4.0)),
          t.rows("SELECT run, level_kind, level FROM runs ORDER BY run"));
      // 0.4+: the totals inside metrics, per benchmark
      assertEquals(List.of(List.of("sweep", 13.0), List.of("sweep#2", 9.0)), t.rows("SELECT run, value FROM"
          + " reported_metrics WHERE metric = 'requests_total' AND stat = 'value' ORDER BY run"));
      // 6 metrics x 18 statistics per benchmark, each GuideLLM's figure within the double's resolution
      List<List<Object>> rows = t.rows("SELECT m.run, m.metric, m.stat, m.value, c.value, m.unit, c.unit"
          + " FROM reported_metrics AS m LEFT JOIN guidellm_metrics AS c USING (run, metric, stat)"
          + " WHERE m.metric IN ('request_latency', 'prompt_token_count', 'output_token_count',"
          + " 'time_to_first_token_ms', 'time_per_output_token_ms', 'inter_token_latency_ms') ORDER BY ALL");
      assertEquals(2 * 6 * 18, rows.size());
      for (List<Object> r : rows) {
        String what = r.subList(0, 3).toString();
        assertNotNull(r.get(4), what + " not computed");
        double tol = r.get(5).equals("ms") ? 1e-3 : r.get(5).equals("s") ? 1e-6 : 1e-9;
        assertNear(((Number) r.get(3)).doubleValue(), r.get(4), tol, what);
        assertEquals(r.get(5), r.get(6), what + " unit");
      }
      // the weights: TPOT's count is the output tokens of the 13 requests in the window, ITL's
      // one fewer each (the request of a single token weighs nothing)
      assertEquals(List.of(List.of(13.0, 1114.0, 1101.0)), t.rows("SELECT"
          + " max(value) FILTER (WHERE metric = 'request_latency'), max(value) FILTER (WHERE metric = 'time_per_output_token_ms'),"
          + " max(value) FILTER (WHERE metric = 'inter_token_latency_ms') FROM guidellm_metrics WHERE run = 'sweep' AND stat = 'count'"));
      // the request before the window is kept, as warm-up: GuideLLM's metrics leave it out
      assertEquals(List.of(List.of("c-warm-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "warmup")),
          t.rows("SELECT request_id, phase FROM requests WHERE phase IS NOT NULL"));
      assertEquals(List.of(List.of("cancelled", "Request was cancelled"),
          List.of("error", "HTTPStatusError: 500 Internal Server Error")),
          t.rows("SELECT status, error FROM requests WHERE status <> 'ok' ORDER BY status"));
      assertEquals(25L, t.count("SELECT count(*) FROM requests"));
      assertEquals(0L, t.count("SELECT count(*) FROM rejects"));
    }
  }

  @Test
  void otherLayoutsByTheirKeys() throws Exception {
    // 0.7: top-level config (scenario) and metadata version 2; main of October 2025: first_iteration
    String v07 = """
        {"metadata": {"version": 2, "guidellm_version": "0.7.3"}, "config": {"spec": {"profile": {"kind": "sweep"}}},
         "benchmarks": [{"type_": "generative_benchmark", "config": {"strategy": {"type_": "poisson", "rate": 2.5}},
           "scheduler_metrics": {"measure_start_time": 1780000000.0, "measure_end_time": 1780000100.0},
           "metrics": {"time_to_first_token_ms": {"successful": {"mean": 40.0, "median": 40.0, "percentiles": {"p99": 40.0}}}},
           "requests": {"successful": [{"request_id": "a", "info": {"status": "completed", "timings":
             {"request_start": 1780000010.0, "first_token_iteration": 1780000010.04, "last_token_iteration": 1780000010.5,
              "request_end": 1780000010.51}}, "prompt_tokens": 10, "output_tokens": 5}],
             "errored": [], "incomplete": [], "total": null}}]}
        """;
    String transitional = """
        {"args": {}, "benchmarks": [{"type_": "generative_benchmark", "scheduler": {"strategy": {"type_": "throughput"}},
          "requests": {"successful": [{"request_id": "b", "info": {"status": "completed", "timings":
            {"request_start": 1761000000.0, "first_iteration": 1761000000.1, "last_iteration": 1761000000.3,
             "request_end": 1761000000.31}}, "output_tokens": 3}]}}]}
        """;
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("p25/benchmarks.json", v07), t.write("thr/benchmarks.json", transitional));
      assertEquals(List.of(List.of("p25", "request_rate", 2.5), java.util.Arrays.asList("thr", null, null)),
          t.rows("SELECT run, level_kind, level FROM runs ORDER BY run"));
      assertEquals(List.of(List.of("a", 40.0, 510.0), List.of("b", 100.0, 310.0)), t.rows(
          "SELECT request_id, round((first_token_ns - arrival_ns) / 1e6, 3), round((finished_ns - arrival_ns) / 1e6, 3)"
              + " FROM requests ORDER BY request_id"));
      // 0.4 and later: TPOT includes the TTFT, (last token - start) / N
      assertNear(100.0, t.value("SELECT value FROM guidellm_metrics WHERE run = 'p25'"
          + " AND metric = 'time_per_output_token_ms' AND stat = 'mean'"), 1e-3, "TPOT 0.7");
      assertEquals(List.of(List.of("time_to_first_token_ms", "p99", 40.0, "ms")),
          t.rows("SELECT metric, stat, value, unit FROM reported_metrics WHERE run = 'p25' AND stat = 'p99'"));
    }
  }

  @Test
  void whatCannotBeReadIsRejectedWithWhereAndWhy() throws Exception {
    GuidellmFormat f = new GuidellmFormat();
    // GuideLLM 0.1 (2024)
    RecordingSink s = parse(f, """
        {"benchmarks": [{"benchmarks": [{"mode": "synchronous", "rate": null, "results": [{"first_token_set": true,
          "decode_times": {"data": [0.01]}}], "errors": [], "concurrencies": []}], "args": {"mode": "sweep"}}]}
        """);
    assertEquals(1, s.c.rejects.size());
    assertTrue(s.c.rejects.get(0).reason().contains("GuideLLM 0.1"), s.c.rejects.toString());
    // a record without its start, a negative time: rejects naming the benchmark and the record;
    // the good record and the benchmark are read
    s = parse(f, """
        {"benchmarks": [{"type_": "generative_benchmark", "args": {"strategy": {"type_": "concurrent", "streams": 4}},
          "requests": {"successful": [
            {"request_id": "ok", "start_time": 1750000000.0, "end_time": 1750000001.0, "first_token_time": 1750000000.1,
             "last_token_time": 1750000000.9, "prompt_tokens": 5, "output_tokens": 9},
            {"request_id": "no-start", "end_time": 1750000001.0},
            {"request_id": "neg", "start_time": -3.0}], "errored": []}}]}
        """);
    assertEquals(2, s.c.records, "the benchmark and one request");
    assertEquals(List.of("benchmark 1, requests.successful[1]: no request start time (start_time)",
        "benchmark 1, requests.successful[2]: start_time: -3.0 is not a time in seconds"),
        s.c.rejects.stream().map(CollectingSink.Rej::reason).toList());
    // a file cut short: what came before is kept, the break is a reject
    String whole = Files.readString(SWEEP, StandardCharsets.UTF_8);
    s = parse(f, whole.substring(0, whole.length() / 2));
    assertTrue(s.c.records > 5, "records before the cut: " + s.c.records);
    assertEquals(1, s.c.rejects.size());
    String reason = s.c.rejects.get(0).reason();
    assertTrue(reason.contains("nothing after this point could be read") && reason.contains("(in benchmark "), reason);
  }

  /** A 0.4+ report of n successful requests, request i's TTFT 10 + i ms, one token each and a second later. */
  private static String ttftReport(int n, String extraRecord) {
    StringBuilder b = new StringBuilder("{\"benchmarks\": [{\"type_\": \"generative_benchmark\", \"config\":"
        + " {\"strategy\": {\"type_\": \"concurrent\", \"streams\": 4}}, \"requests\": {\"successful\": [");
    for (int i = 0; i < n; i++) {
      long start = 1780000000L + i;
      b.append(i == 0 ? "" : ",").append("{\"request_id\": \"r").append(i).append("\", \"output_tokens\": 2,"
          + " \"info\": {\"status\": \"completed\", \"timings\": {\"request_start\": ").append(start)
          .append(", \"first_token_iteration\": ").append(start).append(String.format(java.util.Locale.ROOT, ".%03d", 10 + i))
          .append(", \"last_token_iteration\": ").append(start).append(".5, \"request_end\": ").append(start).append(".6}}}");
    }
    return b.append(extraRecord).append("]}}]}").toString();
  }

  /**
   * The reviewed faults: the percentiles as numpy's cumsum reaches them (9 x 0.1 falls short of
   * 0.9; 10 x 0.005 of 0.05), a request of 0 tokens weighing nothing in ITL, a 0.2 record
   * without a content token kept, a second object after the report a reject, a window after the
   * requests said, and a "benchmarks" list of something else not read as GuideLLM's.
   */
  @Test
  void reviewedFaultsStayFixed() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("ten/benchmarks.json", ttftReport(10, "")), t.write("twohundred/benchmarks.json", ttftReport(200,
          ",{\"request_id\": \"empty\", \"output_tokens\": 0, \"info\": {\"status\": \"completed\", \"timings\":"
              + " {\"request_start\": 1790000000, \"request_end\": 1790000000.5}}}")));
      String sql = "SELECT stat, value FROM guidellm_metrics WHERE run = '%s' AND metric = 'time_to_first_token_ms'"
          + " AND stat IN (%s) ORDER BY stat";
      assertEquals(List.of(List.of("p50", 14.0), List.of("p90", 19.0)), t.rows(sql.formatted("ten", "'p50', 'p90'")));
      // the 201st request has no token: its TTFT counts as 0 (GuideLLM's `or 0.0`); numpy gives 19, 189, 207
      assertEquals(List.of(List.of("p05", 19.0), List.of("p90", 189.0), List.of("p99", 207.0)),
          t.rows(sql.formatted("twohundred", "'p05', 'p90', 'p99'")));
      // ITL: 200 requests of 2 tokens weigh 1 each, the one of 0 tokens nothing
      assertEquals(200.0, ((Number) t.value("SELECT value FROM guidellm_metrics WHERE run = 'twohundred'"
          + " AND metric = 'inter_token_latency_ms' AND stat = 'count'")).doubleValue());
    }
    GuidellmFormat f = new GuidellmFormat();
    RecordingSink s = parse(f, """
        {"benchmarks": [{"type_": "generative_benchmark", "args": {"strategy": {"type_": "synchronous"}},
          "requests": {"successful": [{"request_id": "reasoning", "start_time": 1750000000.0, "end_time": 1750000002.0,
            "first_token_time": -1.0, "last_token_time": -1.0, "prompt_tokens": 5, "output_tokens": 128,
            "time_to_first_token_ms": -1750000001000.0, "request_latency": 2.0}]}}]}
        {"benchmarks": []}
        """);
    assertEquals(2, s.c.records, "the benchmark and its request, kept without a first token");
    assertEquals(null, s.request("reasoning").ttftMs);
    assertEquals(List.of("more JSON after the object (a GuideLLM report holds one); not read"),
        s.c.rejects.stream().map(CollectingSink.Rej::reason).toList());
    s = parse(f, """
        {"benchmarks": [{"type_": "generative_benchmark", "requests": {"successful": [
            {"request_id": "a", "info": {"status": "completed", "timings": {"request_start": 1780000000.0, "request_end": 1780000001.0}}}]},
          "scheduler_metrics": {"measure_start_time": 1780000005.0, "measure_end_time": 1780000009.0},
          "config": {"strategy": {"type_": "constant", "rate": 2.0}}}]}
        """);
    // the record is held until the window comes (keys in another order, as YAML sorts them): it
    // ended before the window, so it is warm-up, and nothing is rejected
    assertEquals(List.of(), s.c.rejects, "no reject: the window applies to the records before it");
    assertEquals("warmup", s.request("a").phase);
    assertEquals(List.of("request_rate", 2.0), List.of(s.c.levels.get("tools")[0], s.c.levels.get("tools")[1]),
        "the level, stated after the requests");
    s = parse(f, """
        {"guidellm_version": "0.5.0", "benchmarks": [{"name": "ours", "ttft_p50_ms": 20}]}
        """);
    assertEquals(List.of("benchmark 1: not a GuideLLM benchmark (no args, config, metrics or requests)"),
        s.c.rejects.stream().map(CollectingSink.Rej::reason).toList());
  }

  /**
   * The YAML form (guidellm/yaml: each JSON report above saved by PyYAML's {@code yaml.dump}, as
   * GuideLLM's {@code save_file} does for a .yaml path): every table the same as from its JSON,
   * the window applied although YAML's sorted keys put the requests before it.
   */
  @Test
  void theYamlFormOfAReportReadsAsItsJson() throws Exception {
    String[] tables = {
        "SELECT * EXCLUDE (request_key, source_id, line_no, clock_id) FROM requests ORDER BY ALL",
        "SELECT * FROM runs ORDER BY ALL",
        "SELECT * EXCLUDE (source_id) FROM reported_metrics ORDER BY ALL",
        "SELECT * FROM guidellm_metrics ORDER BY ALL"};
    for (Path[] pair : new Path[][] {{FIXTURE, YAML.resolve("fixture-0.2.yaml")}, {SWEEP, YAML.resolve("sweep-0.5.yaml")}}) {
      List<List<List<Object>>> json = new java.util.ArrayList<>();
      List<List<List<Object>>> yaml = new java.util.ArrayList<>();
      try (TestDb t = new TestDb(tmp.resolve("json-" + pair[1].getFileName()))) {
        t.ingest(t.writeBytes("run/benchmarks.json", Files.readAllBytes(pair[0])));
        for (String q : tables) {
          json.add(t.rows(q));
        }
      }
      try (TestDb t = new TestDb(tmp.resolve("yaml-" + pair[1].getFileName()))) {
        t.ingest(t.writeBytes("run/benchmarks.yaml", Files.readAllBytes(pair[1])));
        assertEquals(List.of(List.of("guidellm-json")), t.rows("SELECT format FROM sources"));
        assertEquals(0L, t.count("SELECT count(*) FROM rejects"));
        for (String q : tables) {
          yaml.add(t.rows(q));
        }
        if (pair[1].toString().contains("sweep")) {
          assertEquals(List.of(List.of("c-warm-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "warmup")),
              t.rows("SELECT request_id, phase FROM requests WHERE phase IS NOT NULL"), "the window, after the requests");
        }
      }
      assertTrue(json.get(0).size() > 0 && json.get(2).size() > 0, "rows to compare");
      for (int i = 0; i < tables.length; i++) {
        assertEquals(json.get(i), yaml.get(i), pair[1].getFileName() + ": " + tables[i]);
      }
    }
  }

  /**
   * GuideLLM's own YAML test asset (real-logs/tools/guidellm-0.2-fixture-yaml: the report of
   * guidellm-0.2-fixture as a YAML that starts with the document start {@code ---}, keys in the
   * model's order) was "format not recognised": the sniff looked for a report key on the first
   * line only. It is found without --from and gives the same tables as the JSON report.
   */
  @Test
  void aYamlReportThatStartsWithItsDocumentStartIsRead() throws Exception {
    byte[] yaml = Files.readAllBytes(REAL_YAML);
    assertTrue(new String(yaml, StandardCharsets.UTF_8).startsWith("---\nbenchmarks:\n"), "the asset as committed");
    assertEquals(85, new GuidellmFormat().sniff(new dev.tokentime.ingest.Sample("benchmarks.yaml", yaml, 4096)));
    String[] tables = {
        "SELECT * EXCLUDE (request_key, source_id, line_no, clock_id) FROM requests ORDER BY ALL",
        "SELECT * FROM runs ORDER BY ALL",
        "SELECT * EXCLUDE (source_id) FROM reported_metrics ORDER BY ALL"};
    List<List<List<Object>>> json = new java.util.ArrayList<>();
    try (TestDb t = new TestDb(tmp.resolve("json-real"))) {
      t.ingest(t.writeBytes("run/benchmarks.json", Files.readAllBytes(FIXTURE)));
      for (String q : tables) {
        json.add(t.rows(q));
      }
    }
    try (TestDb t = new TestDb(tmp.resolve("yaml-real"))) {
      t.ingest(t.writeBytes("run/benchmarks.yaml", yaml));
      assertEquals(List.of(List.of("guidellm-json", 2L, 2L, 0L, 0L)),
          t.rows("SELECT format, lines, records, other_lines, rejected FROM sources"));
      assertEquals(174L, t.count("SELECT count(*) FROM reported_metrics"));
      assertEquals(List.of(List.of(1749157168182700400L, 1749157168203982400L)),
          t.rows("SELECT arrival_ns, first_token_ns FROM requests"));
      for (int i = 0; i < tables.length; i++) {
        assertEquals(json.get(i), t.rows(tables[i]), tables[i]);
      }
    }
    // what YAML allows before the first key: comments, a directive, blank lines, the start marker
    byte[] preamble = ("# saved by hand\n%YAML 1.1\n\n--- # report\n" + new String(yaml, StandardCharsets.UTF_8).substring(4))
        .getBytes(StandardCharsets.UTF_8);
    assertEquals(85, new GuidellmFormat().sniff(new dev.tokentime.ingest.Sample("benchmarks.yaml", preamble, 4096)));
    byte[] other = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\n".getBytes(StandardCharsets.UTF_8);
    assertEquals(0, new GuidellmFormat().sniff(new dev.tokentime.ingest.Sample("x.yaml", other, other.length)));
  }

  static final Path REAL_YAML = Path.of("src/test/resources/real-logs/tools/guidellm-0.2-fixture-yaml/benchmarks.yaml");

  @Test
  void aYamlReportIsClaimedByItsKeysAndOtherYamlIsNot() throws Exception {
    GuidellmFormat f = new GuidellmFormat();
    for (String name : new String[] {"fixture-0.2.yaml", "sweep-0.5.yaml"}) {
      byte[] b = Files.readAllBytes(YAML.resolve(name));
      int head = Math.min(b.length, 4096);
      assertEquals(85, f.sniff(new dev.tokentime.ingest.Sample("benchmarks.yaml", b, head)), name);
    }
    for (String other : new String[] {
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  replicas: 1\n",
        "load:\n  type: constant\n  stages:\n  - rate: 1\n    duration: 30\napi:\n  type: completion\n",
        "services:\n  vllm:\n    image: vllm/vllm-openai\n    ports:\n    - 8000:8000\n",
        "benchmarks:\n- name: ours\n  ttft_p50_ms: 20\n"}) {
      byte[] b = other.getBytes(StandardCharsets.UTF_8);
      assertEquals(0, f.sniff(new dev.tokentime.ingest.Sample("x.yaml", b, b.length)), other);
    }
  }

  /**
   * YAML closes what is open at the end of the input, so a cut file parses; a cut line is
   * rejected instead, never a record with a number cut short, and the records before it stay.
   */
  @Test
  void aCutYamlReportRejectsTheRecordItEndsIn() throws Exception {
    GuidellmFormat f = new GuidellmFormat();
    String text = Files.readString(YAML.resolve("sweep-0.5.yaml"));
    // the first successful record's request_end, cut inside its number: 1764000010.6847 -> 17640000
    int at = text.indexOf("request_end: 1764000010.6847");
    assertTrue(at > 0);
    String cut = text.substring(0, at + "request_end: 17640000".length());
    RecordingSink s = parse(f, cut);
    assertEquals(List.of("truncated YAML: the file ends inside a line (in benchmark 1, requests.successful[1]);"
        + " nothing after this point could be read"), s.c.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(cut.split("\n", -1).length, s.c.rejects.get(0).lineNo(), "the reject at the cut line");
    // the errored, the incomplete and the warm-up records came before it (sorted keys) and are kept whole
    assertEquals(3, s.c.records);
    assertTrue(s.requests.stream().noneMatch(r -> r.requestId.startsWith("c00-")), "the cut record is not stored");
    assertEquals(1764000012503000000L, s.request("c-err-cccccccccccccccccccccccccccccc").finishedNs);
    // cut at a line's end the file is whole as far as YAML can tell; here the record still lacks
    // its request_start (sorted after request_end) and is rejected for it, never stored
    String atLineEnd = text.substring(0, text.indexOf("\n", at) + 1);
    s = parse(f, atLineEnd);
    assertEquals(List.of("benchmark 1, requests.successful[1]: no request start time (info.timings.request_start)"),
        s.c.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(4, s.c.records, "the three records before it and the benchmark");
  }

  /**
   * A report over SnakeYAML's default document limit (3 M code points; a sweep's report is often
   * tens of MB) is read whole: it stopped at the limit with a reject, the rest lost.
   */
  @Test
  void aYamlReportOfManyMegabytesIsReadWhole() throws Exception {
    StringBuilder y = new StringBuilder("benchmarks:\n- config:\n    strategy:\n      streams: 2\n      type_: concurrent\n"
        + "  requests:\n    successful:\n");
    int n = 30_000;
    for (int i = 0; i < n; i++) {
      y.append("    - info:\n        status: completed\n        timings:\n          request_end: 1780000001.5\n"
          + "          request_start: 1780000000.25\n      output_tokens: 12\n      prompt_tokens: 100\n"
          + "      request_id: request-").append(i).append('\n');
    }
    assertTrue(y.length() > 3_200_000, "over the default limit: " + y.length());
    RecordingSink s = parse(new GuidellmFormat(), y.toString());
    assertEquals(List.of(), s.c.rejects);
    assertEquals(n + 1, s.c.records);
  }

  /**
   * A YAML report over 64 KiB whose last lines quote a console's title (here a comment; a request's
   * output can hold any text) is still the report: a structured document is its head's format.
   */
  @Test
  void aReportsTailNeverMakesItAConsoleSummary() throws Exception {
    byte[] yaml = (Files.readString(YAML.resolve("sweep-0.5.yaml")) + "# NVIDIA AIPerf | LLM Metrics\n")
        .getBytes(StandardCharsets.UTF_8);
    assertTrue(yaml.length > 64 << 10);
    try (TestDb t = new TestDb(tmp)) {
      var r = t.ingest(t.writeBytes("sweep/benchmarks.yaml", yaml)).files().get(0);
      assertEquals("guidellm-json", r.format());
      assertEquals(25L, t.count("SELECT count(*) FROM requests"));
    }
  }

  private static final Path YAML = Path.of("src/test/resources/guidellm/yaml");

  private static RecordingSink parse(GuidellmFormat f, String text) throws Exception {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    RecordingSink s = new RecordingSink();
    long units = f.parse(new java.io.ByteArrayInputStream(b), ToolOutputsTest.ctx("x/benchmarks.json"), s);
    assertEquals(units, s.c.records + s.c.other + s.c.rejects.size(), "every unit accounted");
    return s;
  }

  private static void assertNear(double want, Object got, double tol, String what) {
    assertNotNull(got, what);
    double g = ((Number) got).doubleValue();
    assertTrue(Math.abs(want - g) <= tol, what + ": expected " + want + " but was " + g);
  }
}
