package dev.tokentime.app;

import dev.tokentime.BadInputException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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
  public record Input(Path path, boolean explicit, String problem) {
    public Input(Path path, boolean explicit) {
      this(path, explicit, null);
    }

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
        List<Input> matches = glob(a);
        if (matches.stream().allMatch(in -> in.problem() != null)) {
          throw new BadInputException("no file matches " + a + (matches.isEmpty() ? ""
              : " (" + matches.size() + " folder" + (matches.size() == 1 ? "" : "s") + " could not be opened: "
              + matches.get(0).path() + (matches.size() == 1 ? "" : ", …") + ")"));
        }
        out.addAll(matches);
      } else {
        Path p = Path.of(a);
        if (Files.isDirectory(p)) {
          out.addAll(walk(p));
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

  /**
   * The files under {@code dir}, in name order. A folder inside it that cannot be opened (no
   * permission) is an input with its problem, which the ingest skips with the reason, as a file it
   * cannot read: one locked folder spoils no other file.
   */
  private static List<Input> walk(Path dir) {
    java.util.TreeMap<Path, Input> found = new java.util.TreeMap<>();
    try {
      Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
        @Override
        public java.nio.file.FileVisitResult visitFile(Path p, java.nio.file.attribute.BasicFileAttributes a) {
          // a link to a file is that file (Kubernetes' /var/log/containers/*.log are links); a
          // link to a folder is not walked into, as before
          boolean file = a.isRegularFile() || a.isSymbolicLink() && Files.isRegularFile(p);
          if (file && !excluded(dir.relativize(p))) {
            found.put(p, new Input(p, false));
          }
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFileFailed(Path p, IOException e) throws IOException {
          if (p.equals(dir)) {
            throw e;
          }
          if (!excluded(dir.relativize(p))) {
            String why = e.getClass().getSimpleName().replace("Exception", "")
                .replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
            found.put(p, new Input(p, false, "cannot be opened: " + why));
          }
          return java.nio.file.FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new BadInputException("cannot read the folder " + dir + " (" + e.getClass().getSimpleName() + ")", e);
    }
    return new ArrayList<>(found.values());
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

  private static List<Input> glob(String pattern) {
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
    // a folder that cannot be opened is kept with its problem: the ingest names it as skipped
    return walk(root).stream().filter(in -> in.problem() != null || m.matches(root.relativize(in.path()))).toList();
  }
}
