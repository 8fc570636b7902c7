package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `ingest --explain`: per line kind what matched, what came close, what no kind claims. */
class ExplainCommandTest {
  @TempDir
  Path tmp;

  static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out), new PrintWriter(err)).execute(args);
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  /**
   * A tool's table read inside a server's log is named on the file's line, by the ingest and by
   * --explain alike, and the line's counts stay the file's (all of its lines).
   */
  @Test
  void aBlockReadInsideTheLogIsNamedOnItsLine() {
    String log = "src/test/resources/constructed/mixed-logs/vllm-server-log-then-genai-perf-table.log";
    String line = log + " (vllm-log, genai-perf-console inside: 8 records): 25 lines = 12 records + 13 other + 0 rejected";
    String[] ingest = run("ingest", "--db", tmp.resolve("x.duckdb").toString(), log);
    assertEquals("0", ingest[0], ingest[2]);
    assertTrue(ingest[1].contains("ingested " + line + "; 0 requests, 0 tokens"), ingest[1]);
    String[] explain = run("ingest", "--explain", log);
    assertEquals("0", explain[0], explain[2]);
    assertTrue(explain[1].startsWith(line + "\n"), explain[1]);
  }

  @Test
  void showsWhatANewVersionChanged() throws Exception {
    Path log = Files.writeString(tmp.resolve("server.log"), ""
        + "(APIServer pid=1) INFO 03-17 15:38:03 [loggers.py:123] Engine 000: Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 2.0 tokens/s, Running: 3 reqs, Waiting: 1 reqs, GPU KV cache usage: 7.5%, Prefix cache hit rate: 0.0%\n"
        + "(APIServer pid=1) INFO 03-17 15:38:04 [async_llm.py:1] Added request chatcmpl-1.\n"
        + "(APIServer pid=1) INFO 03-17 15:38:05 [logger.py:1] Generated response chatcmpl-1 (streaming delta): output: 'x', tokens: [5]\n"
        + "(APIServer pid=1) INFO 03-17 15:38:06 [gpu_worker.py:1] Model loading took 14.2 GiB\n"
        + "(APIServer pid=1) INFO 02-30 15:38:06 [gpu_worker.py:1] impossible date\n");
    String[] r = run("ingest", "--explain", "--year", "2026", log.toString());
    assertEquals("0", r[0], r[2]);
    String out = r[1];
    assertTrue(out.contains(log + " (vllm-log): 5 lines = 2 records + 2 other + 1 rejected"), out);
    assertTrue(out.replaceAll(" +", " ").contains(" stats engine_stats 1 0"), out);
    assertTrue(out.replaceAll(" +", " ").contains(" generated requests 0 1"), out);
    assertTrue(out.contains("near misses of generated"), out);
    assertTrue(out.contains("3: (APIServer pid=1) INFO 03-17 15:38:05 [logger.py:1] Generated response chatcmpl-1 (streaming delta): output: …"), out);
    assertTrue(out.contains("1 log lines no kind claims (counted as other); the first:"), out);
    assertTrue(out.contains("4: (APIServer pid=1) INFO 03-17 15:38:06 [gpu_worker.py:1] Model loading took 14.2 GiB"), out);
    assertTrue(out.contains("5: not a valid time"), out);
  }

  @Test
  void aFileOfAFormatWithoutSpecIsBadInput() throws Exception {
    Path f = Files.writeString(tmp.resolve("r.jsonl"), "{\"request_id\":\"r1\",\"arrival_ns\":1}\n");
    String[] r = run("ingest", "--explain", f.toString());
    assertEquals("2", r[0]);
    assertTrue(r[2].contains("tokentime-jsonl is not spec-driven; --explain works for vllm-log"), r[2]);
  }

  static final String STEADY = "AIPerf's steady-state export: the run's figures over its detected steady window"
      + " (ramp-up and ramp-down left out), which tokentime does not read; the run's own are in profile_export_aiperf.json";

  /**
   * A file the ingest leaves out on purpose (AIPerf's steady-state export) said only "aiperf-summary
   * is not spec-driven", exit 2: --explain now gives the ingest's own words, what the file is and
   * what to read instead, named alone (the ingest then rejects its one line) or in its folder.
   */
  @Test
  void aFileTheIngestLeavesOutSaysWhatItIsAndWhatToReadInstead() throws Exception {
    String dir = "src/test/resources/constructed/aiperf-steady-state";
    String json = dir + "/profile_export_aiperf_steady_state.json";
    String[] alone = run("ingest", "--explain", json);
    assertEquals("0", alone[0], alone[2]);
    assertEquals(json + " (aiperf-summary): no record: the ingest rejects line 1: " + STEADY + "\n", alone[1]);
    String[] folder = run("ingest", "--explain", dir);
    assertEquals("0", folder[0], folder[2]);
    assertTrue(folder[1].contains(json + " (aiperf-summary): left out: " + STEADY + "\n"), folder[1]);
    assertTrue(folder[1].contains(dir + "/profile_export_aiperf_steady_state.csv (aiperf-summary): left out: " + STEADY + "\n"),
        folder[1]);
    // the same words as the ingest of the folder, which skips both
    String[] ingest = run("ingest", "--db", tmp.resolve("x.duckdb").toString(), dir);
    assertEquals("2", ingest[0]);
    assertTrue(ingest[1].contains(json + " (" + STEADY + ")"), ingest[1]);
    // beside the run's own export, a time-slice export is left out as the ingest of the two leaves it
    Path run = Files.createDirectories(tmp.resolve("artifacts"));
    Files.copy(Path.of(json), run.resolve("profile_export_aiperf_timeslices.json"));
    Files.writeString(run.resolve("profile_export_aiperf.json"), "{}");
    String[] slices = run("ingest", "--explain", run.toString());
    assertEquals("0", slices[0], slices[2]);
    assertTrue(slices[1].contains(run.resolve("profile_export_aiperf_timeslices.json") + " (aiperf-summary): left out:"
        + " AIPerf's time-slice export (--slice-duration): the run's figures per slice, which tokentime does not read;"
        + " the run's own are in profile_export_aiperf.json\n"), slices[1] + slices[2]);
  }
}
