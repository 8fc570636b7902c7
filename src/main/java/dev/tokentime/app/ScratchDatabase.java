package dev.tokentime.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * The database of a command that reads files and answers in one step (analyze, conventions): the
 * file the user named, kept; or, when none is named, a file in a temporary directory that closing
 * deletes with everything DuckDB wrote beside it (WAL, spill directory).
 */
public final class ScratchDatabase implements AutoCloseable {
  private final Path path;
  private final Path tempDir;

  /** Deletes the temporary directory when the process is stopped (Ctrl-C) before {@link #close}. */
  private final Thread onExit;

  private ScratchDatabase(Path path, Path tempDir) {
    this.path = path;
    this.tempDir = tempDir;
    // an analyze interrupted by Ctrl-C left its whole database in the temporary directory
    this.onExit = tempDir == null ? null : new Thread(this::delete, "tokentime-scratch");
    if (onExit != null) {
      Runtime.getRuntime().addShutdownHook(onExit);
    }
  }

  /** {@code given} when not null, else a new temporary file named {@code name}. */
  public static ScratchDatabase unless(Path given, String name) throws IOException {
    if (given != null) {
      return new ScratchDatabase(given, null);
    }
    Path dir = Files.createTempDirectory("tokentime-");
    return new ScratchDatabase(dir.resolve(name), dir);
  }

  public Path path() {
    return path;
  }

  @Override
  public void close() {
    if (tempDir == null) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(onExit);
    } catch (IllegalStateException e) {
      // the process is stopping: the hook deletes it
    }
    delete();
  }

  private void delete() {
    try (var s = Files.walk(tempDir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // best effort: a temporary file left behind is harmless
        }
      });
    } catch (IOException e) {
      // best effort
    }
  }
}
