package dev.tokentime.shell;

import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.ResultStreamer;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import java.io.IOException;
import java.io.PrintWriter;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Prints a result in the shell's format: text and Markdown through {@link TableRenderer} (up to
 * maxRows rows, a note when there were more; with maxRows 0 every row, a table of {@link #PAGE_ROWS}
 * rows at a time, so the shell never holds a whole big result), CSV and JSON streamed whole.
 * EXPLAIN's plan is printed as the text it is.
 */
final class ResultPrinter {
  private ResultPrinter() {}

  /** Rows of one printed table when every row is asked for: each page is aligned on its own. */
  static final int PAGE_ROWS = 10_000;

  static void print(ResultSet rs, OutputFormat f, int width, long maxRows, PrintWriter out)
      throws SQLException, IOException {
    switch (f) {
      case CSV -> ResultStreamer.csv(rs, out);
      case JSON -> ResultStreamer.json(rs, out);
      default -> {
        TableData t = TableData.read(rs, maxRows > 0 ? maxRows : PAGE_ROWS);
        if (isPlan(t)) {
          for (Object[] row : t.rows()) {
            out.println(row[1]);
          }
        } else if (maxRows > 0 || !t.truncated()) {
          print(t, f, width, out);
        } else {
          printPages(rs, t, f, width, out);
        }
      }
    }
    out.flush();
  }

  /**
   * Every row, a page at a time: text repeats the header over each page (its columns are aligned
   * to that page), Markdown gives its header once, so its pages make one table.
   */
  private static void printPages(ResultSet rs, TableData first, OutputFormat f, int width, PrintWriter out)
      throws SQLException {
    TableData page = first;
    boolean header = true;
    while (true) {
      TableData shown = new TableData(page.columns(), page.numeric(), page.rows(), false);
      if (f == OutputFormat.TEXT) {
        out.print(TableRenderer.text(shown, width));
      } else {
        String md = TableRenderer.markdown(shown);
        // the header and its rule are the first two lines
        out.print(header ? md : md.substring(md.indexOf('\n', md.indexOf('\n') + 1) + 1));
      }
      out.flush();
      header = false;
      if (!page.truncated()) {
        return;
      }
      page = TableData.readFrom(rs, page.columns(), page.numeric(), PAGE_ROWS);
    }
  }

  /** A table already in memory, e.g. what a dot-command made. */
  static void print(TableData t, OutputFormat f, int width, PrintWriter out) {
    // the renderer's own note names the query command's options; the shell has its own
    TableData shown = new TableData(t.columns(), t.numeric(), t.rows(), false);
    if (f == OutputFormat.TEXT) {
      out.print(TableRenderer.text(shown, width));
    } else {
      TableRenderer.write(shown, f, width, out);
    }
    if (t.truncated() && (f == OutputFormat.TEXT || f == OutputFormat.MARKDOWN)) {
      out.println("(only the first " + t.rows().size() + " rows shown: .maxrows 0 shows all, "
          + ".format csv writes all)");
    }
    out.flush();
  }

  private static boolean isPlan(TableData t) {
    return t.columns().equals(List.of("explain_key", "explain_value"));
  }
}
