package dev.tokentime.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser.ParseContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Completion over a real database's catalog, and the parser that decides when Enter runs. */
class ShellCompleterTest {
  @TempDir
  static Path tmp;
  static TestDb t;
  static ShellCompleter completer;

  @BeforeAll
  static void open() throws Exception {
    t = new TestDb(tmp);
    completer = new ShellCompleter(new Catalog(t.db.connection()));
  }

  @AfterAll
  static void close() {
    t.close();
  }

  /** The candidates JLine would offer that start with the word being typed, as it filters them. */
  static List<String> complete(String line) {
    ParsedLine p = new SqlLineParser().parse(line, line.length(), ParseContext.COMPLETE);
    List<Candidate> all = new ArrayList<>();
    completer.complete(p, all);
    String prefix = p.word().substring(0, p.wordCursor()).toLowerCase(java.util.Locale.ROOT);
    return all.stream().map(Candidate::value)
        .filter(v -> v.toLowerCase(java.util.Locale.ROOT).startsWith(prefix)).distinct().sorted().toList();
  }

  @Test
  void namesOfTablesViewsAndColumns() {
    assertEquals(List.of("request_latency", "request_links"), complete("SELECT * FROM request_l"));
    assertTrue(complete("SELECT ttft_").contains("ttft_ms"), complete("SELECT ttft_").toString());
    assertTrue(complete("SELECT * FROM itl_h").contains("itl_histogram"));
    assertTrue(complete("sel").contains("select"));
  }

  @Test
  void aQualifiedNameCompletesItsColumns() {
    assertEquals(List.of("clocks.clock_id"), complete("SELECT clocks.clock_i"));
    assertTrue(complete("SELECT r.ttft_").contains("r.ttft_ms"));
  }

  @Test
  void dotCommandsAndTheirArguments() {
    assertEquals(List.of(".doc"), complete(".do"));
    assertEquals(List.of("ttft_breakdown"), complete(".doc ttft_b"));
    assertEquals(List.of("run_levels", "run_summary", "runs"), complete(".schema run"));
    assertEquals(List.of("csv"), complete(".format c"));
    assertEquals(List.of("off", "on"), complete(".timer o"));
    assertFalse(complete(".doc _").contains("_meta"), "helpers are not offered");
  }

  @Test
  void enterInsideAStatementContinuesIt() {
    SqlLineParser p = new SqlLineParser();
    assertThrows(EOFError.class, () -> p.parse("SELECT 1", 8, ParseContext.ACCEPT_LINE));
    assertEquals("1", p.parse("SELECT 1;", 9, ParseContext.ACCEPT_LINE).words().get(1));
    p.parse(".tables", 7, ParseContext.ACCEPT_LINE);
  }
}
