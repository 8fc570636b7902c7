package dev.tokentime.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** Renders a {@link TableData} as aligned text, Markdown, CSV or JSON. */
public final class TableRenderer {
  private TableRenderer() {}

  private static final JsonFactory JSON = JsonFactory.builder().build();
  /** Narrowest a text column is shrunk to before columns are dropped. */
  static final int MIN_COLUMN = 8;

  public static String render(TableData t, OutputFormat f, int width) {
    StringWriter out = new StringWriter();
    write(t, f, width, out);
    return out.toString();
  }

  public static void write(TableData t, OutputFormat f, int width, Writer out) {
    try {
      switch (f) {
        case TEXT -> out.write(text(t, width));
        case MARKDOWN -> out.write(markdown(t));
        case CSV -> csv(t, out);
        case JSON -> json(t, out);
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Aligned columns (numbers right, text left), fitted to {@code width}: the widest text columns
   * are cut with "…" first, then trailing columns are left out and named in a note.
   */
  public static String text(TableData t, int width) {
    int n = t.columns().size();
    boolean[] whole = wholeNumberColumns(t);
    List<String[]> cells = new ArrayList<>();
    for (Object[] row : t.rows()) {
      String[] c = new String[n];
      for (int i = 0; i < n; i++) {
        c[i] = oneLine(whole[i] && row[i] != null ? Values.exact(row[i]) : Values.text(row[i]));
      }
      cells.add(c);
    }
    int[] w = new int[n];
    for (int i = 0; i < n; i++) {
      w[i] = t.columns().get(i).length();
      for (String[] c : cells) {
        w[i] = Math.max(w[i], c[i].length());
      }
    }
    // shrink the widest non-numeric columns while too wide
    while (total(w, n) > width) {
      int widest = -1;
      for (int i = 0; i < n; i++) {
        if (!t.numeric().get(i) && w[i] > MIN_COLUMN && (widest < 0 || w[i] > w[widest])) {
          widest = i;
        }
      }
      if (widest < 0) {
        break;
      }
      w[widest] = Math.max(MIN_COLUMN, w[widest] - Math.max(1, total(w, n) - width));
    }
    int shown = n;
    while (shown > 1 && total(w, shown) > width) {
      shown--;
    }
    StringBuilder sb = new StringBuilder();
    line(sb, t.columns().toArray(new String[0]), w, shown, t);
    StringBuilder rule = new StringBuilder();
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        rule.append("  ");
      }
      rule.append("-".repeat(w[i]));
    }
    sb.append(rule).append('\n');
    for (String[] c : cells) {
      line(sb, c, w, shown, t);
    }
    if (t.truncated()) {
      sb.append("(more rows not shown; use --max-rows N (a text table holds at most 100,000) or --format csv for all)\n");
    }
    if (shown < n) {
      sb.append("(").append(n - shown).append(" more column").append(n - shown > 1 ? "s" : "")
          .append(" not shown: ").append(String.join(", ", t.columns().subList(shown, n)))
          .append("; use --format csv or a wider terminal)\n");
    }
    return sb.toString();
  }

  /** Columns whose values are all whole numbers (a level of 4.0 reads better as 4). */
  private static boolean[] wholeNumberColumns(TableData t) {
    boolean[] whole = new boolean[t.columns().size()];
    for (int i = 0; i < whole.length; i++) {
      boolean any = false;
      boolean all = true;
      for (Object[] row : t.rows()) {
        if (row[i] instanceof Double d) {
          any = true;
          all &= d == Math.rint(d) && Math.abs(d) < 1e15;
        } else if (row[i] != null) {
          all = false;
        }
      }
      whole[i] = any && all;
    }
    return whole;
  }

  private static int total(int[] w, int count) {
    int s = 0;
    for (int i = 0; i < count; i++) {
      s += w[i] + (i > 0 ? 2 : 0);
    }
    return s;
  }

  private static void line(StringBuilder sb, String[] c, int[] w, int shown, TableData t) {
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        l.append("  ");
      }
      String v = fit(c[i], w[i]);
      boolean right = t.numeric().get(i);
      String pad = " ".repeat(w[i] - v.length());
      l.append(right ? pad + v : v + pad);
    }
    sb.append(l.toString().stripTrailing()).append('\n');
  }

  private static String fit(String s, int w) {
    return s.length() <= w ? s : s.substring(0, Math.max(0, w - 1)) + "…";
  }

  private static String oneLine(String s) {
    return s.indexOf('\n') < 0 && s.indexOf('\r') < 0 && s.indexOf('\t') < 0 ? s
        : s.replace("\r", "\\r").replace("\n", "\\n").replace("\t", " ");
  }

  public static String markdown(TableData t) {
    StringBuilder sb = new StringBuilder("|");
    for (String c : t.columns()) {
      sb.append(' ').append(md(c)).append(" |");
    }
    sb.append("\n|");
    for (int i = 0; i < t.columns().size(); i++) {
      sb.append(t.numeric().get(i) ? "---:|" : "---|");
    }
    sb.append('\n');
    for (Object[] row : t.rows()) {
      sb.append('|');
      for (Object v : row) {
        sb.append(' ').append(md(oneLine(Values.text(v)))).append(" |");
      }
      sb.append('\n');
    }
    if (t.truncated()) {
      sb.append("\n(more rows not shown)\n");
    }
    return sb.toString();
  }

  private static String md(String s) {
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
  }

  public static void csv(TableData t, Writer out) throws IOException {
    CSVPrinter p = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get());
    p.printRecord(t.columns().stream().map(h -> Values.csvCell(h, false)).toList());
    for (Object[] row : t.rows()) {
      List<String> vals = new ArrayList<>(row.length);
      for (Object v : row) {
        vals.add(Values.csvCell(v, false)); // text that reads as a formula is neutralised
      }
      p.printRecord(vals);
    }
    p.flush();
  }

  /** An array of objects, one per row, keys in column order. */
  public static void json(TableData t, Writer out) throws IOException {
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      g.writeStartArray();
      for (Object[] row : t.rows()) {
        g.writeStartObject();
        for (int i = 0; i < row.length; i++) {
          g.writeFieldName(t.columns().get(i));
          writeValue(g, row[i]);
        }
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    out.write('\n');
  }

  static void writeValue(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        g.writeNull();
      } else {
        g.writeNumber(d);
      }
    } else if (v instanceof Float f) {
      g.writeNumber(f);
    } else if (v instanceof Long l) {
      g.writeNumber(l);
    } else if (v instanceof Integer i) {
      g.writeNumber(i);
    } else if (v instanceof Short s) {
      g.writeNumber(s);
    } else if (v instanceof Byte b) {
      g.writeNumber(b);
    } else if (v instanceof BigInteger b) {
      g.writeNumber(b);
    } else if (v instanceof BigDecimal b) {
      g.writeNumber(b);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Map<?, ?> m) {
      g.writeStartObject();
      for (var e : m.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        writeValue(g, e.getValue());
      }
      g.writeEndObject();
    } else if (v instanceof java.sql.Array a) {
      Object arr;
      try {
        arr = a.getArray();
      } catch (java.sql.SQLException e) {
        arr = null;
      }
      if (arr instanceof Object[] objs) {
        g.writeStartArray();
        for (Object o : objs) {
          writeValue(g, o);
        }
        g.writeEndArray();
      } else {
        g.writeString(Values.exact(v));
      }
    } else {
      Map<String, Object> fields = Values.structFields(v);
      if (fields != null) {
        writeValue(g, fields);
      } else {
        g.writeString(Values.exact(v));
      }
    }
  }
}
