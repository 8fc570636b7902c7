package dev.tokentime.store;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;

/**
 * The database side of a file's ingest: drains a {@link BatchPipe} into DuckDB, one
 * {@code INSERT ... SELECT} per run of batches of one table, each fed through the Arrow C stream
 * interface (registerArrowStream) without per-row JNI calls. Emptied batches go back to a pool
 * for the producer to refill.
 */
final class StreamInserter {
  private final DuckDBConnection conn;
  private final BufferAllocator allocator;
  private final BatchPipe pipe;
  private final Map<String, StagedTable> tables;
  private final Map<String, Queue<ArrowBatch>> pools;
  private final int sourceId;

  StreamInserter(DuckDBConnection conn, BufferAllocator allocator, BatchPipe pipe,
      Map<String, StagedTable> tables, Map<String, Queue<ArrowBatch>> pools, int sourceId) {
    this.sourceId = sourceId;
    this.conn = conn;
    this.allocator = allocator;
    this.pipe = pipe;
    this.tables = tables;
    this.pools = pools;
  }

  /** Inserts everything the producer hands over, until it is done. */
  void drain() throws SQLException, InterruptedException {
    String table;
    while ((table = pipe.nextTable()) != null) {
      StagedTable st = tables.get(table);
      String view = "_tt_stream_" + table.replace("_", "");
      try (PipeReader reader = new PipeReader(allocator, st, table);
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, reader, stream);
        conn.registerArrowStream(view, stream);
        try (Statement s = conn.createStatement()) {
          s.execute("INSERT INTO " + table + " SELECT " + st.selectFor(sourceId) + " FROM " + view);
        }
        if (reader.failure != null) {
          throw reader.failure;
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /**
   * An ArrowReader over one table's batches in the pipe. DuckDB calls it from its own threads and
   * releases it (closing it) when it chooses, possibly while we close it too: closing is
   * idempotent and serialised.
   */
  private final class PipeReader extends ArrowReader {
    private final StagedTable st;
    private final String table;
    private boolean closed;
    InterruptedException failure;

    PipeReader(BufferAllocator allocator, StagedTable st, String table) {
      super(allocator);
      this.st = st;
      this.table = table;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      ArrowBatch batch;
      try {
        batch = pipe.take(table);
      } catch (InterruptedException e) {
        failure = e;
        Thread.currentThread().interrupt();
        return false;
      }
      if (batch == null) {
        return false;
      }
      VectorSchemaRoot source = batch.rootForExport();
      VectorSchemaRoot target = getVectorSchemaRoot();
      for (int i = 0; i < source.getFieldVectors().size(); i++) {
        FieldVector from = source.getVector(i);
        from.makeTransferPair(target.getVector(i)).transfer();
      }
      target.setRowCount(source.getRowCount());
      pools.get(table).add(batch);
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
      return ArrowBatch.schema(st.cols);
    }
  }

  static Queue<ArrowBatch> newPool() {
    return new ConcurrentLinkedQueue<>();
  }
}
