package dev.tokentime.store;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;

/**
 * Hands one Arrow batch to DuckDB through the C stream interface (registerArrowStream) and runs
 * an {@code INSERT ... SELECT} over it: columnar, with no per-row JNI call. The batch's buffers
 * move to the stream and the batch is re-allocated empty.
 */
final class ArrowInserter {
  private ArrowInserter() {}

  /**
   * @param viewName name the stream is registered under; reusable (each registration replaces it)
   * @param insertSql an INSERT ... SELECT ... FROM viewName
   */
  static void insert(DuckDBConnection conn, BufferAllocator allocator, ArrowBatch batch,
      String viewName, String insertSql) throws SQLException {
    if (batch.rows() == 0) {
      return;
    }
    VectorSchemaRoot source = batch.rootForExport();
    try (OneBatchReader reader = new OneBatchReader(allocator, source);
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, reader, stream);
      conn.registerArrowStream(viewName, stream);
      try (Statement st = conn.createStatement()) {
        st.execute(insertSql);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // closing an in-memory reader; not expected
    } finally {
      batch.allocate();
    }
  }

  /**
   * An ArrowReader that yields one batch, taking over the buffers of a filled root. DuckDB
   * releases the exported stream (which closes this reader) from one of its worker threads, at
   * a moment of its choosing, possibly while we close it too: closing is idempotent and
   * serialised so the buffers are released exactly once.
   */
  private static final class OneBatchReader extends ArrowReader {
    private final VectorSchemaRoot source;
    private boolean done;
    private boolean closed;

    OneBatchReader(BufferAllocator allocator, VectorSchemaRoot source) {
      super(allocator);
      this.source = source;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (done) {
        return false;
      }
      done = true;
      VectorSchemaRoot target = getVectorSchemaRoot();
      for (int i = 0; i < source.getFieldVectors().size(); i++) {
        FieldVector from = source.getVector(i);
        from.makeTransferPair(target.getVector(i)).transfer();
      }
      target.setRowCount(source.getRowCount());
      return true;
    }

    @Override
    public synchronized void close(boolean closeReadSource) throws IOException {
      if (!closed) {
        closed = true;
        super.close(closeReadSource);
      }
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return source.getSchema();
    }
  }
}
