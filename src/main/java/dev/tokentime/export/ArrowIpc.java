package dev.tokentime.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;
import org.duckdb.DuckDBResultSet;

/**
 * A DuckDB result written as Arrow IPC, columnar all the way: DuckDB exports its result through
 * the Arrow C stream interface ({@code arrowExportStream}) and Arrow's IPC writer copies the
 * batches out, so no value passes through JDBC row by row. The stream format suits a pipe
 * (pyarrow.ipc.open_stream, polars.read_ipc_stream); the file format (Feather v2) a file.
 */
public final class ArrowIpc {
  private ArrowIpc() {}

  /** Rows per Arrow batch. */
  static final long BATCH_ROWS = 65_536;
  /** Bound on the Arrow memory held at once (a batch and its dictionaries), as for ingest. */
  static final long ARROW_LIMIT_BYTES = 256L << 20;

  /** Writes the result as an Arrow IPC stream; returns the rows written. Does not close out. */
  public static long writeStream(ResultSet rs, OutputStream out) throws SQLException, IOException {
    // the writer closes its channel, and a channel closes its stream: standard output stays open
    java.io.OutputStream unclosed = new java.io.FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        flush();
      }
    };
    return write(rs, Channels.newChannel(unclosed), false, out);
  }

  /** Writes the result as an Arrow IPC file (random access, with a footer); returns the rows. */
  public static long writeFile(ResultSet rs, WritableByteChannel out) throws SQLException, IOException {
    return write(rs, out, true, null);
  }

  /** {@code stream}: what the channel writes to, asked after each batch whether it failed. */
  private static long write(ResultSet rs, WritableByteChannel channel, boolean file, Object stream)
      throws SQLException, IOException {
    long rows = 0;
    try (BufferAllocator allocator = new RootAllocator(ARROW_LIMIT_BYTES);
        ArrowReader reader = (ArrowReader) rs.unwrap(DuckDBResultSet.class)
            .arrowExportStream(allocator, BATCH_ROWS)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      // the first batch loads the dictionaries (ENUM columns), which the writer's header needs
      boolean more = reader.loadNextBatch();
      try (ArrowWriter w = file ? new ArrowFileWriter(root, reader, channel)
          : new ArrowStreamWriter(root, reader, channel)) {
        w.start();
        while (more) {
          w.writeBatch();
          rows += root.getRowCount();
          dev.tokentime.output.OutputClosed.checkStream(stream);
          more = reader.loadNextBatch();
        }
        w.end();
      }
    }
    return rows;
  }
}
