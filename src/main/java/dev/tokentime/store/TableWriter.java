package dev.tokentime.store;

import java.sql.SQLException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.duckdb.DuckDBConnection;

/**
 * Appends rows to one DuckDB table through Arrow batches: fill {@link #batch()}, call
 * {@link #endRow()}; every {@code capacity} rows the batch is inserted. {@link #flush()} inserts
 * the rest. The select list maps staged Arrow columns onto the table's columns (casts, MAPs).
 */
final class TableWriter implements AutoCloseable {
  private final DuckDBConnection conn;
  private final BufferAllocator allocator;
  private final ArrowBatch batch;
  private final String viewName;
  private final String insertSql;
  private long rowsWritten;

  /**
   * @param table target table
   * @param cols staged Arrow columns
   * @param selectList one SQL expression per target column, in table order, over the staged columns
   */
  TableWriter(DuckDBConnection conn, BufferAllocator allocator, String table,
      List<ArrowBatch.Col> cols, List<String> selectList, int capacity) {
    this.conn = conn;
    this.allocator = allocator;
    this.batch = new ArrowBatch(allocator, cols, capacity);
    this.viewName = "_tt_arrow_" + table;
    this.insertSql = "INSERT INTO " + table + " SELECT "
        + String.join(", ", selectList) + " FROM " + viewName;
  }

  ArrowBatch batch() {
    return batch;
  }

  void endRow() throws SQLException {
    batch.endRow();
    rowsWritten++;
    if (batch.full()) {
      flush();
    }
  }

  void flush() throws SQLException {
    ArrowInserter.insert(conn, allocator, batch, viewName, insertSql);
  }

  long rowsWritten() {
    return rowsWritten;
  }

  @Override
  public void close() {
    batch.close();
  }
}
