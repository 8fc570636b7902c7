package dev.tokentime.query;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One file of the SQL library, {@code queries/<area>/<name>.sql}: a documented header and exactly
 * one {@code CREATE VIEW} or {@code CREATE MACRO} named after the file.
 *
 * <pre>
 * -- What the view is, in plain sentences (the description).
 * -- @grain one row per request
 * -- @column ttft_ms [ms] Time to first token: first token minus arrival.
 * CREATE OR REPLACE VIEW request_latency AS ...
 * </pre>
 *
 * Macros document {@code -- @param name doc}, their columns when they return a table, and an
 * {@code -- @example SELECT * FROM name(5)} that the lint test runs.
 */
public record QueryFile(String path, String name, String kind, String description, String grain,
    List<Doc> columns, List<Doc> params, String example, String sql) {

  /** A documented column or parameter; unit is empty for parameters. */
  public record Doc(String name, String unit, String doc) {}

  private static final Pattern CREATE = Pattern.compile(
      "(?is)^\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?(VIEW|MACRO)\\s+([A-Za-z_][A-Za-z0-9_]*)");
  private static final Pattern COLUMN =
      Pattern.compile("^@column\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+\\[([^\\]]+)\\]\\s+(.+)$");
  private static final Pattern PARAM =
      Pattern.compile("^@param\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+(.+)$");

  /** Whether the object is a helper (not part of the documented API). */
  public boolean helper() {
    return name.startsWith("_");
  }

  public boolean isView() {
    return kind.equals("VIEW");
  }

  /** A macro that returns a table ({@code CREATE MACRO m(x) AS TABLE ...}). */
  public boolean isTableMacro() {
    return !isView() && java.util.regex.Pattern.compile("(?is)\\bAS\\s+TABLE\\b").matcher(sql).find();
  }

  /** Parses a library file; throws with the file and the problem when it breaks the conventions. */
  public static QueryFile parse(String path, String text) {
    StringBuilder desc = new StringBuilder();
    String grain = null;
    String example = null;
    List<Doc> cols = new java.util.ArrayList<>();
    List<Doc> params = new java.util.ArrayList<>();
    String[] lines = text.split("\n", -1);
    int i = 0;
    Doc last = null; // a doc line continued on the next comment line
    for (; i < lines.length; i++) {
      String l = lines[i].strip();
      if (l.isEmpty()) {
        last = null;
        continue;
      }
      if (!l.startsWith("--")) {
        break;
      }
      String c = l.substring(2).strip();
      Matcher m;
      if (c.startsWith("@grain")) {
        grain = c.substring("@grain".length()).strip();
        last = null;
      } else if (c.startsWith("@example")) {
        example = c.substring("@example".length()).strip();
        last = null;
      } else if ((m = COLUMN.matcher(c)).matches()) {
        last = new Doc(m.group(1), m.group(2).strip(), m.group(3).strip());
        cols.add(last);
      } else if ((m = PARAM.matcher(c)).matches()) {
        last = new Doc(m.group(1), "", m.group(2).strip());
        params.add(last);
      } else if (c.startsWith("@")) {
        throw new IllegalArgumentException(path + ": unknown doc tag: " + c);
      } else if (last != null && !c.isEmpty()) {
        List<Doc> list = cols.contains(last) ? cols : params;
        Doc longer = new Doc(last.name(), last.unit(), last.doc() + " " + c);
        list.set(list.indexOf(last), longer);
        last = longer;
      } else if (grain == null && cols.isEmpty() && params.isEmpty()) {
        desc.append(desc.length() > 0 && !c.isEmpty() ? " " : "").append(c);
      }
    }
    StringBuilder sql = new StringBuilder();
    for (; i < lines.length; i++) {
      sql.append(lines[i]).append('\n');
    }
    String body = sql.toString().strip();
    if (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).strip();
    }
    Matcher m = CREATE.matcher(body);
    if (!m.find()) {
      throw new IllegalArgumentException(path + ": must hold one CREATE VIEW or CREATE MACRO after its doc header");
    }
    String kind = m.group(1).toUpperCase(java.util.Locale.ROOT);
    String name = m.group(2);
    String fileName = path.substring(path.lastIndexOf('/') + 1).replaceFirst("\\.sql$", "");
    if (!name.equals(fileName)) {
      throw new IllegalArgumentException(path + ": creates " + name + " but the file is named " + fileName);
    }
    if (containsSecondStatement(body)) {
      throw new IllegalArgumentException(path + ": holds more than one statement");
    }
    return new QueryFile(path, name, kind, desc.toString().strip(), grain, List.copyOf(cols),
        List.copyOf(params), example, body);
  }

  /** A semicolon outside strings and comments means a second statement. */
  private static boolean containsSecondStatement(String sql) {
    boolean inString = false;
    for (int i = 0; i < sql.length(); i++) {
      char ch = sql.charAt(i);
      if (inString) {
        if (ch == '\'') {
          inString = false;
        }
      } else if (ch == '\'') {
        inString = true;
      } else if (ch == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
        int nl = sql.indexOf('\n', i);
        i = nl < 0 ? sql.length() : nl;
      } else if (ch == ';') {
        return true;
      }
    }
    return false;
  }
}
