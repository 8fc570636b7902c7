package dev.tokentime.output;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A small result held in memory for rendering: column names, whether each column is numeric, and
 * rows of JDBC values. {@code truncated} is set when more rows existed than were kept.
 */
public record TableData(List<String> columns, List<Boolean> numeric, List<Object[]> rows,
    boolean truncated) {

  /** Reads up to {@code maxRows} rows (all when maxRows &lt;= 0). */
  public static TableData read(ResultSet rs, long maxRows) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<String> cols = new ArrayList<>(n);
    List<Boolean> numeric = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      cols.add(md.getColumnLabel(i));
      numeric.add(isNumeric(md.getColumnType(i)));
    }
    List<Object[]> rows = new ArrayList<>();
    boolean truncated = false;
    while (rs.next()) {
      if (maxRows > 0 && rows.size() >= maxRows) {
        truncated = true;
        break;
      }
      Object[] row = new Object[n];
      for (int i = 0; i < n; i++) {
        row[i] = rs.getObject(i + 1);
      }
      rows.add(row);
    }
    return new TableData(cols, numeric, rows, truncated);
  }

  /**
   * The next rows of a result whose cursor is on a row not read yet (where {@link #read} or this
   * stopped when {@code truncated}): that row and up to {@code maxRows - 1} after it; truncated
   * again when rows remain, the cursor then on the first of them. A caller that prints a result
   * a page at a time holds one page, never the whole result.
   */
  public static TableData readFrom(ResultSet rs, List<String> columns, List<Boolean> numeric, long maxRows)
      throws SQLException {
    int n = columns.size();
    List<Object[]> rows = new ArrayList<>();
    boolean truncated = false;
    do {
      if (rows.size() >= maxRows) {
        truncated = true;
        break;
      }
      Object[] row = new Object[n];
      for (int i = 0; i < n; i++) {
        row[i] = rs.getObject(i + 1);
      }
      rows.add(row);
    } while (rs.next());
    return new TableData(columns, numeric, rows, truncated);
  }

  static boolean isNumeric(int sqlType) {
    return switch (sqlType) {
      case java.sql.Types.TINYINT, java.sql.Types.SMALLINT, java.sql.Types.INTEGER,
          java.sql.Types.BIGINT, java.sql.Types.FLOAT, java.sql.Types.REAL, java.sql.Types.DOUBLE,
          java.sql.Types.DECIMAL, java.sql.Types.NUMERIC -> true;
      default -> false;
    };
  }
}
