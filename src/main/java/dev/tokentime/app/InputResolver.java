package dev.tokentime.app;

import dev.tokentime.BadInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Turns what the user named (files, directories, globs, {@code -} for stdin) into the files to
 * read. Directories are walked recursively in name order; files under {@code expected/} folders
 * (the numbers a sample must produce) and hidden files are never taken.
 */
public final class InputResolver {
  private InputResolver() {}

  /**
   * A file to read.
   *
   * @param path the file, or null for stdin
   * @param explicit whether the user named it (an unknown format is then an error, not a skip)
   */
  public record Input(Path path, boolean explicit) {
    public boolean stdin() {
      return path == null;
    }

    public String display() {
      return path == null ? "-" : path.toString();
    }
  }

  public static List<Input> resolve(List<String> args) {
    Set<Input> out = new LinkedHashSet<>();
    for (String a : args) {
      if (a.equals("-")) {
        out.add(new Input(null, true));
      } else if (isGlob(a) && !Files.exists(Path.of(a))) {
        // a path that exists is itself even with glob characters in it ("run [a]/c1.jsonl")
        List<Path> matches = glob(a);
        if (matches.isEmpty()) {
          throw new BadInputException("no file matches " + a);
        }
        matches.forEach(p -> out.add(new Input(p, false)));
      } else {
        Path p = Path.of(a);
        if (Files.isDirectory(p)) {
          walk(p).forEach(f -> out.add(new Input(f, false)));
        } else if (Files.isRegularFile(p)) {
          out.add(new Input(p, true));
        } else if (Files.exists(p)) {
          throw new BadInputException("not a regular file: " + a);
        } else {
          throw new BadInputException("file not found: " + a);
        }
      }
    }
    return new ArrayList<>(out);
  }

  static boolean isGlob(String s) {
    return s.contains("*") || s.contains("?") || s.contains("[") || s.contains("{");
  }

  private static List<Path> walk(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> !excluded(dir.relativize(p)))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** expected/ folders, hidden files and folders, and databases are not inputs. */
  static boolean excluded(Path rel) {
    for (Path part : rel) {
      String n = part.toString();
      if (n.equals("expected") && !part.equals(rel.getFileName()) || n.startsWith(".")) {
        return true;
      }
    }
    String name = rel.getFileName().toString();
    // a database in the folder it reads, with its write-ahead log and tokentime's writer lock
    return name.endsWith(".duckdb") || name.endsWith(".duckdb.wal") || name.endsWith(".db.wal")
        || name.endsWith(".duckdb.lock") || name.endsWith(".db.lock");
  }

  private static List<Path> glob(String pattern) {
    // walk from the longest leading part without glob characters
    String norm = pattern.replace('\\', '/');
    int cut = 0;
    String[] parts = norm.split("/");
    StringBuilder base = new StringBuilder();
    for (String part : parts) {
      if (isGlob(part)) {
        break;
      }
      base.append(part).append('/');
      cut++;
    }
    Path root = base.length() == 0 ? Path.of(".") : Path.of(base.toString());
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    String rest = String.join("/", java.util.Arrays.copyOfRange(parts, cut, parts.length));
    PathMatcher m;
    try {
      m = FileSystems.getDefault().getPathMatcher("glob:" + rest);
    } catch (java.util.regex.PatternSyntaxException e) {
      throw new BadInputException("no file named " + pattern + ", and it is no valid pattern either ("
          + e.getDescription() + " at character " + (e.getIndex() + 1) + " of " + rest + ")");
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> m.matches(root.relativize(p)))
          .filter(p -> !excluded(root.relativize(p)))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
