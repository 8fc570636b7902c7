package dev.tokentime.formats.spec;

import dev.tokentime.ingest.LineReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * Reads a log's lines on one thread, decodes and matches them in batches on worker threads, and
 * hands them to the caller in input order. Matching is a pure function of the line (each worker
 * has its own {@link LineMatcher}), so only the storing, which keeps state across lines, stays on
 * the caller's thread. Memory stays bounded: at most {@link #MAX_BATCHES} batches and
 * {@link #MAX_BYTES} bytes of lines are in flight.
 */
final class MatchPipeline {
  /** Worker threads: one per core, at most four (the storing thread and DuckDB need CPU too). */
  static final int WORKERS = Integer.getInteger("tokentime.matchWorkers",
      Math.min(4, Runtime.getRuntime().availableProcessors()));
  static final int MAX_BATCHES = 4;
  static final int MAX_BYTES = 32 << 20;

  private final int batchLines;
  private final int batchBytes;
  private final LineSpec spec;

  /** The caller's side: each line in input order, already decoded and matched. */
  interface Consumer {
    void line(long lineNo, byte[] buf, int off, int len, MatchedLine matched, MatchedLine.Prepared p,
        boolean unterminated);

    void tooLong(long lineNo, long length, byte[] head, int headLen);

    /** A CRI partial line, joined into a later line ({@link PartialLines}). */
    void partial(long lineNo);
  }

  /** Batches close at batchLines lines or batchBytes bytes (tests use small ones, to hit the edges). */
  MatchPipeline(LineSpec spec, int batchLines, int batchBytes) {
    this.spec = spec;
    this.batchLines = batchLines;
    this.batchBytes = batchBytes;
  }

  /** One batch of lines: their bytes back to back, then what the worker made of each. */
  private static final class Batch {
    byte[] data;
    int used;
    int n;
    final long[] lineNo;
    final int[] off;
    final int[] len;
    /** -1 for a line, -2 for a partial piece, else the length of a line too long to keep (data holds its head). */
    final long[] tooLong;
    final boolean[] unterminated;
    final MatchedLine[] matched;
    final MatchedLine.Prepared[] prepared;
    /** Set by the reader after its last batch: the end of the input. */
    boolean last;
    /** The reader's failure, rethrown on the caller's thread in order. */
    Throwable failure;

    Batch(int lines, int bytes) {
      data = new byte[bytes];
      lineNo = new long[lines];
      off = new int[lines];
      len = new int[lines];
      tooLong = new long[lines];
      unterminated = new boolean[lines];
      matched = new MatchedLine[lines];
      prepared = new MatchedLine.Prepared[lines];
    }

    boolean full(int lines, int moreBytes, int limit) {
      return n == lines || (n > 0 && used + moreBytes > limit);
    }

    void add(long no, byte[] buf, int o, int l, long tooLongLength, boolean unterm) {
      if (used + l > data.length) {
        data = Arrays.copyOf(data, Math.max(data.length * 2, used + l));
      }
      System.arraycopy(buf, o, data, used, l);
      lineNo[n] = no;
      off[n] = used;
      len[n] = l;
      tooLong[n] = tooLongLength;
      unterminated[n] = unterm;
      used += l;
      n++;
    }
  }

  long run(InputStream in, Consumer consumer) throws IOException {
    ExecutorService workers = Executors.newFixedThreadPool(WORKERS, r -> {
      Thread t = new Thread(r, "tokentime-match");
      t.setDaemon(true);
      return t;
    });
    ThreadLocal<LineMatcher> matchers = ThreadLocal.withInitial(() -> new LineMatcher(spec));
    ThreadLocal<CharsetDecoder> decoders = ThreadLocal.withInitial(() -> StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
    BlockingQueue<CompletableFuture<Batch>> ordered = new ArrayBlockingQueue<>(MAX_BATCHES);
    Semaphore bytesInFlight = new Semaphore(MAX_BYTES);
    long[] lines = new long[1];
    Thread readerThread = new Thread(new Runnable() {
      private Batch current = new Batch(batchLines, batchBytes);
      /**
       * Bytes the last batch used: the next one's buffer starts a quarter above it. A batch closes
       * at its line count long before its byte limit on most logs, and a buffer of the full limit
       * per batch was most of what a parse allocated.
       */
      private int lastUsed = batchBytes;
      private final byte[] head0 = new byte[0];

      @Override
      public void run() {
        LineReader reader = new LineReader(in);
        try {
          PartialLines joiner = new PartialLines(new PartialLines.Sink() {
            @Override
            public void line(long lineNo, byte[] buf, int off, int len) throws IOException {
              next(len);
              current.add(lineNo, buf, off, len, -1, SpecParser.unterminated(reader, lineNo));
            }

            @Override
            public void tooLong(long lineNo, long length, byte[] head, int headLen) throws IOException {
              next(headLen);
              current.add(lineNo, head, 0, headLen, length, false);
            }

            @Override
            public void partial(long lineNo) throws IOException {
              next(0);
              current.add(lineNo, head0, 0, 0, -2, false);
            }
          });
          lines[0] = reader.forEach(joiner);
          joiner.end();
          submit(current, true);
        } catch (IOException | RuntimeException | Error e) {
          Batch failed = new Batch(0, 0);
          failed.failure = e;
          failed.last = true;
          try {
            ordered.put(CompletableFuture.completedFuture(failed));
          } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
          }
        }
      }

      private void next(int moreBytes) throws IOException {
        if (current.full(batchLines, moreBytes, batchBytes)) {
          submit(current, false);
          lastUsed = current.used;
          current = new Batch(batchLines, Math.min(batchBytes, lastUsed + lastUsed / 4 + 1024));
        }
      }

      private void submit(Batch b, boolean last) throws IOException {
        b.last = last;
        try {
          bytesInFlight.acquire(Math.min(b.used, MAX_BYTES));
          ordered.put(CompletableFuture.supplyAsync(() -> prepare(b, matchers.get(), decoders.get()), workers));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while reading");
        }
      }
    }, "tokentime-read");
    readerThread.setDaemon(true);
    readerThread.start();
    try {
      while (true) {
        Batch b = ordered.take().get();
        if (b.failure != null) {
          rethrow(b.failure);
        }
        for (int i = 0; i < b.n; i++) {
          if (b.tooLong[i] == -2) {
            consumer.partial(b.lineNo[i]);
          } else if (b.tooLong[i] >= 0) {
            consumer.tooLong(b.lineNo[i], b.tooLong[i], b.data, b.len[i]);
          } else {
            consumer.line(b.lineNo[i], b.data, b.off[i], b.len[i], b.matched[i], b.prepared[i], b.unterminated[i]);
          }
        }
        bytesInFlight.release(Math.min(b.used, MAX_BYTES));
        if (b.last) {
          readerThread.join();
          return lines[0];
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while parsing");
    } catch (ExecutionException e) {
      rethrow(e.getCause());
      throw new AssertionError(e);
    } finally {
      readerThread.interrupt();
      workers.shutdownNow();
    }
  }

  private static Batch prepare(Batch b, LineMatcher matcher, CharsetDecoder utf8) {
    for (int i = 0; i < b.n; i++) {
      if (b.tooLong[i] == -1) {
        // a new MatchedLine each time: one reused from an older batch (a pool) would hold young
        // strings from an old object, which G1 makes expensive
        MatchedLine m = new MatchedLine().reset(b.lineNo[i]);
        b.matched[i] = m;
        b.prepared[i] = SpecParser.prepare(matcher, utf8, b.data, b.off[i], b.len[i], m);
      }
    }
    return b;
  }

  private static void rethrow(Throwable t) throws IOException {
    if (t instanceof IOException e) {
      throw e;
    }
    if (t instanceof UncheckedIOException e) {
      throw e.getCause();
    }
    if (t instanceof RuntimeException e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw new IOException(t);
  }
}
