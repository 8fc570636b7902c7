package dev.tokentime.app;

import java.util.function.LongSupplier;

/**
 * Reports how far a file's ingest has got, twice a second, from a daemon thread: bytes of the
 * file read (compressed bytes for a compressed file, so the ETA holds) and lines handled.
 */
final class ProgressTicker implements AutoCloseable {
  static final long PERIOD_MS = 500;

  private final Thread thread;
  private volatile boolean stop;

  ProgressTicker(String path, long totalBytes, LongSupplier bytesRead, LongSupplier lines,
      IngestService.Listener listener) {
    thread = new Thread(() -> {
      long start = System.nanoTime();
      while (!stop) {
        try {
          Thread.sleep(PERIOD_MS);
        } catch (InterruptedException e) {
          return;
        }
        if (!stop) {
          listener.progress(new IngestService.Progress(path, bytesRead.getAsLong(), totalBytes,
              lines.getAsLong(), (System.nanoTime() - start) / 1e9));
        }
      }
    }, "tokentime-progress");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() {
    stop = true;
    thread.interrupt();
  }
}
