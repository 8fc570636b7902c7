package dev.tokentime.store;

import dev.tokentime.BadInputException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * One writer per database: an exclusive lock on {@code <db>.lock}, held from before the file is
 * created until the writer closes it. DuckDB's own lock is taken only once the file is open, so
 * two first ingests could both see no file, both create one, and one lose its data; and a
 * writer that finds the database busy would fail at once. Under this lock a second writer waits
 * ({@link #waitSeconds}) and then fails naming the process that holds it. The operating system
 * releases the lock when the process ends, however it ends.
 *
 * <p>The lock file of a database that is not there when its writer closes (a first ingest that
 * failed, its empty database removed) is deleted with it, under the lock: left behind, it was the
 * one file a failed first ingest left beside the database path. Deleting a lock file lets a
 * process waiting on it lock the deleted file while a third locks a new one at the path, so a
 * writer that gets the lock checks that the file at the path is the one it locked (it reads back
 * the pid it wrote), and else opens the path again.
 */
final class WriterLock implements AutoCloseable {
  /** Locks this process holds, by lock file, with how many opens share each (tests open twice). */
  private static final Map<Path, WriterLock> HELD = new HashMap<>();

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private int users = 1;

  private WriterLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  static Path lockFile(Path database) {
    return Path.of(database.toAbsolutePath() + ".lock");
  }

  /** Seconds a writer waits for another one (and a command for a process holding the file): TOKENTIME_LOCK_WAIT, else 300. */
  static long waitSeconds() {
    String v = System.getenv("TOKENTIME_LOCK_WAIT");
    if (v != null && !v.isBlank()) {
      long s;
      try {
        s = Long.parseLong(v.strip());
      } catch (NumberFormatException e) {
        throw new BadInputException("TOKENTIME_LOCK_WAIT must be a number of seconds, not " + v);
      }
      if (s < 0 || s > 31_536_000) {
        throw new BadInputException("TOKENTIME_LOCK_WAIT must be between 0 and 31536000 seconds (a year), not " + v);
      }
      return s;
    }
    return 300;
  }

  /** Takes the writer lock of {@code database}, waiting up to {@link #waitSeconds}. */
  static WriterLock acquire(Path database) {
    Path file = lockFile(database);
    synchronized (HELD) {
      WriterLock mine = HELD.get(file);
      if (mine != null) {
        mine.users++;
        return mine;
      }
    }
    long deadline = System.nanoTime() + waitSeconds() * 1_000_000_000L;
    boolean told = false;
    FileChannel ch = open(database, file);
    try {
      while (true) {
        FileLock l;
        try {
          l = ch.tryLock();
        } catch (OverlappingFileLockException e) {
          l = null;
        }
        if (l != null) {
          String pid = Long.toString(ProcessHandle.current().pid());
          ch.truncate(0);
          ch.write(ByteBuffer.wrap((pid + "\n").getBytes(StandardCharsets.UTF_8)), 0);
          if (!pid.equals(pidAt(file))) {
            // the file locked was deleted by the writer before (its database failed to be made):
            // the lock that counts is on the file now at the path
            l.release();
            closeQuietly(ch);
            ch = open(database, file);
            continue;
          }
          WriterLock w = new WriterLock(file, ch, l);
          synchronized (HELD) {
            HELD.put(file, w);
          }
          return w;
        }
        if (System.nanoTime() >= deadline) {
          throw new BadInputException("database " + database + " is being written by another process"
              + holder(file) + "; a database has one writer at a time. Run again when it has finished"
              + " (a writer waits up to TOKENTIME_LOCK_WAIT seconds, now " + waitSeconds() + ")");
        }
        if (!told) {
          System.err.println("tokentime: waiting for another process writing " + database + holder(file)
              + " (up to " + waitSeconds() + " s, TOKENTIME_LOCK_WAIT)");
          told = true;
        }
        Thread.sleep(100);
      }
    } catch (IOException e) {
      closeQuietly(ch);
      throw new BadInputException("cannot lock database " + database + " for writing: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      closeQuietly(ch);
      Thread.currentThread().interrupt();
      throw new BadInputException("interrupted while waiting to write " + database, e);
    } catch (RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  private static FileChannel open(Path database, Path file) {
    try {
      return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new BadInputException("cannot lock database " + database + " for writing: cannot open "
          + file + ": " + e.getMessage(), e);
    }
  }

  /** The pid the file at the path holds, or null when there is none. */
  private static String pidAt(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** " (pid N)" from the lock file, or "" when it says nothing usable. */
  static String holder(Path lockFile) {
    try {
      String s = Files.readString(lockFile, StandardCharsets.UTF_8).strip();
      return s.matches("\\d{1,10}") ? " (pid " + s + ")" : "";
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private static void closeQuietly(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException ignored) {
      // the lock goes with the channel
    }
  }

  @Override
  public void close() {
    synchronized (HELD) {
      if (--users > 0) {
        return;
      }
      HELD.remove(file);
    }
    String name = file.getFileName().toString();
    Path database = file.resolveSibling(name.substring(0, name.length() - ".lock".length()));
    if (!Files.exists(database)) {
      try {
        Files.deleteIfExists(file); // still held: see the class comment
      } catch (IOException ignored) {
        // a lock file left behind is harmless: the next writer locks it
      }
    }
    try {
      lock.release();
    } catch (IOException ignored) {
      // released with the channel below
    }
    closeQuietly(channel);
  }
}
