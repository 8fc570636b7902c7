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

  /** Every public view still answers after the ingest. */
  private static void viewsAnswer(TestDb t) throws Exception {
    for (List<Object> v : t.rows("SELECT view_name FROM duckdb_views() WHERE NOT internal "
        + "AND view_name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY 1")) {
      t.count("SELECT count(*) FROM (SELECT * FROM \"" + v.get(0) + "\")");
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
      assertTrue(reasons(t).contains("ttft_ms out of range: 1.0E19 ms"), reasons(t));
      assertEquals(0, t.count("SELECT count(*) FROM requests WHERE first_token_ns < arrival_ns"));
      viewsAnswer(t);
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
      viewsAnswer(t);
    }
  }
}
