package dev.tokentime.ingest;

import dev.tokentime.formats.canonical.TokentimeCsvFormat;
import dev.tokentime.formats.canonical.TokentimeJsonlFormat;
import dev.tokentime.formats.peers.PeerFormats;
import dev.tokentime.formats.trtllm.TrtllmFormats;
import dev.tokentime.formats.vllm.VllmFormats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

  /** The formats shipped with tokentime: each family lists its own in its package. */
  public static FormatRegistry standard() {
    List<InputFormat> all = new ArrayList<>(List.of(new TokentimeJsonlFormat(), new TokentimeCsvFormat()));
    all.addAll(VllmFormats.all());
    all.addAll(TrtllmFormats.all());
    all.addAll(PeerFormats.all());
    // every other spec in parsers/ is a format of its own, no Java needed
    all.addAll(dev.tokentime.formats.spec.SpecFormats.discovered(
        all.stream().map(InputFormat::id).collect(java.util.stream.Collectors.toSet())));
    return new FormatRegistry(all);
  }

  public List<InputFormat> all() {
    return List.copyOf(byId.values());
  }

  public InputFormat byId(String id) {
    return byId.get(id);
  }

  /** The best-scoring format for the sample, or null when none is sure enough. */
  public InputFormat sniff(Sample sample) {
    InputFormat best = null;
    int bestScore = MIN_SCORE - 1;
    for (InputFormat f : byId.values()) {
      int s = f.sniff(sample);
      if (s > bestScore) {
        best = f;
        bestScore = s;
      }
    }
    return best;
  }

  /** For each run-wide id namespace, the formats that share it. */
  public Map<String, List<String>> namespaceFormats() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (InputFormat f : byId.values()) {
      if (f.idNamespace() != null) {
        m.computeIfAbsent(f.idNamespace(), k -> new ArrayList<>()).add(f.id());
      }
    }
    return m;
  }
}
