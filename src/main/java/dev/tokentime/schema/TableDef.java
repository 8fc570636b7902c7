package dev.tokentime.schema;

import java.util.List;
import java.util.stream.Collectors;

/** A table of the canonical schema, declared as data so DDL and docs cannot drift apart. */
public record TableDef(String name, String grain, String doc, List<Column> columns) {

  public String createSql() {
    return "CREATE TABLE IF NOT EXISTS " + name + " (\n    "
        + columns.stream().map(c -> c.name() + " " + c.sqlType()).collect(Collectors.joining(",\n    "))
        + "\n)";
  }

  /** COMMENT ON statements carrying the grain and the column docs into the database catalog. */
  public List<String> commentSql() {
    var out = new java.util.ArrayList<String>();
    out.add("COMMENT ON TABLE " + name + " IS " + quote(grain + ". " + doc));
    for (Column c : columns) {
      out.add("COMMENT ON COLUMN " + name + "." + c.name() + " IS " + quote(c.comment()));
    }
    return out;
  }

  public Column column(String columnName) {
    return columns.stream()
        .filter(c -> c.name().equals(columnName))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(name + " has no column " + columnName));
  }

  static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
