package dev.tokentime.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Text tables are aligned and fit the terminal; every format escapes what it must. */
class TableRendererTest {
  static TableData table() {
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {"c1", 12L, 31.0321, "a rather long piece of text that will not fit"});
    rows.add(new Object[] {"c16", 3L, null, "x|y <b>"});
    return new TableData(List.of("run", "n", "ttft_ms", "note"), List.of(false, true, true, false), rows, false);
  }

  @Test
  void alignsNumbersRightAndTextLeft() {
    String t = TableRenderer.text(table(), Integer.MAX_VALUE);
    assertEquals(""
        + "run   n  ttft_ms  note\n"
        + "---  --  -------  ---------------------------------------------\n"
        + "c1   12   31.032  a rather long piece of text that will not fit\n"
        + "c16   3           x|y <b>\n", t);
  }

  @Test
  void cutsWideTextColumnsThenDropsColumnsToFitTheWidth() {
    String t = TableRenderer.text(table(), 30);
    for (String line : t.split("\n")) {
      if (!line.startsWith("(")) {
        assertTrue(line.length() <= 30, "line longer than 30: <" + line + ">");
      }
    }
    assertTrue(t.contains("a rather …") || t.contains("…"), t);
    String narrow = TableRenderer.text(table(), 12);
    assertTrue(narrow.contains("more column"), narrow);
    assertTrue(narrow.contains("use --format csv or a wider terminal"), narrow);
  }

  @Test
  void markdownCsvAndJsonEscape() {
    String md = TableRenderer.markdown(table());
    assertTrue(md.startsWith("| run | n | ttft_ms | note |\n|---|---:|---:|---|\n"), md);
    assertTrue(md.contains("x\\|y &lt;b&gt;"), md);
    String csv = TableRenderer.render(table(), OutputFormat.CSV, 80);
    assertEquals("run,n,ttft_ms,note\nc1,12,31.0321,a rather long piece of text that will not fit\nc16,3,,x|y <b>\n", csv);
    String json = TableRenderer.render(table(), OutputFormat.JSON, 80);
    assertTrue(json.contains("\"ttft_ms\" : null"), json);
    assertTrue(json.contains("\"n\" : 12"), json);
  }
}
