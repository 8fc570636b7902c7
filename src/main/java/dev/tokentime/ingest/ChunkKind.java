package dev.tokentime.ingest;

import dev.tokentime.schema.CanonicalSchema;

/** Kind of a streamed chunk; the ordinal is the code of the chunk_kind ENUM. */
public enum ChunkKind {
  CONTENT, REASONING, ROLE, EMPTY, USAGE, DONE, ERROR;

  static {
    for (ChunkKind k : values()) {
      if (!CanonicalSchema.CHUNK_KINDS.get(k.ordinal()).equals(k.label())) {
        throw new AssertionError("ChunkKind out of step with CanonicalSchema.CHUNK_KINDS: " + k);
      }
    }
  }

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The kind named by a canonical file, or null when the name is unknown. */
  public static ChunkKind parse(String s) {
    for (ChunkKind k : values()) {
      if (k.label().equals(s)) {
        return k;
      }
    }
    return null;
  }
}
