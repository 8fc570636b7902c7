package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestService;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The live progress line: bytes, lines/s and ETA, redrawn in place and cleared at the end. */
class IngestReportTest {
  @Test
  void progressShowsBytesRateAndEtaAndIsRedrawnInPlace() {
    StringWriter progress = new StringWriter();
    IngestReport r = new IngestReport(new PrintWriter(new StringWriter()), new PrintWriter(progress));
    r.progress(new IngestService.Progress("big.jsonl", 50_000_000, 200_000_000, 1_000_000, 2.0));
    assertEquals("\rbig.jsonl  50.0 MB / 200.0 MB (25%)  500,000 lines/s  ETA 6 s", progress.toString());
    r.progress(new IngestService.Progress("big.jsonl", 100_000_000, 200_000_000, 2_000_000, 4.0));
    assertTrue(progress.toString().endsWith("\rbig.jsonl  100.0 MB / 200.0 MB (50%)  500,000 lines/s  ETA 4 s"),
        progress.toString());
  }

  @Test
  void withoutATerminalThereIsNoProgressLine() {
    StringWriter out = new StringWriter();
    IngestReport r = new IngestReport(new PrintWriter(out), null);
    r.progress(new IngestService.Progress("x", 1, 2, 3, 1.0));
    assertEquals("", out.toString());
  }

  /** A recognised file of which no line was read is said to be so, not reported as a plain success. */
  @Test
  void aFileOfOtherLinesOnlyIsNamed() {
    StringWriter out = new StringWriter();
    IngestReport r = new IngestReport(new PrintWriter(out), null);
    r.fileDone(new dev.tokentime.app.IngestResult.FileResult("res/notes.sh", "vllm-bench-console", "none", 1,
        "ingested", 51, 0, 51, 0, 0, 0, java.util.List.of(), null, null, java.util.List.of(), java.util.List.of()));
    r.fileDone(new dev.tokentime.app.IngestResult.FileResult("res/ok.txt", "vllm-bench-console", "none", 2,
        "ingested", 20, 16, 4, 0, 0, 0, java.util.List.of(), null, null, java.util.List.of(), java.util.List.of()));
    assertTrue(out.toString().contains("ingested res/notes.sh (vllm-bench-console): 51 lines = 0 records + 51 other"
        + " + 0 rejected; 0 requests, 0 tokens\n  note: nothing of it was read: every line is an other line of"
        + " vllm-bench-console"), out.toString());
    assertEquals(1, out.toString().split("nothing of it was read", -1).length - 1, out.toString());
  }

  @Test
  void etaIsUnknownBeforeAnyByteIsRead() {
    assertEquals(-1, new IngestService.Progress("x", 0, 10, 0, 0.5).etaSeconds());
    assertEquals(1.0, new IngestService.Progress("x", 5, 10, 0, 1.0).etaSeconds());
  }

  /**
   * An other line that looks like a known kind but is of another shape (a field more, as a newer
   * version may print) is said, not passed over; one cut short inside the file is a reject.
   */
  @Test
  void nearMissesAreNamedWithTheirFirstLineAndTheWayToSeeThem() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("nearmiss");
    String head = "INFO 01-01 00:00:00 [logger.py:43] Received request cmpl-1: params: SamplingParams(n=1), lora_request: None.\n"
        + "INFO 01-01 00:00:00 [logger.py:71] Generated response cmpl-1 (streaming delta): output: 'a', output_token_ids: [1], finish_reason: None\n";
    String newer = "INFO 01-01 00:00:01 [logger.py:71] Generated response cmpl-1 (streaming delta): output: 'b',"
        + " output_token_ids: [2], finish_reason: None, stop_reason: None\n";
    java.nio.file.Path one = java.nio.file.Files.writeString(dir.resolve("one.log"), head
        + newer
        + "INFO 01-01 00:00:01 [logger.py:71] Generated response cmpl-1 (streaming delta): output: 'c', output_token_ids: [3], finish_reason: stop\n");
    java.nio.file.Path two = java.nio.file.Files.writeString(dir.resolve("two.log"), head
        + newer
        + "INFO 01-01 00:00:01 [logger.py:71] Generated response cmpl-1 (streaming delta): output: 'b', output_tok\n"
        + newer
        + "INFO 01-01 00:00:01 [logger.py:71] Generated response cmpl-1 (streaming delta): output: 'c', output_token_ids: [3], finish_reason: stop\n");
    try (dev.tokentime.testing.TestDb t = new dev.tokentime.testing.TestDb(dir.resolve("db"))) {
      var r1 = t.ingest(one).files().get(0);
      assertEquals(new dev.tokentime.store.SourceWriter.NearMisses(1, 3, "generated"), r1.nearMisses());
      assertEquals(1, r1.otherLines(), "still an other line: no row, no reject");
      var r2 = t.ingest(two).files().get(0);
      assertEquals(new dev.tokentime.store.SourceWriter.NearMisses(2, 3, "generated"), r2.nearMisses());
      assertEquals(1, r2.rejected());
      assertEquals("truncated: a generated line cut short (it ends before its pattern does)",
          r2.firstRejects().get(0).reason(), "line 4, cut inside the file");
      StringWriter out = new StringWriter();
      IngestReport report = new IngestReport(new PrintWriter(out), null);
      report.fileDone(r1);
      report.fileDone(r2);
      String text = out.toString();
      assertTrue(text.contains("  note: line 3 looks like a generated line but does not match its pattern (cut short,"
          + " or a shape this version does not read); counted as other: tokentime ingest --explain " + one + " shows it"), text);
      assertTrue(text.contains("  note: 2 other lines look like known kinds of line but do not match their patterns"
          + " (the first, line 3, a generated line)"), text);
    }
  }
}
