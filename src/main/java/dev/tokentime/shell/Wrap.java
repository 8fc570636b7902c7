package dev.tokentime.shell;

import java.util.List;

/**
 * Documentation laid out for a terminal: paragraphs wrapped at word boundaries, and aligned
 * columns whose last column (the doc) wraps under itself instead of being cut, as a table
 * would cut it.
 */
final class Wrap {
  private Wrap() {}

  /** Narrowest the wrapped text may get, however narrow the terminal. */
  static final int MIN_TEXT = 24;

  /** text wrapped to width, every line starting with indent, each ended by a line break. */
  static String text(String text, int width, String indent) {
    return lines(text, Math.max(MIN_TEXT, width - indent.length()), indent, indent);
  }

  /** Rows of cells: every column but the last aligned, the last wrapped in the room left. */
  static String columns(List<Object[]> rows, int width) {
    if (rows.isEmpty()) {
      return "";
    }
    int n = rows.get(0).length;
    int[] w = new int[n - 1];
    for (Object[] r : rows) {
      for (int i = 0; i < n - 1; i++) {
        w[i] = Math.max(w[i], cell(r[i]).length());
      }
    }
    int left = 2;
    for (int x : w) {
      left += x + 2;
    }
    String hanging = " ".repeat(left);
    StringBuilder sb = new StringBuilder();
    for (Object[] r : rows) {
      StringBuilder start = new StringBuilder("  ");
      for (int i = 0; i < n - 1; i++) {
        String c = cell(r[i]);
        start.append(c).append(" ".repeat(w[i] - c.length() + 2));
      }
      String last = cell(r[n - 1]);
      if (last.isEmpty()) {
        sb.append(start.toString().stripTrailing()).append('\n');
      } else {
        sb.append(lines(last, Math.max(MIN_TEXT, width - left), start.toString(), hanging));
      }
    }
    return sb.toString();
  }

  private static String cell(Object v) {
    return v == null ? "" : String.valueOf(v);
  }

  private static String lines(String text, int room, String first, String rest) {
    StringBuilder sb = new StringBuilder();
    StringBuilder line = new StringBuilder();
    String prefix = first;
    for (String word : text.strip().split("\\s+")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > room) {
        sb.append(prefix).append(line).append('\n');
        prefix = rest;
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    sb.append(prefix).append(line).append('\n');
    return sb.toString();
  }
}
