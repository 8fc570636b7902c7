package dev.tokentime.ingest;

import java.util.List;

/**
 * A family of input formats that registers itself: each family package holds one implementation,
 * named in {@code META-INF/services/dev.tokentime.ingest.FormatFamily}, so the contract in this
 * package never imports a format family (no package cycle) and a new family is one class and one
 * line in that file.
 */
public interface FormatFamily {
  /** The family's formats, in the order their sniff ties are broken (earlier wins). */
  List<InputFormat> formats();
}
