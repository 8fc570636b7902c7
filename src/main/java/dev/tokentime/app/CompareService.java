package dev.tokentime.app;

import dev.tokentime.BadInputException;
import dev.tokentime.analysis.AnalysisWindow;
import dev.tokentime.analysis.Compare;
import dev.tokentime.analysis.CompareReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * {@code tokentime compare A B}: finds the database file of each side (its own, given as
 * FILE.duckdb:SIDE, else the default), opens one or both read-only with the analysis window
 * applied, and compares the sides.
 */
public final class CompareService {
  private CompareService() {}

  /** A side as given: FILE.duckdb:SIDE (a file of its own), or SIDE alone (read from the default). */
  public record Side(Path file, String side) {
    public static Side of(String given) {
      int at = given.toLowerCase(Locale.ROOT).lastIndexOf(".duckdb:");
      if (at > 0) {
        return new Side(Path.of(given.substring(0, at + ".duckdb".length())), given.substring(at + ".duckdb:".length()));
      }
      int colon = given.indexOf(':');
      if (colon > 0 && Files.isRegularFile(Path.of(given.substring(0, colon)))) {
        return new Side(Path.of(given.substring(0, colon)), given.substring(colon + 1));
      }
      return new Side(null, given);
    }
  }

  /**
   * Compares side {@code a} with side {@code b} as given on the command line; {@code defaultDb}
   * is asked only for a side that names no file of its own (it may open a lake).
   */
  public static CompareReport compare(String a, String b, Supplier<Path> defaultDb, AnalysisWindow window)
      throws Exception {
    Side sa = Side.of(a);
    Side sb = Side.of(b);
    Path fileA = sa.file() != null ? sa.file() : defaultDb.get();
    Path fileB = sb.file() != null ? sb.file() : defaultDb.get();
    for (Path f : new Path[] {fileA, fileB}) {
      if (!Files.isRegularFile(f)) {
        throw new BadInputException("compare: no database file " + f);
      }
    }
    return DatabaseAccess.read(fileA, window, da -> sameFile(fileA, fileB)
        ? new Compare().compare(da, sa.side(), da, sb.side(), a, b)
        : DatabaseAccess.read(fileB, window, dbB -> new Compare().compare(da, sa.side(), dbB, sb.side(), a, b)));
  }

  private static boolean sameFile(Path x, Path y) throws IOException {
    return Files.isSameFile(x, y);
  }
}
