package dev.tokentime.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The producer side of a file's ingest: one Arrow batch being filled per table; a full batch goes
 * into the {@link BatchPipe} and an emptied one comes back from the pool. Only the parser's
 * thread touches this. Tables are addressed by their index in {@code tables} (a per-row string
 * lookup showed up in profiles).
 */
final class RowBuffers implements AutoCloseable {
  private final BufferAllocator allocator;
  private final BatchPipe pipe;
  private final List<StagedTable> tables;
  private final String[] names;
  private final int[] capacities;
  private final Queue<ArrowBatch>[] pools;
  private final ArrowBatch[] current;
  private final List<ArrowBatch> created = new ArrayList<>();

  @SuppressWarnings("unchecked")
  RowBuffers(BufferAllocator allocator, BatchPipe pipe, List<StagedTable> tables,
      Map<String, Queue<ArrowBatch>> pools, int[] capacities) {
    this.allocator = allocator;
    this.pipe = pipe;
    this.tables = tables;
    this.capacities = capacities;
    this.names = new String[tables.size()];
    this.pools = new Queue[tables.size()];
    this.current = new ArrowBatch[tables.size()];
    for (int i = 0; i < tables.size(); i++) {
      names[i] = tables.get(i).table.name();
      this.pools[i] = pools.get(names[i]);
    }
  }

  /** The batch the next row of table t goes into. */
  ArrowBatch batch(int t) {
    ArrowBatch b = current[t];
    if (b == null) {
      b = pools[t].poll();
      if (b == null) {
        b = new ArrowBatch(allocator, tables.get(t).cols, capacities[t]);
        synchronized (created) {
          created.add(b);
        }
      } else {
        b.allocate();
      }
      current[t] = b;
    }
    return b;
  }

  /** Closes the current row of table t; a full batch is handed to the database side. */
  void endRow(int t) {
    ArrowBatch b = current[t];
    b.endRow();
    if (b.full()) {
      current[t] = null;
      offer(names[t], b);
    }
  }

  /** Hands over every partly filled batch and tells the database side that nothing follows. */
  void finish() {
    for (int t = 0; t < current.length; t++) {
      ArrowBatch b = current[t];
      if (b != null && b.rows() > 0) {
        offer(names[t], b);
      } else if (b != null) {
        pools[t].add(b);
      }
      current[t] = null;
    }
    pipe.finish(null);
  }

  private void offer(String table, ArrowBatch b) {
    try {
      pipe.offer(table, b);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while handing rows to the database", e);
    }
  }

  /** Releases every batch this file allocated (after the database side has finished). */
  @Override
  public void close() {
    synchronized (created) {
      created.forEach(ArrowBatch::close);
      created.clear();
    }
  }
}
