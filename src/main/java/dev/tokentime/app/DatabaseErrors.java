package dev.tokentime.app;

import dev.tokentime.BadInputException;
import dev.tokentime.store.Database;
import dev.tokentime.store.StoreException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A database failure told in tokentime's words, for the one line (or few) a command prints. */
public final class DatabaseErrors {
  /** DuckDB's lines that teach: the names it would accept, and the name it guesses was meant. */
  private static final Pattern HINT = Pattern.compile("^(Candidate bindings:|Did you mean).*");
  /** DuckDB's lock conflict (Linux names the process: "... held in /usr/bin/python3 (PID 4711) by user ann"). */
  private static final Pattern LOCK = Pattern.compile("Conflicting lock is held in (.*?) \\(PID (\\d+)\\)");

  private DatabaseErrors() {}

  /** Whether {@code e} is a failure of the database (rather than of tokentime or the input). */
  public static boolean isDatabaseError(Throwable e) {
    return e instanceof SQLException || e instanceof StoreException;
  }

  /**
   * What to print after "database error: ": DuckDB's informative line, and its "Candidate
   * bindings: …" and "Did you mean …?" lines when it has them; runs of spaces made one.
   */
  public static String describe(Throwable e) {
    if (!(e instanceof SQLException s)) {
      return oneSpace(String.valueOf(e.getMessage()));
    }
    String first = Database.firstLine(s);
    String cause = storageFailure;
    remember(first);
    if (cause != null && !first.contains(cause) && (first.contains("invalidated") || first.contains("no transaction is active")
        || first.contains("TransactionContext Error"))) {
      // DuckDB's later errors after a failed write ("database has been invalidated", "cannot
      // commit - no transaction is active") do not say why; the write's own error does
      return oneSpace(first + " (after an earlier failure: " + cause + ")");
    }
    if (first.contains("Failed to create checkpoint") && first.contains("failed to allocate")) {
      // DuckDB gives up on the whole database when a checkpoint runs out of memory; what was
      // committed is in its write-ahead log, written to the file by the next open that has the memory
      return oneSpace(first + " (what was committed is kept in the database's write-ahead log; writing it to the"
          + " file needs more memory than the limit: run the command again with TOKENTIME_MEMORY_LIMIT=2GB)");
    }
    if (first.contains("Invalid result set")) {
      // DuckDB JDBC's words when a streamed query fails inside DuckDB, out of memory included;
      // the same query unstreamed says "Out of Memory Error: failed to allocate …"
      return oneSpace(first + " (DuckDB could not produce the result, most often for lack of memory under its"
          + " limit: TOKENTIME_MEMORY_LIMIT=2GB raises it)");
    }
    List<String> lines = new ArrayList<>();
    lines.add(Database.firstLine(s));
    String m = s.getMessage() == null ? "" : s.getMessage();
    String[] all = m.split("\n");
    String position = null;
    for (int i = 0; i < all.length; i++) {
      String t = all[i].strip();
      // DuckDB's catalog functions are no answer to a mistyped view ("Did you mean duckdb_views?")
      if (HINT.matcher(t).matches() && !lines.contains(t) && !t.matches("Did you mean \"?(duckdb_|pg_|information_schema).*")) {
        lines.add(t);
      }
      if (position == null && i + 1 < all.length && POSITION.matcher(all[i]).matches()
          && all[i + 1].matches(" *\\^ *")) {
        // where in the statement DuckDB stopped: "syntax error at or near ','" alone did not say
        // which of a long query's commas; kept as DuckDB wrote it, so the caret stays under it
        position = all[i].stripTrailing() + "\n" + all[i + 1].stripTrailing();
      }
    }
    String told = oneSpace(String.join("\n", lines));
    return position == null ? told : told + "\n" + position;
  }

  /** DuckDB's quote of the statement around an error's position, on the line before a caret. */
  private static final Pattern POSITION = Pattern.compile("LINE \\d+: .*");

  /** The first failure to write the database seen by this process (a full disk), or null. */
  private static volatile String storageFailure;

  /** Notes {@code message} when it is a failure to write storage, for the errors that follow it. */
  public static void remember(String message) {
    if (storageFailure == null && message != null && (message.contains("No space left on device")
        || message.contains("Could not write file") || message.contains("Disk quota exceeded"))) {
      storageFailure = message;
    }
  }

  private static String oneSpace(String s) {
    return s.replaceAll("(?<=\\S) {2,}(?=\\S)", " ");
  }

  /**
   * When {@code e} is DuckDB refusing {@code path} because another process has it open, the
   * same failure in tokentime's words: which process, and what still works; else {@code e}.
   *
   * @param writing whether this process wanted to write (ingest) or only to read
   */
  static RuntimeException lockConflict(RuntimeException e, Path path, boolean writing) {
    String m = (e.getCause() != null ? e.getCause().getMessage() : null) + " " + e.getMessage();
    if (!m.contains("Could not set lock")) {
      return e;
    }
    Matcher h = LOCK.matcher(m);
    String who = h.find() ? "process " + h.group(2) + " (" + h.group(1) + ")" : "another process";
    String text = writing
        ? path + " is open in " + who + ", and writing needs it alone. Reads still work meanwhile "
            + "(summary, query, report and shell open it read-only); ingest once that process has closed it."
        : path + " is open for writing in " + who + ". Reads work beside it once it is closed there, or opened "
            + "there read-only (duckdb.connect(path, read_only=True); DuckDB's CLI: -readonly).";
    return new BadInputException(text, e);
  }
}
