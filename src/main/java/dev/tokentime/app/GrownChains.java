package dev.tokentime.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Files of one ingest that may be readings of one growing log: in one directory, the name of one
 * beginning the other's ({@code server.log}, {@code server.log.1}, {@code server.log.1.gz}), or the
 * same first 4,096 bytes of content ({@code pod.log}, {@code pod-2.log}). Read at once, each
 * file's check for a stored reading it extends ran before the other committed, and both were
 * stored (the log counted twice); read one after the other, shortest first, each longer reading
 * replaces the shorter one (docs/reliability.md).
 */
final class GrownChains {
  private GrownChains() {}

  /**
   * A file of the ingest: where it is (null for standard input), whether compressed, its size and
   * the SHA-256 of its first 4 KiB of content (null for a shorter file).
   */
  record File(Path path, boolean compressed, long size, String head) {}

  /**
   * Groups of indices into {@code files}: a file alone, or files that may extend one another,
   * in the order they are to be read (uncompressed before compressed, then by size).
   */
  static List<List<Integer>> of(List<File> files) {
    int n = files.size();
    int[] parent = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
    }
    Map<String, Integer> byHead = new HashMap<>();
    Map<Path, List<Integer>> byDir = new HashMap<>();
    for (int i = 0; i < n; i++) {
      File f = files.get(i);
      if (f.path() == null) {
        continue; // standard input: no directory, no name
      }
      Path abs = f.path().toAbsolutePath().normalize();
      Path dir = abs.getParent();
      String name = String.valueOf(abs.getFileName());
      for (int j : byDir.computeIfAbsent(dir, d -> new ArrayList<>())) {
        String other = String.valueOf(files.get(j).path().toAbsolutePath().normalize().getFileName());
        if (name.startsWith(other) || other.startsWith(name)) {
          union(parent, i, j);
        }
      }
      byDir.get(dir).add(i);
      String head = f.head();
      if (head != null) {
        Integer j = byHead.putIfAbsent(dir + "\u0000" + head, i);
        if (j != null) {
          union(parent, i, j);
        }
      }
    }
    Map<Integer, List<Integer>> groups = new java.util.LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      groups.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(i);
    }
    List<List<Integer>> out = new ArrayList<>();
    for (List<Integer> g : groups.values()) {
      g.sort(Comparator.<Integer, Boolean>comparing(i -> files.get(i).compressed())
          .thenComparingLong(i -> files.get(i).size()).thenComparingInt(i -> i));
      out.add(g);
    }
    return out;
  }

  private static int find(int[] parent, int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }

  private static void union(int[] parent, int a, int b) {
    parent[find(parent, a)] = find(parent, b);
  }
}
