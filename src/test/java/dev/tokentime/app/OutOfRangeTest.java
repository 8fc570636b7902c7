package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A number out of its field's range is a reject naming the field, never a wrapped INT64 that
 * breaks every later query ("Overflow in subtraction of INT64" from summary, report and check for
 * every run) nor an ArithmeticException that ends the command.
 */
class OutOfRangeTest {
  @TempDir
  Path tmp;

  private static String reasons(TestDb t) throws Exception {
    return String.valueOf(t.value("SELECT string_agg(reason, ' | ') FROM rejects"));
  }

  /**
   * Every public view still answers after the ingest, read as tokentime's query command reads it
   * (peer_comparison with its inputs computed first: Conventions.inputsFor).
   */
  private static void viewsAnswer(TestDb t) throws Exception {
    for (List<Object> v : t.rows("SELECT view_name FROM duckdb_views() WHERE NOT internal "
        + "AND view_name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY 1")) {
      String sql = "SELECT count(*) FROM (SELECT * FROM \"" + v.get(0) + "\")";
      try (var inputs = dev.tokentime.analysis.Conventions.inputsFor(t.db, sql)) {
        t.count(sql);
      } catch (java.sql.SQLException e) {
        throw new AssertionError("view " + v.get(0) + ": " + e.getMessage(), e);
      }
    }
  }

  @Test
  void anAiperfTtftOf1e19IsARejectNamingTtft() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("a"))) {
      List<String> lines = Files.readAllLines(Path.of("sample-logs/peers/aiperf/profile_export.jsonl"));
      String bad = lines.get(1).replaceFirst("\"time_to_first_token\":\\{\"value\":[0-9.]+", "\"time_to_first_token\":{\"value\":1e19");
      assertTrue(bad.contains("1e19"));
      lines.set(1, bad);
      Path f = Files.write(Files.createDirectories(tmp.resolve("run")).resolve("profile_export.jsonl"), lines);
      IngestResult r = t.ingest(f);
      assertEquals(1, r.rejected(), r.files().toString());
      assertEquals(lines.size() - 1, r.files().get(0).records());
      assertTrue(reasons(t).contains("ttft_ms out of range: 1.0E19 ms")
          || reasons(t).contains("time_to_first_token + inter_chunk_latency out of range: 1.0E19 ms"), reasons(t));
      assertEquals(0, t.count("SELECT count(*) FROM requests WHERE first_token_ns < arrival_ns"));
    }
  }

  @Test
  void trtllmSecondsAndTritonNanosecondsBeyondInt64AreRejectsNamingTheField() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("b"))) {
      String perf = Files.readString(Path.of("sample-logs/trtllm/trtllm-serve/perf_metrics.json"))
          .replaceFirst("\"first_token_time\":4000.0072", "\"first_token_time\":9300000000.5");
      assertTrue(perf.contains("9300000000.5"));
      Path p = Files.writeString(Files.createDirectories(tmp.resolve("serve")).resolve("perf_metrics.json"), perf);
      String trace = Files.readString(Path.of("sample-logs/trtllm/triton-trace/trace.json"))
          .replaceFirst("\"ns\": 9000000055000", "\"ns\": 9300000000000000000");
      assertTrue(trace.contains("9300000000000000000"));
      Path tr = Files.writeString(Files.createDirectories(tmp.resolve("triton")).resolve("trace.json"), trace);
      IngestResult r = t.ingest(p, tr);
      assertEquals(2, r.ingestedFiles(), r.files().toString());
      assertEquals(0, r.refusedFiles());
      String why = reasons(t);
      assertTrue(why.contains("first_token_time out of range") && why.contains("ns out of range"), why);
    }
  }

  /**
   * {@code sample} with the first match of {@code regex} replaced, ingested alone: the file is
   * read (not refused), the changed line is a reject whose reason contains {@code why}, nothing
   * stored is out of range, and every public view answers.
   */
  /** A sample with the first match of {@code regex} replaced (all matches after "(?all)"). */
  record Case(String sample, String regex, String replacement, String why) {}

  private int cases;

  /**
   * The samples of {@code cs} mutated and ingested together: each file is read (not refused),
   * its changed line is a reject whose reason contains {@code why}, nothing stored is out of
   * range, and (with {@code views}) every public view answers.
   */
  private void check(boolean views, Case... cs) throws Exception {
    List<Path> files = new java.util.ArrayList<>();
    for (Case c : cs) {
      Path src = Path.of(c.sample());
      String text = Files.readString(src);
      String bad = c.regex().startsWith("(?all)") ? text.replaceAll(c.regex().substring(6), c.replacement())
          : text.replaceFirst(c.regex(), c.replacement());
      assertTrue(!bad.equals(text), "the mutation applies to " + c.sample());
      Path dir = Files.createDirectories(tmp.resolve("in").resolve("case" + (++cases)));
      files.add(Files.writeString(dir.resolve(src.getFileName()), bad));
    }
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(files.toArray(Path[]::new));
      assertEquals(0, r.refusedFiles(), r.files().toString());
      for (int i = 0; i < cs.length; i++) {
        String path = files.get(i).toString();
        IngestResult.FileResult f = r.files().stream().filter(x -> x.path().endsWith(path)).findFirst().orElseThrow();
        assertTrue(f.rejected() >= 1, "a reject: " + f);
        String why = String.valueOf(t.value("SELECT string_agg(reason, ' | ') FROM rejects WHERE source_id = " + f.sourceId()));
        assertTrue(why.contains(cs[i].why()), cs[i] + ": " + why);
      }
      long bounds = dev.tokentime.ingest.Checked.MAX_EPOCH_NS;
      assertEquals(0, t.count("SELECT (SELECT count(*) FROM tokens WHERE ts_ns < 0 OR ts_ns > " + bounds + ")"
          + " + (SELECT count(*) FROM steps WHERE ts_ns < 0 OR ts_ns > " + bounds + " OR iter < 0 OR running < 0"
          + " OR isnan(duration_ms) OR isnan(kv_usage))"
          + " + (SELECT count(*) FROM engine_stats WHERE ts_ns < 0 OR ts_ns > " + bounds + " OR running < 0"
          + " OR waiting < 0 OR isnan(gen_tokens_per_s) OR isnan(prompt_tokens_per_s) OR isnan(kv_usage))"));
      if (views) {
        viewsAnswer(t);
      }
    }
  }

  static final Case[] VLLM_STATS = {
        new Case("sample-logs/vllm/server.log", "Running: 3 reqs", "Running: -1 reqs", "engine_stats running out of range: -1"),
        // Python prints an infinite rate "inf" ("nan", a rate over nothing, is no value: NULL)
        new Case("sample-logs/vllm/server.log", "Avg generation throughput: 6.9", "Avg generation throughput: inf",
            "not a number"),
        // a usage over 100 %: a share is 0 to 1
        new Case("sample-logs/vllm/server.log", "GPU KV cache usage: 7.5%", "GPU KV cache usage: 250.0%",
            "engine_stats kv_usage out of range: 2.5 (a share, 0 to 1)"),
        new Case("sample-logs/vllm/metrics.prom", "(vllm:kv_cache_usage_perc\\{[^}]*\\}) 0.07500000000000001", "$1 7.5",
            "vllm:kv_cache_usage_perc out of range: 7.5 (a share, 0 to 1)")
  };

  @Test
  void vllmLogStatsOutOfRangeAreRejectsNamingTheField() throws Exception {
    check(false, VLLM_STATS);
  }

  static final Case[] PROMETHEUS = {
        // vLLM's metrics: a scrape time of 1e19 ms
        new Case("sample-logs/vllm/metrics.prom", "(vllm:num_requests_running\\{[^}]*\\} 3.0) 1773761883000",
            "$1 10000000000000000000", "timestamp"),
        // SGLang's and Triton's: a negative count of running requests
        new Case("sample-logs/sglang-server/metrics.prom", "(sglang:num_running_reqs\\{[^}]*\\}) 3.0", "$1 -1",
            "num_running_reqs out of range: -1"),
        new Case("sample-logs/prometheus/triton.prom",
            "(nv_trt_llm_kv_cache_block_metrics\\{kv_cache_block_type=\"used\"[^}]*\\}) 310", "$1 -1e19", "out of range"),
        // a histogram bucket's count: negative, NaN, or fewer than a smaller bound's at the same time
        new Case("sample-logs/vllm/metrics.prom", "(time_to_first_token_seconds_bucket\\{[^}]*le=\"0.25\"\\}) 2.0", "$1 -2.0",
            "vllm:time_to_first_token_seconds_bucket{le=\"0.25\"} out of range: -2.0 (a count of observations)"),
        new Case("sample-logs/vllm/metrics.prom", "(time_to_first_token_seconds_bucket\\{[^}]*le=\"0.25\"\\}) 2.0", "$1 NaN",
            "out of range: NaN (a count of observations)"),
        new Case("sample-logs/vllm/metrics.prom", "(time_to_first_token_seconds_bucket\\{[^}]*le=\"0.5\"\\}) 3.0", "$1 1.0",
            "vllm:time_to_first_token_seconds_bucket{le=\"0.5\"} 1.0 is not cumulative: le=\"0.25\" at the same time counts 2.0")
  };

  @Test
  void prometheusScrapesOutOfRangeAreRejects() throws Exception {
    check(false, PROMETHEUS);
  }

  static final Case[] SGLANG_COUNTS = {
        new Case("sample-logs/sglang-server/server.log", "#queue-req: 0", "#queue-req: 9223372036854775808", "expected a whole number")
  };

  @Test
  void sglangLogCountsBeyondInt64AreRejects() throws Exception {
    check(false, SGLANG_COUNTS);
  }

  static final Case[] TRTLLM = {
        new Case("sample-logs/trtllm/trtllm-serve/iteration_stats.json", "\"iter\":1,", "\"iter\":-1,", "iter out of range: -1"),
        new Case("sample-logs/trtllm/trtllm-serve/iteration_stats.json", "\"numActiveRequests\":1,",
            "\"numActiveRequests\":9223372036854775808,", "numActiveRequests"),
        new Case("sample-logs/trtllm/trtllm-log/server.log", "(Received request \\S+ at )\\d+(\\.\\d+)?",
            "$14999999999.5", "out of range")
  };

  @Test
  void trtllmIterationStatsAndTextTimesOutOfRangeAreRejects() throws Exception {
    check(false, TRTLLM);
  }

  static final Case[] TRITON_TIMES = {
        // fits INT64 (2^62) but is neither an epoch time before 2100 nor a monotonic clock's
        new Case("sample-logs/trtllm/triton-trace/trace.json", "(?all)\"ns\": 90000(\\d{8})", "\"ns\": 46116860184$1",
            "out of range")
  };

  @Test
  void tritonTokenTimesOutsideAnyClocksRangeAreRejects() throws Exception {
    check(false, TRITON_TIMES);
  }

  static final Case[] PEER_TOKEN_TIMES = {
        new Case("sample-logs/peers/genai-perf/profile_export.json", "1767225600151000000", "9223372036854775808",
            "expected an integer (ns)"),
        new Case("sample-logs/peers/genai-perf/profile_export.json", "1767225600178000000", "4611686018427387904",
            "token ts_ns out of range"),
        new Case("sample-logs/peers/aiperf/profile_export.jsonl", "\"inter_chunk_latency\":\\{\"value\":\\[10.0\\]",
            "\"inter_chunk_latency\":{\"value\":[1e19]", "out of range"),
        new Case("sample-logs/peers/vllm-bench/vllm-bench-result.json", "\"itls\": \\[\\[0.018", "\"itls\": [[1e19",
            "out of range"),
        new Case("sample-logs/peers/sglang/sglang-bench.jsonl", "\"itls\": \\[\\[0.012", "\"itls\": [[NaN", "")
  };

  @Test
  void peerToolsTokenTimesOutOfRangeAreRejects() throws Exception {
    check(false, PEER_TOKEN_TIMES);
  }

  static final Case[] TRACES = {
        new Case("sample-logs/vllm/spans.jsonl", "\"doubleValue\":0.012", "\"doubleValue\":1e19", "out of range"),
        // Zipkin's µs at INT64's limit: the ns overflowed and ended the file (found by the fuzz suite)
        new Case("sample-logs/traces/zipkin.json", "\"timestamp\": 1775656901000000", "\"timestamp\": 9223372036854775807",
            "out of range")
  };

  @Test
  void otlpDoubleValueOf1e19IsARejectNamingTheField() throws Exception {
    check(false, TRACES);
  }

  static final Case[] CANONICAL = {
        new Case("sample-logs/canonical/c1.jsonl", "\"tokens_ns\":\\[1767225600044524888", "\"tokens_ns\":[-1",
            "negative timestamp -1"),
        new Case("sample-logs/canonical/c1.jsonl",
            "\"last_token_ns\":1767225600214514012,\"finished_ns\":1767225600214849864(.*?)1767225600214514012\\]",
            "\"last_token_ns\":4611686018427387904,\"finished_ns\":4611686018427387905$14611686018427387904]",
            // the sample says clock wall: past 2100 is no wall-clock time (else the token's range says so)
            "last_token_ns out of range: 4611686018427387904 ns is not a wall-clock time between 1990 and 2100")
  };

  @Test
  void canonicalTokenTimesAndStepsOutOfRangeAreRejects() throws Exception {
    check(false, CANONICAL);
  }

  /**
   * Every public view answers over every case above at once, and over the two standalone tests'
   * inputs (one ingest and one pass over the views: a pass per test cost most of this class's time).
   */
  @Test
  void everyViewAnswersOverEveryCase() throws Exception {
    List<Case> cases = new java.util.ArrayList<>();
    for (Case[] each : List.of(VLLM_STATS, PROMETHEUS, SGLANG_COUNTS, TRTLLM, TRITON_TIMES, PEER_TOKEN_TIMES, TRACES,
        CANONICAL)) {
      cases.addAll(List.of(each));
    }
    cases.add(new Case("sample-logs/peers/aiperf/profile_export.jsonl",
        "\"time_to_first_token\":\\{\"value\":[0-9.]+", "\"time_to_first_token\":{\"value\":1e19", "out of range"));
    cases.add(new Case("sample-logs/trtllm/trtllm-serve/perf_metrics.json", "\"first_token_time\":4000.0072",
        "\"first_token_time\":9300000000.5", "first_token_time out of range"));
    cases.add(new Case("sample-logs/trtllm/triton-trace/trace.json", "\"ns\": 9000000055000", "\"ns\": 9300000000000000000",
        "ns out of range"));
    check(true, cases.toArray(Case[]::new));
  }
}
