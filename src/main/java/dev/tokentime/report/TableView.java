package dev.tokentime.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * A table as a report shows it: a title, a note, and chosen columns of a Tablesaw table with
 * headers that carry their units, each cell already formatted as text. HTML and Markdown render
 * the same views, so both reports show the same tables.
 *
 * @param numeric per column: right-aligned
 */
record TableView(String id, String title, String note, List<String> headers, List<Boolean> numeric,
    List<List<String>> rows) {

  boolean isEmpty() {
    return rows.isEmpty();
  }

  /**
   * One column: header (with unit), whether numeric, and the cell's text for a row; an optional
   * column is left out of a table where every cell of it is empty.
   */
  record Col(String header, boolean numeric, Function<Row, String> cell, boolean optional) {
    Col(String header, boolean numeric, Function<Row, String> cell) {
      this(header, numeric, cell, false);
    }
  }

  static Col text(String header, String column) {
    return new Col(header, false, r -> r.isMissing(column) ? "" : String.valueOf(r.getObject(column)));
  }

  static Col num(String header, String column) {
    return new Col(header, true, r -> r.isMissing(column) ? "" : Fmt.num(((Number) r.getObject(column)).doubleValue()));
  }

  /** A number column shown only where some row has a value (the tools' own counts of a run without rows). */
  static Col optionalNum(String header, String column) {
    Col c = num(header, column);
    return new Col(c.header(), true, c.cell(), true);
  }

  static Col pct(String header, String column) {
    return new Col(header, true, r -> r.isMissing(column) ? "" : Fmt.pct(((Number) r.getObject(column)).doubleValue()));
  }

  static Col of(String header, boolean numeric, Function<Row, String> cell) {
    return new Col(header, numeric, cell);
  }

  static TableView of(String id, String title, String note, Table t, List<Col> all) {
    List<Col> cols = all.stream().filter(c -> !c.optional() || hasValue(t, c)).toList();
    List<List<String>> rows = new ArrayList<>();
    for (Row r : t) {
      List<String> row = new ArrayList<>();
      for (Col c : cols) {
        row.add(c.cell().apply(r));
      }
      rows.add(row);
    }
    return new TableView(id, title, note, cols.stream().map(Col::header).toList(),
        cols.stream().map(Col::numeric).toList(), rows);
  }

  private static boolean hasValue(Table t, Col c) {
    for (Row r : t) {
      if (!c.cell().apply(r).isEmpty()) {
        return true;
      }
    }
    return false;
  }
}
