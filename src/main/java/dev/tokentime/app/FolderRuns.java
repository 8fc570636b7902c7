package dev.tokentime.app;

import dev.tokentime.store.StoredSources;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Run names taken from folders, kept apart where two different folders have one name: a day's logs
 * in {@code dayA/vllm/} and the next day's in {@code dayB/vllm/}, or two sweeps' {@code c16/}
 * folders, are different runs ({@code dayA/vllm}, {@code dayB/vllm}); by the folder's name alone
 * they would be one run, their requests mixed and an id in both kept once. A name's <em>anchor</em>
 * is the folder it is taken from (the file's folder, or the folder a layout names: {@code results/}
 * of {@code results/vllm-c16}, {@code raw_data/} of LLMPerf's {@code raw_data/X}); a name is kept as
 * it is while one anchor has it, and is prefixed otherwise with the fewest folders above the
 * anchors that tell them all apart (the whole path where even that does not), never with a name
 * another run has.
 *
 * <p>Stored sources count: a folder whose files are stored keeps its run's name (a later file of
 * {@code dayA/vllm/} joins the run its earlier files are in; a folder reached through a link is the
 * folder), a new folder of a name a stored folder has takes a prefixed one, and the prefix is chosen
 * over the stored folders and the new ones together, so a re-run after an interrupted ingest names
 * the rest as the whole ingest did. A stored run keeps its name: ingested one after the other,
 * {@code dayA/vllm} then {@code dayB/vllm} are {@code vllm} and {@code dayB/vllm}. {@code --run}
 * names the run itself and is never changed.
 */
final class FolderRuns {
  private FolderRuns() {}

  /** A folder a name is taken from: its path as met, and the folder itself (links resolved). */
  private record Anchor(Path path, Path key) {}

  /**
   * The run of each file, in order: {@code names.get(i)} is the name its folder or layout gives
   * file {@code files.get(i)} (null for standard input, which keeps it); the answer is that name,
   * or the name prefixed with folders above its anchor where another anchor has the name.
   */
  static List<String> name(List<Path> files, List<String> names, List<StoredSources.RunPath> stored) {
    // the anchors of each name in this ingest, in the order of the files
    Map<String, Map<Path, Anchor>> planned = new LinkedHashMap<>();
    List<Anchor> anchors = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      Anchor anchor = files.get(i) == null || names.get(i) == null ? null : anchor(files.get(i), names.get(i));
      anchors.add(anchor);
      if (anchor != null) {
        planned.computeIfAbsent(names.get(i), k -> new LinkedHashMap<>()).putIfAbsent(anchor.key(), anchor);
      }
    }
    Set<String> taken = new HashSet<>();
    Map<String, List<StoredSources.RunPath>> bySuffix = new HashMap<>();
    for (StoredSources.RunPath s : stored) {
      if (s.run() == null) {
        continue;
      }
      taken.add(s.run());
      // every name a stored run could have been given for: its whole name and each part after a '/'
      for (int at = -1; ; at = s.run().indexOf('/', at + 1)) {
        bySuffix.computeIfAbsent(s.run().substring(at + 1), k -> new ArrayList<>()).add(s);
        if (s.run().indexOf('/', at + 1) < 0) {
          break;
        }
      }
    }
    Map<String, Map<Path, String>> resolved = new HashMap<>();
    Set<String> given = new HashSet<>();
    for (Map.Entry<String, Map<Path, Anchor>> e : planned.entrySet()) {
      Map<Path, String> runs = resolve(e.getKey(), e.getValue().values(), bySuffix.getOrDefault(e.getKey(), List.of()),
          taken, given);
      taken.addAll(runs.values());
      given.addAll(runs.values());
      resolved.put(e.getKey(), runs);
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      Anchor anchor = anchors.get(i);
      out.add(anchor == null ? names.get(i) : resolved.get(names.get(i)).get(anchor.key()));
    }
    return out;
  }

  /**
   * The runs of one name's anchors: stored ones keep theirs, new ones are told apart from every
   * anchor of the name, stored or new, and from every run name already given.
   */
  private static Map<Path, String> resolve(String name, java.util.Collection<Anchor> anchors,
      List<StoredSources.RunPath> candidates, Set<String> taken, Set<String> given) {
    // the stored folders of the name: a stored file whose run is its folder's name, prefixed or not
    Map<Path, Anchor> storedAnchors = new LinkedHashMap<>();
    Map<Path, String> storedRuns = new HashMap<>();
    for (StoredSources.RunPath s : candidates) {
      Anchor a = storedAnchor(s, name);
      if (a != null && storedRuns.putIfAbsent(a.key(), s.run()) == null) {
        storedAnchors.put(a.key(), a);
      }
    }
    Map<Path, String> out = new HashMap<>();
    List<Anchor> fresh = new ArrayList<>();
    for (Anchor a : anchors) {
      String kept = storedRuns.get(a.key());
      if (kept != null) {
        out.put(a.key(), kept);
      } else {
        fresh.add(a);
      }
    }
    if (fresh.isEmpty()) {
      return out;
    }
    if (fresh.size() == 1 && storedAnchors.isEmpty() && !given.contains(name)) {
      out.put(fresh.get(0).key(), name);
      return out;
    }
    List<Anchor> all = new ArrayList<>(storedAnchors.values());
    all.addAll(fresh);
    int deepest = 1;
    for (Anchor a : fresh) {
      deepest = Math.max(deepest, depth(a.path()));
    }
    for (int k = 1; k <= deepest; k++) {
      Set<String> seen = new HashSet<>();
      boolean apart = true;
      for (Anchor a : all) {
        apart &= seen.add(prefixed(a.path(), name, k));
      }
      for (Anchor a : fresh) {
        apart &= !taken.contains(prefixed(a.path(), name, k));
      }
      if (apart) {
        for (Anchor a : fresh) {
          out.put(a.key(), prefixed(a.path(), name, k));
        }
        return out;
      }
    }
    // folders no number of folders above tells apart (one directly under the root): the whole path
    for (Anchor a : fresh) {
      out.put(a.key(), a.path().getParent() == null ? name : a.path().getParent().resolve(name).toString());
    }
    return out;
  }

  /**
   * The folder a stored file's run was named from, where its run is that folder's name with
   * folders above it or without (a run {@code --run} named otherwise is no folder's); null else.
   */
  private static Anchor storedAnchor(StoredSources.RunPath s, String name) {
    Path file;
    try {
      file = Path.of(s.path());
    } catch (InvalidPathException e) {
      return null; // a path stored on another system
    }
    if (!file.isAbsolute()) {
      return null; // standard input ("-"), or a path of another system's shape
    }
    Anchor a = anchor(file, name);
    if (a == null) {
      return null;
    }
    for (int k = 0; k <= depth(a.path()); k++) {
      if (s.run().equals(prefixed(a.path(), name, k))) {
        return a;
      }
    }
    return s.run().equals(a.path().getParent() == null ? name : a.path().getParent().resolve(name).toString()) ? a : null;
  }

  /**
   * The folder a name is taken from: the nearest folder above the file named as the name's first
   * part; null when none is (a name the file's place does not give).
   */
  static Anchor anchor(Path file, String name) {
    String first = name.split("/", 2)[0];
    for (Path d = file.toAbsolutePath().normalize().getParent(); d != null && d.getFileName() != null; d = d.getParent()) {
      if (d.getFileName().toString().equals(first)) {
        Path key;
        try {
          key = d.toRealPath();
        } catch (IOException | SecurityException e) {
          key = d; // a folder gone since it was stored: its path as it was
        }
        return new Anchor(d, key);
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
