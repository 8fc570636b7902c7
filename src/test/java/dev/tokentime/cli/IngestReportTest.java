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

  @Test
  void etaIsUnknownBeforeAnyByteIsRead() {
    assertEquals(-1, new IngestService.Progress("x", 0, 10, 0, 0.5).etaSeconds());
    assertEquals(1.0, new IngestService.Progress("x", 5, 10, 0, 1.0).etaSeconds());
  }
}
