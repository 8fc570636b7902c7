package dev.tokentime.store;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Full Arrow batches travelling from the parser's thread to the database's. The producer offers
 * batches per table and blocks while too many wait (bounded memory); the consumer streams one
 * table at a time into a single {@code INSERT ... SELECT} and switches tables only when another
 * table has batches waiting and the current one has none — so a file's tokens go to DuckDB as one
 * long stream, which DuckDB inserts several times faster than batch-by-batch statements.
 */
final class BatchPipe {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<String, ArrayDeque<ArrowBatch>> queues = new LinkedHashMap<>();
  private final int maxPending;
  private int pending;
  /** Time the producer spent waiting for the database side (for TOKENTIME_TIMING). */
  long producerWaitNs;
  /** Time the database side spent waiting for the producer. */
  long consumerWaitNs;
  private boolean producerDone;
  private Throwable producerFailure;
  private Throwable consumerFailure;

  BatchPipe(int maxPending) {
    this.maxPending = maxPending;
  }

  /** Producer: hands over a full batch; waits while maxPending batches are waiting. */
  void offer(String table, ArrowBatch batch) throws InterruptedException {
    lock.lock();
    try {
      long w0 = System.nanoTime();
      while (pending >= maxPending && consumerFailure == null) {
        changed.await();
      }
      producerWaitNs += System.nanoTime() - w0;
      if (consumerFailure != null) {
        throw new IllegalStateException("the database side of the ingest stopped: " + consumerFailure.getMessage(),
            consumerFailure);
      }
      queues.computeIfAbsent(table, t -> new ArrayDeque<>()).add(batch);
      pending++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Producer: no more batches (after a failure too, so the consumer stops). */
  void finish(Throwable failure) {
    lock.lock();
    try {
      producerDone = true;
      producerFailure = failure;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Consumer: it failed; a producer waiting to hand over a batch is released with an error. */
  void consumerFailed(Throwable failure) {
    lock.lock();
    try {
      consumerFailure = failure;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Consumer: the table to stream next, or null when the producer is done and all is drained. */
  String nextTable() throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        String best = null;
        int most = 0;
        for (var e : queues.entrySet()) {
          if (e.getValue().size() > most) {
            most = e.getValue().size();
            best = e.getKey();
          }
        }
        if (producerFailure != null) {
          return null; // the file is rolled back: inserting the rest is wasted work
        }
        if (best != null) {
          return best;
        }
        if (producerDone) {
          return null;
        }
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Consumer, inside a table's stream: the next batch of that table, or null to end the stream
   * (the producer is done and the table drained, or another table is waiting while this one has
   * nothing).
   */
  ArrowBatch take(String table) throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        ArrayDeque<ArrowBatch> q = queues.get(table);
        if (q != null && !q.isEmpty()) {
          pending--;
          changed.signalAll();
          return q.poll();
        }
        if (producerDone || producerFailure != null || othersWaiting(table)) {
          return null;
        }
        long w0 = System.nanoTime();
        changed.await();
        consumerWaitNs += System.nanoTime() - w0;
      }
    } finally {
      lock.unlock();
    }
  }

  private boolean othersWaiting(String table) {
    for (var e : queues.entrySet()) {
      if (!e.getKey().equals(table) && !e.getValue().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Consumer: why the producer stopped, if it failed. */
  Throwable producerFailure() {
    lock.lock();
    try {
      return producerFailure;
    } finally {
      lock.unlock();
    }
  }

  /** Batches still queued (after a failure), to release their memory. */
  void drainTo(java.util.function.Consumer<ArrowBatch> sink) {
    lock.lock();
    try {
      for (ArrayDeque<ArrowBatch> q : queues.values()) {
        q.forEach(sink);
        q.clear();
      }
      pending = 0;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
