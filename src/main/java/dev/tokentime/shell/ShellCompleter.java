package dev.tokentime.shell;

import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion: dot-commands at the start of a line, object names after .doc and .schema,
 * the settings of .format and .timer; in SQL, table, view, macro and column names (a qualified
 * name completes the columns after its dot) and a few keywords.
 */
final class ShellCompleter implements Completer {
  static final List<String> KEYWORDS = List.of("SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY",
      "HAVING", "LIMIT", "JOIN", "USING", "DISTINCT", "DESCRIBE", "SUMMARIZE", "WITH", "AS", "AND",
      "OR", "NOT", "count", "avg", "quantile_cont", "median");

  private final Catalog catalog;

  ShellCompleter(Catalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> out) {
    complete(line, out);
  }

  /** The same without a reader, for tests. */
  void complete(ParsedLine line, List<Candidate> out) {
    String head = line.line().stripLeading();
    if (head.startsWith(".")) {
      dotArguments(line, out);
      return;
    }
    String word = line.word().substring(0, line.wordCursor());
    int dot = word.lastIndexOf('.');
    if (dot >= 0) {
      // alias.col or view.col: the qualifier's own columns when it names an object, else all
      String qualifier = word.substring(0, dot);
      SortedSet<String> cols = catalog.columns().get(qualifier);
      for (String c : cols != null ? cols : catalog.allColumns()) {
        out.add(new Candidate(qualifier + "." + c, c, "columns", null, null, null, true));
      }
      return;
    }
    for (String o : catalog.objects()) {
      out.add(new Candidate(o, o, "tables, views and macros", null, null, null, true));
    }
    for (String c : catalog.allColumns()) {
      out.add(new Candidate(c, c, "columns", null, null, null, true));
    }
    boolean lower = !word.isEmpty() && Character.isLowerCase(word.charAt(0));
    for (String k : KEYWORDS) {
      String v = lower ? k.toLowerCase(Locale.ROOT) : k;
      out.add(new Candidate(v, v, "keywords", null, null, null, true));
    }
  }

  private void dotArguments(ParsedLine line, List<Candidate> out) {
    if (line.wordIndex() == 0) {
      for (DotCommands.Spec s : DotCommands.SPECS) {
        out.add(new Candidate(s.name(), s.name(), null, s.help(), null, null, true));
      }
      return;
    }
    if (line.wordIndex() != 1) {
      return;
    }
    switch (line.words().get(0)) {
      case ".doc", ".schema" -> catalog.objects().stream().filter(o -> !o.startsWith("_"))
          .forEach(o -> out.add(new Candidate(o, o, null, null, null, null, true)));
      case ".format" -> List.of("text", "csv", "json", "markdown")
          .forEach(f -> out.add(new Candidate(f, f, null, null, null, null, true)));
      case ".timer" -> List.of("on", "off")
          .forEach(f -> out.add(new Candidate(f, f, null, null, null, null, true)));
      default -> { }
    }
  }
}
