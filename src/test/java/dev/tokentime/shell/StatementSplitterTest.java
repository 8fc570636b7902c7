package dev.tokentime.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementSplitterTest {

  @Test
  void statementsSpanLinesAndShareThem() {
    List<ShellInput> in = StatementSplitter.split("SELECT 1;\nSELECT\n  2\n;SELECT 3; SELECT 4;\n");
    assertEquals(List.of(
        new ShellInput("SELECT 1", 1, false),
        new ShellInput("SELECT\n  2", 2, false),
        new ShellInput("SELECT 3", 4, false),
        new ShellInput("SELECT 4", 4, false)), in);
  }

  @Test
  void semicolonsInStringsNamesAndCommentsDoNotEndAStatement() {
    List<ShellInput> in = StatementSplitter.split(
        "SELECT 'a;b' AS \"x;y\", 'it''s;' -- not; here\n/* nor; here */ FROM t;\n");
    assertEquals(1, in.size());
    assertEquals("SELECT 'a;b' AS \"x;y\", 'it''s;' -- not; here\n/* nor; here */ FROM t", in.get(0).text());
  }

  @Test
  void commentsBeforeAStatementAreDroppedAndItsLineIsWhereTheCodeStarts() {
    List<ShellInput> in = StatementSplitter.split("-- a question\n\n/* more\n */\n  SELECT 1;\n-- only a comment;\n");
    assertEquals(List.of(new ShellInput("SELECT 1", 5, false)), in);
  }

  @Test
  void dotCommandsAreLinesOfTheirOwnOnlyBetweenStatements() {
    List<ShellInput> in = StatementSplitter.split(".tables\nSELECT a\n.5 AS b;\n  .doc runs  \n");
    assertEquals(List.of(
        new ShellInput(".tables", 1, true),
        new ShellInput("SELECT a\n.5 AS b", 2, false),
        new ShellInput(".doc runs", 4, true)), in);
  }

  @Test
  void aLastStatementWithoutSemicolonStillCounts() {
    assertEquals(List.of(new ShellInput("SELECT 1", 1, false), new ShellInput("SELECT 2", 2, false)),
        StatementSplitter.split("SELECT 1;\nSELECT 2\n"));
  }

  @Test
  void completeWhenNothingIsLeftOpen() {
    assertTrue(StatementSplitter.isComplete(""));
    assertTrue(StatementSplitter.isComplete("SELECT 1;"));
    assertTrue(StatementSplitter.isComplete(".doc request_latency"));
    assertTrue(StatementSplitter.isComplete("SELECT 1;\n-- done"));
    assertFalse(StatementSplitter.isComplete("SELECT 1"));
    assertFalse(StatementSplitter.isComplete("SELECT 1;\nSELECT 2"));
    assertFalse(StatementSplitter.isComplete("SELECT ';"));
    assertFalse(StatementSplitter.isComplete("/* open;"));
  }
}
