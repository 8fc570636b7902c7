package dev.tokentime.ingest;

import java.util.List;
import java.util.Set;

/**
 * A family of input formats that registers itself: each family package holds one implementation,
 * named in {@code META-INF/services/dev.tokentime.ingest.FormatFamily}, so the contract in this
 * package never imports a format family (no package cycle) and a new family is one class and one
 * line in that file.
 */
public interface FormatFamily {
  /** The family's formats, in the order their sniff ties are broken (earlier wins). */
  List<InputFormat> formats();

  /**
   * The family's formats given the ids the families before it registered: a family that fills
   * gaps (the specs in {@code parsers/} no Java family claims) overrides this.
   */
  default List<InputFormat> formats(Set<String> registeredIds) {
    return formats();
  }
}
