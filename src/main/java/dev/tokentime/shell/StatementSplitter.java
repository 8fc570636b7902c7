package dev.tokentime.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts SQL text, fed line by line, into statements at semicolons outside strings, quoted names
 * and comments, so that a statement may span lines and a line may hold several. A line starting
 * with '.' while no statement is open is a dot-command of its own (no semicolon needed).
 * Statements holding nothing but comments are dropped.
 */
public final class StatementSplitter {
  private final StringBuilder buf = new StringBuilder();
  private int lineNo;
  private int startLine;
  private boolean hasCode;
  private boolean inString;
  private boolean inQuotedName;
  private boolean inBlockComment;

  /** Feeds the next line (without its line break); returns the inputs it completed. */
  public List<ShellInput> feed(String line) {
    lineNo++;
    List<ShellInput> out = new ArrayList<>();
    if (!pending() && line.strip().startsWith(".")) {
      buf.setLength(0);
      out.add(new ShellInput(line.strip(), lineNo, true));
      return out;
    }
    boolean inLineComment = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      char next = i + 1 < line.length() ? line.charAt(i + 1) : 0;
      if (inLineComment) {
        buf.append(c);
        continue;
      }
      if (inBlockComment) {
        buf.append(c);
        if (c == '*' && next == '/') {
          buf.append(next);
          i++;
          inBlockComment = false;
        }
        continue;
      }
      if (inString || inQuotedName) {
        buf.append(c);
        // a doubled quote inside is an escaped quote: it closes and reopens, which this handles
        if (inString && c == '\'') {
          inString = false;
        } else if (inQuotedName && c == '"') {
          inQuotedName = false;
        }
        continue;
      }
      if (c == '-' && next == '-') {
        inLineComment = true;
        buf.append(c);
        continue;
      }
      if (c == '/' && next == '*') {
        inBlockComment = true;
        buf.append(c).append(next);
        i++;
        continue;
      }
      if (c == ';') {
        if (hasCode) {
          out.add(new ShellInput(buf.toString().strip(), startLine, false));
        }
        reset();
        continue;
      }
      if (!Character.isWhitespace(c)) {
        if (!hasCode) {
          hasCode = true;
          startLine = lineNo;
          buf.setLength(0); // comments before the statement are not part of it
        }
        if (c == '\'') {
          inString = true;
        } else if (c == '"') {
          inQuotedName = true;
        }
      }
      if (hasCode) {
        buf.append(c);
      }
    }
    if (hasCode) {
      buf.append('\n');
    }
    return out;
  }

  /** Whether a statement has begun and not yet ended with a semicolon. */
  public boolean pending() {
    return hasCode || inBlockComment;
  }

  /** At the end of the input: the statement left without a semicolon, or null. */
  public ShellInput finish() {
    ShellInput last = hasCode ? new ShellInput(buf.toString().strip(), startLine, false) : null;
    reset();
    return last;
  }

  private void reset() {
    buf.setLength(0);
    hasCode = false;
    inString = false;
    inQuotedName = false;
  }

  /** Whether text (one or more lines) ends outside any statement: everything in it is complete. */
  public static boolean isComplete(String text) {
    StatementSplitter s = new StatementSplitter();
    for (String line : text.split("\n", -1)) {
      s.feed(line);
    }
    return !s.pending();
  }

  /** Splits a whole text into its statements and dot-commands. */
  public static List<ShellInput> split(String text) {
    StatementSplitter s = new StatementSplitter();
    List<ShellInput> out = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      out.addAll(s.feed(line));
    }
    ShellInput last = s.finish();
    if (last != null) {
      out.add(last);
    }
    return out;
  }
}
