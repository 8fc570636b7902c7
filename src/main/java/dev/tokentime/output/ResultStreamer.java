package dev.tokentime.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** Writes a whole result as CSV or JSON row by row, without holding it in memory. */
public final class ResultStreamer {
  private ResultStreamer() {}

  private static final JsonFactory JSON = JsonFactory.builder().build();

  /** Returns the number of rows written; text that reads as a formula is neutralised. */
  public static long csv(ResultSet rs, Writer out) throws SQLException, IOException {
    return csv(rs, out, false);
  }

  /**
   * Returns the number of rows written; unless {@code raw}, a text cell a spreadsheet would take
   * for a formula starts with an apostrophe ({@link Values#csvCell}).
   */
  public static long csv(ResultSet rs, Writer out, boolean raw) throws SQLException, IOException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    CSVPrinter p = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get());
    List<String> header = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      header.add(md.getColumnLabel(i));
    }
    p.printRecord(header.stream().map(h -> Values.csvCell(h, raw)).toList());
    long rows = 0;
    List<String> vals = new ArrayList<>(n);
    while (rs.next()) {
      vals.clear();
      for (int i = 1; i <= n; i++) {
        vals.add(Values.csvCell(rs.getObject(i), raw));
      }
      p.printRecord(vals);
      rows++;
      OutputClosed.check(out, rows);
    }
    p.flush();
    return rows;
  }

  /** A JSON array of objects, one per row. */
  public static long json(ResultSet rs, Writer out) throws SQLException, IOException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    String[] names = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = md.getColumnLabel(i + 1);
    }
    long rows = 0;
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      g.useDefaultPrettyPrinter();
      g.writeStartArray();
      while (rs.next()) {
        g.writeStartObject();
        for (int i = 0; i < n; i++) {
          g.writeFieldName(names[i]);
          TableRenderer.writeValue(g, rs.getObject(i + 1));
        }
        g.writeEndObject();
        rows++;
        if (rows % OutputClosed.EVERY == 0) {
          g.flush(); // the generator buffers: what it holds reaches the writer before the check
          OutputClosed.check(out, rows);
        }
      }
      g.writeEndArray();
    }
    out.write('\n');
    out.flush();
    return rows;
  }
}
