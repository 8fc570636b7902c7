package dev.tokentime.ingest;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/** The input formats tokentime knows, by id, and the sniffing that picks one for a file. */
public final class FormatRegistry {
  /** Below this score a sniff is not trusted. */
  public static final int MIN_SCORE = 50;

  private final Map<String, InputFormat> byId = new LinkedHashMap<>();

  public FormatRegistry(List<InputFormat> formats) {
    for (InputFormat f : formats) {
      if (byId.put(f.id(), f) != null) {
        throw new IllegalArgumentException("two formats with id " + f.id());
      }
    }
  }

  /**
   * The formats on the classpath: every {@link FormatFamily} service, in the order of the services
   * file (the contract knows no family; each registers itself).
   */
  public static FormatRegistry standard() {
    List<InputFormat> all = new ArrayList<>();
    for (FormatFamily family : ServiceLoader.load(FormatFamily.class, FormatRegistry.class.getClassLoader())) {
      Set<String> ids = new HashSet<>();
      all.forEach(f -> ids.add(f.id()));
      all.addAll(family.formats(ids));
    }
    if (all.isEmpty()) {
      throw new IllegalStateException("no input format on the classpath (META-INF/services/" + FormatFamily.class.getName() + ")");
    }
    return new FormatRegistry(all);
  }

  public List<InputFormat> all() {
    return List.copyOf(byId.values());
  }

  public InputFormat byId(String id) {
    return byId.get(id);
  }

  /**
   * The best-scoring format for the sample, or null when none is sure enough: of its first lines,
   * else of the rest of it ({@link InputFormat#sniffFurther}), so a weak claim on the first lines
   * is never beaten by another format's on later ones.
   */
  public InputFormat sniff(Sample sample) {
    Sniffed s = sniffScored(sample);
    return s == null ? null : s.format();
  }

  /** The best format for a sample, with its score (null when none reaches the minimum). */
  public Sniffed sniffScored(Sample sample) {
    Sniffed first = best(sample, f -> true);
    if (first != null) {
      return first;
    }
    Sniffed further = best(sample, f -> true, InputFormat::sniffFurther);
    return further == null ? null : new Sniffed(further.format(), further.score(), true);
  }

  /** The best of the formats whose records may come after anything ({@link InputFormat#readsFromAnywhere}). */
  public Sniffed sniffTail(Sample tail) {
    return best(tail, InputFormat::readsFromAnywhere);
  }

  /**
   * A format and how sure its sniff was of a sample (higher: surer); {@code further}: of the rest
   * of it, none being sure of its first lines.
   */
  public record Sniffed(InputFormat format, int score, boolean further) {}

  private Sniffed best(Sample sample, java.util.function.Predicate<InputFormat> eligible) {
    return best(sample, eligible, InputFormat::sniff);
  }

  private Sniffed best(Sample sample, java.util.function.Predicate<InputFormat> eligible,
      java.util.function.ToIntBiFunction<InputFormat, Sample> score) {
    InputFormat best = null;
    int bestScore = MIN_SCORE - 1;
    for (InputFormat f : byId.values()) {
      int s = eligible.test(f) ? score.applyAsInt(f, sample) : 0;
      if (s > bestScore) {
        best = f;
        bestScore = s;
      }
    }
    return best == null ? null : new Sniffed(best, bestScore, false);
  }

  /** For each run-wide id namespace, the formats that share it. */
  public Map<String, List<String>> namespaceFormats() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (InputFormat f : byId.values()) {
      String ns = f.idNamespace() != null ? f.idNamespace() : f.folderNamespace();
      if (ns != null) {
        m.computeIfAbsent(ns, k -> new ArrayList<>()).add(f.id());
      }
    }
    return m;
  }
}
