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
 * maxRows rows, a note when there were more), CSV and JSON streamed whole. EXPLAIN's plan is
 * printed as the text it is.
 */
final class ResultPrinter {
  private ResultPrinter() {}

  static void print(ResultSet rs, OutputFormat f, int width, long maxRows, PrintWriter out)
      throws SQLException, IOException {
    switch (f) {
      case CSV -> ResultStreamer.csv(rs, out);
      case JSON -> ResultStreamer.json(rs, out);
      default -> {
        TableData t = TableData.read(rs, maxRows);
        if (isPlan(t)) {
          for (Object[] row : t.rows()) {
            out.println(row[1]);
          }
        } else {
          print(t, f, width, out);
        }
      }
    }
    out.flush();
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
