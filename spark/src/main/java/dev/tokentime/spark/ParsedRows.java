package dev.tokentime.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Row;

/**
 * The rows of one partition's files as an iterator Spark pulls from, while the parser (which
 * pushes into its sink) runs on a thread of its own: full blocks of rows travel through a bounded
 * queue, so a task holds a few blocks whatever the file's size. A parser failure is thrown from
 * the iterator, naming the file; a task that ends early stops the parser.
 */
final class ParsedRows implements Iterator<Row> {
  private static final int BLOCK = 4096;
  private static final int QUEUE = 8;
  private static final List<Row> END = new ArrayList<>();

  private final BlockingQueue<List<Row>> queue = new ArrayBlockingQueue<>(QUEUE);
  private final Thread producer;
  private volatile Throwable failure;
  private volatile String failedFile;
  private Iterator<Row> current = List.<Row>of().iterator();
  private boolean ended;

  ParsedRows(Iterator<FileTask> tasks, ParseOptions options, Map<String, String> hadoopConf) {
    producer = new Thread(() -> {
      List<Row> block = new ArrayList<>(BLOCK);
      try {
        while (tasks.hasNext()) {
          FileTask t = tasks.next();
          failedFile = t.path();
          List<Row>[] holder = new List[] {block};
          FileParser.parse(t, options, hadoopConf, row -> {
            holder[0].add(row);
            if (holder[0].size() == BLOCK) {
              put(holder[0]);
              holder[0] = new ArrayList<>(BLOCK);
            }
          });
          block = holder[0];
          failedFile = null;
        }
        if (!block.isEmpty()) {
          put(block);
        }
      } catch (Throwable e) {
        failure = e;
      } finally {
        try {
          queue.put(END);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, "tokentime-parse");
    producer.setDaemon(true);
    TaskContext ctx = TaskContext.get();
    if (ctx != null) {
      ctx.addTaskCompletionListener((org.apache.spark.util.TaskCompletionListener) c -> producer.interrupt());
    }
    producer.start();
  }

  private void put(List<Row> block) {
    try {
      queue.put(block);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("task ended", e);
    }
  }

  @Override
  public boolean hasNext() {
    while (!current.hasNext()) {
      if (ended) {
        return false;
      }
      List<Row> next;
      try {
        next = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading parsed rows", e);
      }
      if (next == END) {
        ended = true;
        if (failure != null) {
          throw new IllegalStateException("tokentime: reading " + failedFile + " failed: " + failure,
              failure);
        }
        return false;
      }
      current = next.iterator();
    }
    return true;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return current.next();
  }
}
