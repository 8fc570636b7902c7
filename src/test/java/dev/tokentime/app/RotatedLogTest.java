package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.Generated;
import dev.tokentime.testing.TestDb;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server log rotated into six files (server.log.5.gz … server.log.1, server.log) reads as the
 * log it was: one clock, so one measured window and its throughputs (they were n/a: a clock per
 * file), and each request the rotation split between two files one request, its arrival from
 * the first and its last tokens and finish from the second (each was two rows: 48 requests for
 * 40, the first part's E2E cut at the rotation).
 */
class RotatedLogTest {
  @TempDir
  Path tmp;

  static final String FIGURES = "SELECT count(*), count(*) FILTER (WHERE ok), round(avg(ttft_ms), 6), round(avg(e2e_ms), 6),"
      + " sum(output_tokens), round(max(e2e_ms), 6) FROM request_latency";
  static final String WINDOW = "SELECT ok_requests, round(duration_s, 6), round(output_tokens_per_s, 6) FROM run_summary";

  @Test
  void aRotatedLogReadsAsTheLogItWas() throws Exception {
    Path gen = Generated.into(tmp.resolve("gen"), "--form", "vllm-log", "--levels", "8", "--requests", "40",
        "--mean-output", "30", "--seed", "11", "--slots", "4");
    Path log = Files.list(gen.resolve("c8")).findFirst().orElseThrow();
    List<String> lines = Files.readAllLines(log);
    Path whole = Files.createDirectories(tmp.resolve("whole/c8"));
    Files.write(whole.resolve("server.log"), lines);
    Path rotated = Files.createDirectories(tmp.resolve("rotated/c8"));
    // six files, the two oldest compressed: a request queued long spans three or more of them
    int parts = 6;
    for (int i = 0; i < parts; i++) {
      List<String> part = lines.subList(lines.size() * i / parts, lines.size() * (i + 1) / parts);
      int age = parts - 1 - i;
      String name = age == 0 ? "server.log" : "server.log." + age;
      if (age >= 4) {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(rotated.resolve(name + ".gz")))) {
          out.write((String.join("\n", part) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
      } else {
        Files.write(rotated.resolve(name), part);
      }
    }

    List<Object> wholeFigures;
    List<Object> wholeWindow;
    long wholeGaps;
    try (TestDb t = new TestDb(tmp.resolve("db1"))) {
      t.ingest(IngestOptions.of(List.of(whole.toString())));
      wholeFigures = t.rows(FIGURES).get(0);
      wholeWindow = t.rows(WINDOW).get(0);
      wholeGaps = t.count("SELECT count(*) FROM token_gaps WHERE gap_ns IS NOT NULL");
    }
    assertEquals(40L, wholeFigures.get(0));
    try (TestDb t = new TestDb(tmp.resolve("db2"))) {
      t.ingest(IngestOptions.of(List.of(rotated.toString())));
      assertEquals(6L, t.count("SELECT count(*) FROM sources"));
      assertEquals(1L, t.count("SELECT count(DISTINCT clock_id) FROM requests"), "one clock for the log's files");
      long split = t.count("SELECT count(*) FROM request_links WHERE rule = 'log-rotation'");
      assertTrue(split >= 5, "requests in flight at the five rotations: " + split);
      assertTrue(t.count("SELECT max(n) FROM (SELECT count(*) AS n FROM request_links GROUP BY key_a)") >= 2,
          "a request spanning three files");
      assertEquals(wholeFigures, t.rows(FIGURES).get(0));
      assertEquals(wholeWindow, t.rows(WINDOW).get(0));
      // the one gap of each split request across the files' boundary is not a stored gap
      long gaps = t.count("SELECT count(*) FROM token_gaps WHERE gap_ns IS NOT NULL");
      assertTrue(gaps < wholeGaps && gaps >= wholeGaps - split, gaps + " of " + wholeGaps);
      // the run's window and throughputs exist (a clock per file left them n/a)
      assertTrue(((Number) wholeWindow.get(1)).doubleValue() > 0);
    }
  }

  /**
   * Two servers' logs that only look like a rotation (server.log and server.log.1 side by side,
   * written at the same time, with the same ids: cmpl-c8-0 …): no request of one is joined to the
   * other's; every request counts once.
   */
  @Test
  void twoServersLogsOfOneNameAreNotOneLog() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("two/c8"));
    for (int seed : new int[] {3, 4}) {
      Path gen = Generated.into(tmp.resolve("gen" + seed), "--form", "vllm-log", "--levels", "8", "--requests", "150",
          "--mean-output", "40", "--seed", Integer.toString(seed), "--slots", "4");
      List<String> lines = Files.readAllLines(Files.list(gen.resolve("c8")).findFirst().orElseThrow());
      // one server's log cut while requests were in flight, the other's begun mid-request: each
      // has rows a rotation would join
      Files.write(dir.resolve(seed == 3 ? "server.log.1" : "server.log"), seed == 3
          ? lines.subList(0, lines.size() * 3 / 5) : lines.subList(lines.size() * 2 / 5, lines.size()));
    }
    try (TestDb t = new TestDb(tmp.resolve("db3"))) {
      t.ingest(IngestOptions.of(List.of(dir.toString())));
      assertEquals(0L, t.count("SELECT count(*) FROM request_links"));
      assertEquals(t.count("SELECT count(*) FROM requests"), t.count("SELECT count(*) FROM request_latency"));
    }
  }

  /**
   * SGLang's --log-requests split by a rotation between a request's Receive line and its Finish
   * line (which states the whole request again, on the request's own clock): one request each,
   * as in the unsplit log (9 requests for 6 before, the Receive halves counted ok).
   */
  @Test
  void sglangRequestsSplitByARotationAreOneEach() throws Exception {
    List<String> lines = Files.readAllLines(Path.of("sample-logs/sglang-server/server.log"));
    Path whole = Files.createDirectories(tmp.resolve("sgw/r"));
    Files.write(whole.resolve("server.log"), lines);
    Path split = Files.createDirectories(tmp.resolve("sgs/r"));
    Files.write(split.resolve("server.log.1"), lines.subList(0, 24));
    Files.write(split.resolve("server.log"), lines.subList(24, lines.size()));
    String figures = "SELECT count(*), round(avg(e2e_ms), 3), sum(output_tokens), sum(prompt_tokens),"
        + " count(*) FILTER (WHERE ok) FROM request_latency";
    List<Object> expected;
    try (TestDb t = new TestDb(tmp.resolve("sgdb1"))) {
      t.ingest(IngestOptions.of(List.of(whole.toString())));
      expected = t.rows(figures).get(0);
    }
    assertEquals(6L, expected.get(0));
    try (TestDb t = new TestDb(tmp.resolve("sgdb2"))) {
      t.ingest(IngestOptions.of(List.of(split.toString())));
      assertEquals(expected, t.rows(figures).get(0));
      assertTrue(t.count("SELECT count(*) FROM request_links WHERE rule = 'log-rotation'") >= 3);
    }
  }

  /**
   * A server that crashed and started again, its new process using the same ids (V0's integer
   * ids: 1, 2, …), the log then rotated into parts: no request of the new process is joined to
   * one of the old (the same id before the restart: a request of 100 s, its tokens summed).
   */
  @Test
  void noRequestIsJoinedAcrossARestart() throws Exception {
    Path gen = Generated.into(tmp.resolve("genr"), "--form", "vllm-log", "--levels", "8", "--requests", "40",
        "--mean-output", "30", "--seed", "5", "--slots", "4");
    List<String> lines = Files.readAllLines(Files.list(gen.resolve("c8")).findFirst().orElseThrow()).stream()
        .map(l -> l.replaceAll("cmpl-c8-(\\d+)", "$1")).toList();
    java.util.regex.Pattern times = java.util.regex.Pattern.compile(
        "^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?Z)(.*? \\d\\d-\\d\\d )(\\d\\d:\\d\\d:\\d\\d)(.*)$");
    List<String> log = new java.util.ArrayList<>(lines.subList(0, lines.size() * 7 / 10));
    log.add("2026-01-01T00:05:00.000000Z (APIServer pid=2) INFO 01-01 00:05:00 [api_server.py:1] Starting vLLM server on http://0.0.0.0:8000");
    for (String l : lines) {
      // the new process: the same requests, five minutes later
      java.util.regex.Matcher m = times.matcher(l);
      if (m.matches()) {
        java.time.Instant at = java.time.Instant.parse(m.group(1)).plusSeconds(300);
        java.time.LocalTime clock = java.time.LocalTime.parse(m.group(3)).plusSeconds(300);
        l = at + m.group(2) + clock + m.group(4);
      }
      log.add(l.replace("pid=1)", "pid=2)"));
    }
    Path dir = Files.createDirectories(tmp.resolve("restart/c8"));
    int parts = 10;
    for (int i = 0; i < parts; i++) {
      int age = parts - 1 - i;
      Files.write(dir.resolve(age == 0 ? "server.log" : "server.log." + age),
          log.subList(log.size() * i / parts, log.size() * (i + 1) / parts));
    }
    try (TestDb t = new TestDb(tmp.resolve("rdb"))) {
      t.ingest(IngestOptions.of(List.of(dir.toString())));
      long restart = java.time.Instant.parse("2026-01-01T00:05:00Z").toEpochMilli() * 1_000_000L;
      assertTrue(t.count("SELECT count(*) FROM request_links") > 0, "the rotation's own continuations are joined");
      assertEquals(0L, t.count("SELECT count(*) FROM request_links AS k JOIN requests AS a ON a.request_key = k.key_a"
          + " JOIN requests AS b ON b.request_key = k.key_b WHERE a.arrival_ns < " + restart
          + " AND coalesce(b.arrival_ns, b.first_token_ns, b.finished_ns) > " + restart), "no pair across the restart");
      assertEquals(t.count("SELECT count(*) FROM requests") - t.count("SELECT count(DISTINCT key_b) FROM request_links"),
          t.count("SELECT count(*) FROM request_latency"));
      assertEquals(0L, t.count("SELECT count(*) FROM request_latency WHERE e2e_ms > 60000"), "no request spans the restart");
    }
  }
}
