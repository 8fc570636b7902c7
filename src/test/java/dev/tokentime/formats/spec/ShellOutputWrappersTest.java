package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log as a user cuts it with shell tools for a post-mortem (constructed/shell-output, real vLLM
 * lines of real-logs/vllm/stats-lines.log; a real dmesg -T excerpt): grep -n / -H / -rn output, tail
 * over several files with its "==> file <==" headings, dmesg -T's bracketed time before the
 * kernel's OOM kill. The file a line came from is its instance, so two replicas' lines stay apart.
 */
class ShellOutputWrappersTest {
  static final Path DIR = Path.of("src/test/resources/constructed/shell-output");
  static final long A1 = ns("2025-05-22T02:20:59Z");
  static final long A2 = ns("2025-05-22T02:21:04Z");
  static final long B1 = ns("2025-07-24T09:55:30Z");
  static final long B2 = ns("2025-07-24T09:55:35Z");

  @TempDir
  Path tmp;

  static long ns(String t) {
    Instant i = Instant.parse(t);
    return i.getEpochSecond() * 1_000_000_000L;
  }

  private IngestResult.FileResult ingest(TestDb t, String file) throws Exception {
    IngestResult r = t.ingest(new IngestOptions(List.of(DIR.resolve(file).toString()), null, null, false, false,
        false, ZoneOffset.UTC, 2025));
    assertEquals(List.of(), r.failedChecks());
    assertEquals(1, r.files().size(), r.skipped().toString());
    assertEquals("vllm-log", r.files().get(0).format());
    return r.files().get(0);
  }

  private static List<Object> counts(IngestResult.FileResult f) {
    return List.of(f.lines(), f.records(), f.otherLines(), f.rejected());
  }

  private static List<List<Object>> rows(TestDb t, String sql) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> row : t.rows(sql)) {
      List<Object> r = new ArrayList<>();
      for (Object v : row) {
        r.add(v instanceof Number n ? (Object) n.longValue() : v);
      }
      out.add(r);
    }
    return out;
  }

  @Test
  void grepOverSeveralFilesNamesEachLinesFileAsItsInstance() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      // "logs/pod-a.log:6:INFO …", and a context line of -C, "logs/pod-b.log-9-INFO …"
      IngestResult.FileResult f = ingest(t, "grep-rn-two-pods.log");
      assertEquals(List.of(4L, 4L, 0L, 0L), counts(f));
      assertEquals(List.of(
          List.of(1L, "logs/pod-a.log", A1), List.of(2L, "logs/pod-b.log", B1),
          List.of(3L, "logs/pod-a.log", A2), List.of(4L, "logs/pod-b.log", B2)),
          rows(t, "SELECT line_no, instance, ts_ns FROM engine_stats ORDER BY line_no"));
    }
  }

  @Test
  void grepNumbersAreDroppedWithoutAnInstance() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      IngestResult.FileResult f = ingest(t, "grep-n.log");
      assertEquals(List.of(2L, 2L, 0L, 0L), counts(f));
      List<List<Object>> got = rows(t, "SELECT line_no, instance, ts_ns FROM engine_stats ORDER BY line_no");
      assertEquals(2, got.size());
      assertEquals(java.util.Arrays.asList(1L, null, A1), got.get(0));
      assertEquals(java.util.Arrays.asList(2L, null, A2), got.get(1));
    }
  }

  @Test
  void tailsFileHeadingIsTheInstanceOfTheLinesUnderIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      // two headings and the blank line between the blocks: other lines, never rejects
      IngestResult.FileResult f = ingest(t, "tail-two-pods.log");
      assertEquals(List.of(7L, 4L, 3L, 0L), counts(f));
      assertEquals(List.of(
          List.of(2L, "logs/pod-a.log", A1), List.of(3L, "logs/pod-a.log", A2),
          List.of(6L, "logs/pod-b.log", B1), List.of(7L, "logs/pod-b.log", B2)),
          rows(t, "SELECT line_no, instance, ts_ns FROM engine_stats ORDER BY line_no"));
    }
  }

  /**
   * grep -n over a client's bare traceback (constructed/client-traceback): "1:Traceback …" keeps its
   * number (grep's prefixes stop before "Traceback "), so the traceback stays bare and, its frames a
   * client's, no crash, as without grep.
   */
  @Test
  void grepNumberedClientTracebackIsNoCrash() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      List<String> lines = java.nio.file.Files.readAllLines(
          Path.of("src/test/resources/constructed/client-traceback/benchmark-client-error.txt"));
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < lines.size(); i++) {
        sb.append(i + 1).append(':').append(lines.get(i)).append('\n');
      }
      Path f = t.write("grep-n-client-traceback.txt", sb.toString());
      IngestResult r = t.ingest(new IngestOptions(List.of(f.toString()), "vllm-log", null, false, false, false,
          ZoneOffset.UTC, 2025));
      assertEquals(List.of(8L, 0L, 8L, 0L), counts(r.files().get(0)));
      assertEquals(0L, t.count("SELECT count(*) FROM engine_events"));
    }
  }

  @Test
  void dmesgTimesOomKillIsTheEnginesCrash() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      // two engine lines, then dmesg -T's oom-kill summary (other) and its "Out of memory: Killed
      // process" line: a crash at the last time the log gave (dmesg's ctime is not used)
      IngestResult.FileResult f = ingest(t, "dmesg-T-after-engine.log");
      assertEquals(List.of(4L, 3L, 1L, 0L), counts(f));
      assertEquals(List.of(List.of(4L, "crash", "Out of memory: Killed process 7899 (python)", A2)),
          rows(t, "SELECT line_no, kind, detail, ts_ns FROM engine_events ORDER BY line_no"));
    }
  }
}
