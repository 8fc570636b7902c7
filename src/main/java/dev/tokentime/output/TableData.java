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

  static boolean isNumeric(int sqlType) {
    return switch (sqlType) {
      case java.sql.Types.TINYINT, java.sql.Types.SMALLINT, java.sql.Types.INTEGER,
          java.sql.Types.BIGINT, java.sql.Types.FLOAT, java.sql.Types.REAL, java.sql.Types.DOUBLE,
          java.sql.Types.DECIMAL, java.sql.Types.NUMERIC -> true;
      default -> false;
    };
  }
}
