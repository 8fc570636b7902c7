package dev.tokentime.app;

import dev.tokentime.store.StoredSources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Run names taken from folders, kept apart where two different folders have one name: a day's logs
 * in {@code dayA/vllm/} and the next day's in {@code dayB/vllm/}, or two sweeps' {@code c16/}
 * folders, are different runs ({@code dayA/vllm}, {@code dayB/vllm}), where the folder's name alone
 * made them one run and mixed their requests. A name's <em>anchor</em> is the folder it is taken
 * from (the file's folder, or the folder a layout names: {@code results/} of {@code results/vllm-c16},
 * {@code raw_data/} of LLMPerf's {@code raw_data/X}); a name is kept as it is while one anchor has it,
 * and is prefixed with the fewest folders above the anchors that tell them apart otherwise.
 *
 * <p>Stored sources count too, so that ingests one after the other name runs as one ingest of all
 * the files would, and a re-run after an interrupted ingest names them as the first did: a folder
 * whose files are stored keeps its run's name (a later file of {@code dayA/vllm/} joins the run its
 * earlier files are in), and a new folder whose name a stored run of another folder has takes a
 * prefixed one. {@code --run} names the run itself and is never changed.
 */
final class FolderRuns {
  private FolderRuns() {}

  /**
   * The run of each file, in order: {@code names.get(i)} is the name its folder or layout gives
   * file {@code files.get(i)} (null for standard input, which keeps it); the answer is that name,
   * or the name prefixed with folders above its anchor where another anchor has the name.
   */
  static List<String> name(List<Path> files, List<String> names, List<StoredSources.RunPath> stored) {
    // the anchors of each name in this ingest, in the order of the files
    Map<String, Set<Path>> planned = new HashMap<>();
    List<Path> anchors = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      Path anchor = files.get(i) == null || names.get(i) == null ? null : anchor(files.get(i), names.get(i));
      anchors.add(anchor);
      if (anchor != null) {
        planned.computeIfAbsent(names.get(i), k -> new LinkedHashSet<>()).add(anchor);
      }
    }
    Map<String, Map<Path, String>> resolved = new HashMap<>();
    for (Map.Entry<String, Set<Path>> e : planned.entrySet()) {
      resolved.put(e.getKey(), resolve(e.getKey(), e.getValue(), stored));
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      Path anchor = anchors.get(i);
      out.add(anchor == null ? names.get(i) : resolved.get(names.get(i)).get(anchor));
    }
    return out;
  }

  /** The names of one name's anchors: stored ones keep theirs, new ones are told apart from all others. */
  private static Map<Path, String> resolve(String name, Set<Path> anchors, List<StoredSources.RunPath> stored) {
    Map<Path, String> storedRuns = new HashMap<>();
    for (StoredSources.RunPath s : stored) {
      if (s.run() == null || s.path() == null || s.path().equals("-") || !(s.run().equals(name) || s.run().endsWith("/" + name))) {
        continue;
      }
      Path anchor = anchor(Path.of(s.path()), name);
      if (anchor != null) {
        storedRuns.putIfAbsent(anchor, s.run());
      }
    }
    Map<Path, String> out = new HashMap<>();
    List<Path> fresh = new ArrayList<>();
    for (Path a : anchors) {
      String kept = storedRuns.get(a);
      if (kept != null) {
        out.put(a, kept);
      } else {
        fresh.add(a);
      }
    }
    Set<Path> others = new HashSet<>(storedRuns.keySet());
    others.removeAll(fresh);
    if (fresh.isEmpty()) {
      return out;
    }
    if (fresh.size() == 1 && others.isEmpty()) {
      out.put(fresh.get(0), name);
      return out;
    }
    Set<String> taken = new HashSet<>(storedRuns.values());
    for (int k = 1; ; k++) {
      Set<String> names = new HashSet<>();
      boolean apart = true;
      boolean deepest = true;
      for (Path a : fresh) {
        String n = prefixed(a, name, k);
        apart &= !taken.contains(n) && names.add(n);
        deepest &= depth(a) <= k;
      }
      if (apart || deepest) {
        for (Path a : fresh) {
          out.put(a, prefixed(a, name, k));
        }
        return out;
      }
    }
  }

  /**
   * The folder a name is taken from: the nearest folder above the file named as the name's first
   * part; null when none is (a name the file's place does not give).
   */
  static Path anchor(Path file, String name) {
    String first = name.split("/", 2)[0];
    for (Path d = file.toAbsolutePath().normalize().getParent(); d != null && d.getFileName() != null; d = d.getParent()) {
      if (d.getFileName().toString().equals(first)) {
        return d;
      }
    }
    return null;
  }

  /** The name after the k folders above its anchor ({@code dayA/vllm} for k = 1), fewer where there are fewer. */
  private static String prefixed(Path anchor, String name, int k) {
    StringBuilder prefix = new StringBuilder();
    Path d = anchor.getParent();
    for (int i = 0; i < k && d != null && d.getFileName() != null; i++, d = d.getParent()) {
      prefix.insert(0, d.getFileName() + "/");
    }
    return prefix + name;
  }

  private static int depth(Path anchor) {
    int n = 0;
    for (Path d = anchor.getParent(); d != null && d.getFileName() != null; d = d.getParent()) {
      n++;
    }
    return n;
  }
}
