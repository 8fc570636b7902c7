package dev.tokentime.formats.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.formats.console.PerfAnalyzerFormatsTest.Read;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ollama's verbose timings as pasted in public issues: a request per block, the server's own
 * durations in ms (Go's printed durations converted exactly), the counts as tokens. The expected
 * values are read off the files by hand.
 */
class OllamaVerboseFormatTest {
  static final Path DIR = PerfAnalyzerFormatsTest.CONSOLE;
  static final Path CONSTRUCTED = Path.of("src/test/resources/constructed/cut-and-out-of-range-reports");

  @TempDir
  Path tmp;

  @Test
  void theBeforeAndAfterBlocksOf012AreTwoRequests() throws IOException, SQLException {
    Read r = PerfAnalyzerFormatsTest.read(DIR.resolve("ollama-verbose-0.12-before-after-pr12742.txt"));
    // 19 lines: "Before:", 8 block lines, a blank, "After:", 8 block lines
    PerfAnalyzerFormatsTest.counts(r, "ollama-verbose", 2, 17, 0);
    assertEquals(List.of("1", "2"), r.sink().requests.stream().map(q -> q.id()).toList());
    assertEquals(List.of(2L, 12L), r.sink().requests.stream().map(q -> q.lineNo()).toList());
    assertEquals(List.of(
        List.of("1", 2L, 31273.112939, 235.137439, 18173.182374, 32768, 1873, "ok", "{load_duration_ms=4970.54657}"),
        List.of("2", 12L, 30024.798033, 7779.621548, 17148.014223, 32768, 1769, "ok", "{load_duration_ms=4758.588663}")),
        rows("ollama-verbose-0.12-before-after-pr12742.txt"));
  }

  @Test
  void minutesMicrosecondsAndTheLibraryLines() throws IOException, SQLException {
    // 2m27.989997625s = 147.989997625 s; 2m7.682s = 127.682 s
    assertEquals(List.of(List.of("1", 1L, 147989.997625, 19747.0, 127682.0, 13, 1133, "ok", "{load_duration_ms=559.665542}")),
        rows("ollama-verbose-minutes-llm-ollama32.txt"));
    // 891.933µs (U+00B5) = 0.891933 ms; the command, the prompt and the answer are other lines
    assertEquals(List.of(List.of("1", 5L, 1279.118717, 231.416, 1042.407, 21, 25, "ok", "{load_duration_ms=0.891933}")),
        rows("ollama-verbose-microseconds-openwebui188.txt"));
    // early 2024: the runtime's library and offloaded layers after the rates
    assertEquals(List.of(List.of("1", 7L, 835.322625, 593.785, 240.374, 42, 10, "ok",
        "{load_duration_ms=0.452875, llm_library=metal, gpu_loaded_layers=1/27}")),
        rows("ollama-verbose-library-layers-pr2163.txt"));
  }

  @Test
  void hoursOfANotesFileOnceUnsupported() throws IOException, SQLException {
    Read r = PerfAnalyzerFormatsTest.read(DIR.resolve("ollama-verbose-hours-notes-prompt1.txt"));
    // a letter's closing, the block, the next prompt's heading
    PerfAnalyzerFormatsTest.counts(r, "ollama-verbose", 1, 14, 0);
    // 12m56.225656006s = 776.225656006 s; 2m44.614770215s = 164.614770215 s; 9m43.589092592s = 583.589092592 s
    assertEquals(List.of(List.of("1", 5L, 776225.656006, 164614.770215, 583589.092592, 409, 411, "ok",
        "{load_duration_ms=28021.117437}")), rows("ollama-verbose-hours-notes-prompt1.txt"));
  }

  @Test
  void aCutValueIsARejectAndTheBlocksOtherLinesStand() throws IOException {
    Read r = PerfAnalyzerFormatsTest.read("chat.txt", "total duration:       5.088275983s\nload duration:        1.365523ms\n"
        + "prompt eval count:    11 token(s)\nprompt eval duration: 204.563ms\nprompt eval rate:     53.77 tokens/s\n"
        + "eval count:           120 token(s)\neval duration:        4.87\n"
        + "total duration:       1.5s\neval count:           7 tok\n");
    PerfAnalyzerFormatsTest.counts(r, "ollama-verbose", 2, 5, 2);
    assertEquals(List.of(7L, 9L), r.sink().rejects.stream().map(x -> x.lineNo()).toList());
    assertTrue(r.sink().rejects.get(0).reason().startsWith("a cut line (Ollama's eval duration: expected a Go duration"),
        r.sink().rejects.toString());
    assertEquals(Arrays.asList(120, null), r.sink().requests.stream().map(q -> q.outputTokens()).toList());
  }

  @Test
  void aBlockOutOfRangeIsARejectAndTheFileStands() throws Exception {
    // the middle block's total duration, 800h0m0.1s, is over 30 days: before, its first line was
    // counted as a reject (by the range check) and as an other line, and the file was refused
    Path file = CONSTRUCTED.resolve("ollama-verbose-800h-block.txt");
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult.FileResult f = t.ingestSample(IngestOptions.of(List.of(file.toString())), "ollama-verbose",
          20, 2, 17, 1);
      assertEquals(1, f.firstRejects().size());
      assertEquals(12L, f.firstRejects().get(0).lineNo());
      assertTrue(f.firstRejects().get(0).reason().contains("out of range: 2.8800001E9 ms"), f.firstRejects().toString());
      assertEquals(List.of(List.of("1", 3L, 5088.275983), List.of("3", 18L, 2000.0)),
          t.rows("SELECT request_id, line_no, e2e_ms FROM requests ORDER BY request_id").stream()
              .map(r -> List.of(r.get(0), ((Number) r.get(1)).longValue(), r.get(2))).toList());
    }
  }

  @Test
  void proseWithADurationIsNotClaimed() {
    for (String text : List.of("total duration: 5 minutes\neval count: 3\n",
        "The total duration: 3.2s was long.\nWe looked at it.\n")) {
      byte[] b = text.getBytes(StandardCharsets.UTF_8);
      InputFormat f = FormatRegistry.standard().sniff(new Sample("notes.txt", b, b.length));
      assertNull(f == null ? null : f.id(), text);
    }
  }

  @Test
  void goDurations() {
    assertEquals(new BigDecimal("3723500000000"), OllamaVerboseFormat.goDurationNs("1h2m3.5s").stripTrailingZeros()
        .setScale(0));
    assertEquals(0, BigDecimal.ZERO.compareTo(OllamaVerboseFormat.goDurationNs("0s")));
    assertEquals(0, new BigDecimal("891933").compareTo(OllamaVerboseFormat.goDurationNs("891.933μs"))); // Greek mu
    assertEquals(0, new BigDecimal("750").compareTo(OllamaVerboseFormat.goDurationNs("750ns")));
    assertNull(OllamaVerboseFormat.goDurationNs("4.87"));
    assertNull(OllamaVerboseFormat.goDurationNs("1m"));
  }

  private List<List<Object>> rows(String file) throws SQLException {
    try (TestDb t = new TestDb(tmp.resolve(file))) {
      t.ingest(DIR.resolve(file));
      return t.rows("SELECT request_id, line_no, e2e_ms, prefill_ms, decode_ms, prompt_tokens, output_tokens, status,"
          + " CAST(extras AS VARCHAR) FROM requests ORDER BY request_id").stream()
          .map(row -> Arrays.asList(row.stream().map(v -> v instanceof Number n && !(v instanceof Double)
              && !(v instanceof Integer) ? (Object) n.longValue() : v).toArray()))
          .map(l -> (List<Object>) l).toList();
    }
  }
}
