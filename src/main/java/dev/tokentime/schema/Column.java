package dev.tokentime.schema;

/**
 * One column of a canonical table: its DuckDB type, its unit and what it means.
 *
 * <p>The unit is part of the contract (durations in ms, timestamps in ns); the docs, the
 * {@code COMMENT ON COLUMN} statements and {@code tt_docs} are generated from it.
 */
public record Column(String name, String sqlType, String unit, String doc) {

  public static Column of(String name, String sqlType, String unit, String doc) {
    return new Column(name, sqlType, unit, doc);
  }

  /** The text stored with {@code COMMENT ON COLUMN}: "[unit] doc". */
  public String comment() {
    return "[" + unit + "] " + doc;
  }
}
