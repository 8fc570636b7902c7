package dev.tokentime.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Text from the logs never drives the terminal: ESC, OSC, BEL and the C1 controls in a run name
 * or an error text are shown as \xHH in query text and Markdown output and in messages.
 */
class PrintableTest {
  private static final String HOSTILE = "run\u001b]0;owned\u0007\u001b[31mred\u009b2J";

  @Test
  void controlCharactersAreShownEscaped() {
    assertEquals("run\\x1b]0;owned\\x07\\x1b[31mred\\x9b2J", Terminal.printable(HOSTILE));
    String plain = "c16 ünïcode\ttab\nline";
    assertSame(plain, Terminal.printable(plain), "text without controls is returned as is");
  }

  @Test
  void queryTextAndMarkdownShowThemEscaped() {
    TableData t = new TableData(List.of("run"), List.of(false), List.<Object[]>of(new Object[] {HOSTILE}), false);
    for (String out : List.of(TableRenderer.text(t, 200), TableRenderer.markdown(t))) {
      assertFalse(out.chars().anyMatch(c -> c == 0x1b || c == 0x07 || c == 0x9b), out);
      assertFalse(!out.contains("x1b]0;owned"), out); // Markdown doubles the backslash
    }
  }

  @Test
  void aMessageWriterEscapesWhatPassesThrough() {
    StringWriter sw = new StringWriter();
    try (var w = Terminal.printable(sw)) {
      w.println("refused " + HOSTILE);
    }
    assertEquals("refused run\\x1b]0;owned\\x07\\x1b[31mred\\x9b2J" + System.lineSeparator(), sw.toString());
  }
}
