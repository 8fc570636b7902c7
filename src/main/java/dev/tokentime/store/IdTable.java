package dev.tokentime.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The request ids of one id scope (a namespace and run) and what the ingest knows of each: its
 * request_key, where it was first seen, whether it is a stub and whether its chunks are stored.
 *
 * <p>Kept in a few primitive arrays and byte chunks instead of a map of objects, because one
 * vLLM log of a day at a high rate names millions of requests in one scope: a {@code HashMap}
 * of entries costs about 150 bytes an id in four objects (out of the launcher's heap at 3 M ids,
 * the collector busy scanning them); here an id costs its characters and about 40 bytes in
 * arrays the collector never walks. Lookups are exact (ids compared byte for byte, never by hash
 * alone): a crafted or unlucky hash can cost a probe, never a wrong request.
 */
final class IdTable {
  private static final long NO_LINE = Long.MIN_VALUE;
  private static final byte STUB = 1;
  private static final byte HAS_TOKENS = 2;
  /** The largest chunk; the first of a table is small (one table per run: a file of 1,000 runs has 1,000). */
  private static final int CHUNK = 1 << 20;
  private static final int FIRST_CHUNK = 256;

  // per entry, in insertion order
  private long[] keys = new long[4];
  private long[] lines = new long[4];
  private byte[] flags = new byte[4];
  private int[] hashes = new int[4];
  private long[] idRefs = new long[4];
  private int[] idLens = new int[4];
  /** The source of every entry while they all share one; an array once they differ. */
  private int soleSource = Integer.MIN_VALUE;
  private int[] sources;
  private int size;

  /** Open addressing: entry index + 1, 0 for an empty slot; at most half full. */
  private int[] slots = new int[8];

  /**
   * The ids' bytes, in chunks (a long id gets a chunk of its own): an id of ASCII characters a
   * byte each, any other id its UTF-16 code units two bytes each, its length stored negated (not
   * UTF-8: it writes a lone surrogate as '?', and two ids would be one).
   */
  private final List<byte[]> chunks = new ArrayList<>();
  /** The chunk short ids are appended to, and how much of it is used. */
  private int current = -1;
  private int chunkUsed;

  int size() {
    return size;
  }

  /** The entry of this id, or -1. */
  int find(String id) {
    int h = hash(id);
    boolean ascii = ascii(id);
    int mask = slots.length - 1;
    for (int s = h & mask; ; s = (s + 1) & mask) {
      int e = slots[s] - 1;
      if (e < 0) {
        return -1;
      }
      if (hashes[e] == h && sameId(e, id, ascii)) {
        return e;
      }
    }
  }

  /** Adds an id not in the table (the caller has looked); returns its entry. */
  int add(String id, long key, boolean stub, int sourceId, Long lineNo) {
    if (size == keys.length) {
      grow();
    }
    if ((size + 1) * 2 > slots.length) {
      rehash(slots.length * 2);
    }
    int e = size++;
    int h = hash(id);
    boolean ascii = ascii(id);
    byte[] bytes = new byte[ascii ? id.length() : 2 * id.length()];
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (ascii) {
        bytes[i] = (byte) c;
      } else {
        bytes[2 * i] = (byte) (c >> 8);
        bytes[2 * i + 1] = (byte) c;
      }
    }
    keys[e] = key;
    hashes[e] = h;
    flags[e] = stub ? STUB : 0;
    lines[e] = lineNo == null ? NO_LINE : lineNo;
    idRefs[e] = store(bytes);
    idLens[e] = ascii ? id.length() : -id.length();
    setSource(e, sourceId);
    int mask = slots.length - 1;
    int s = h & mask;
    while (slots[s] != 0) {
      s = (s + 1) & mask;
    }
    slots[s] = e + 1;
    return e;
  }

  long key(int e) {
    return keys[e];
  }

  boolean stub(int e) {
    return (flags[e] & STUB) != 0;
  }

  boolean hasTokens(int e) {
    return (flags[e] & HAS_TOKENS) != 0;
  }

  void setHasTokens(int e) {
    flags[e] |= HAS_TOKENS;
  }

  int source(int e) {
    return sources == null ? soleSource : sources[e];
  }

  Long line(int e) {
    return lines[e] == NO_LINE ? null : lines[e];
  }

  /** A stub's request row arrived: it is a request of that source and line now. */
  void adopt(int e, int sourceId, Long lineNo) {
    flags[e] &= ~STUB;
    setSource(e, sourceId);
    lines[e] = lineNo == null ? NO_LINE : lineNo;
  }

  private void setSource(int e, int sourceId) {
    if (sources == null) {
      if (soleSource == Integer.MIN_VALUE || size == 1) {
        soleSource = sourceId;
        return;
      }
      if (soleSource == sourceId) {
        return;
      }
      int[] filled = new int[keys.length];
      Arrays.fill(filled, 0, size, soleSource);
      sources = filled;
    }
    sources[e] = sourceId;
  }

  /**
   * Seeded per process: ids that collide on {@code String.hashCode} are easy to make ("Aa",
   * "BB"), and a file of them would make every probe walk the whole table.
   */
  private static final int SEED = java.util.concurrent.ThreadLocalRandom.current().nextInt();

  private static int hash(String id) {
    int h = SEED;
    for (int i = 0; i < id.length(); i++) {
      h = Integer.rotateLeft(h ^ (id.charAt(i) * 0xCC9E2D51), 15) * 0x1B873593;
    }
    h ^= id.length();
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    return h ^ (h >>> 16);
  }

  private static boolean ascii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  private boolean sameId(int e, String id, boolean ascii) {
    int len = idLens[e];
    if (len != (ascii ? id.length() : -id.length())) {
      return false;
    }
    byte[] chunk = chunks.get((int) (idRefs[e] >>> 32));
    int off = (int) idRefs[e];
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (ascii ? chunk[off + i] != (byte) c
          : chunk[off + 2 * i] != (byte) (c >> 8) || chunk[off + 2 * i + 1] != (byte) c) {
        return false;
      }
    }
    return true;
  }

  private long store(byte[] bytes) {
    if (bytes.length > CHUNK / 16) {
      chunks.add(bytes); // a chunk of its own (the array is this table's: made by add)
      return (long) (chunks.size() - 1) << 32;
    }
    if (current < 0 || chunkUsed + bytes.length > chunks.get(current).length) {
      // each chunk twice the last, up to CHUNK: a table of a few ids stays a few hundred bytes
      int size = current < 0 ? FIRST_CHUNK : Math.min(CHUNK, 2 * chunks.get(current).length);
      chunks.add(new byte[Math.max(size, bytes.length)]);
      current = chunks.size() - 1;
      chunkUsed = 0;
    }
    System.arraycopy(bytes, 0, chunks.get(current), chunkUsed, bytes.length);
    long ref = ((long) current << 32) | chunkUsed;
    chunkUsed += bytes.length;
    return ref;
  }

  private void grow() {
    int n = keys.length + (keys.length >> 1);
    keys = Arrays.copyOf(keys, n);
    lines = Arrays.copyOf(lines, n);
    flags = Arrays.copyOf(flags, n);
    hashes = Arrays.copyOf(hashes, n);
    idRefs = Arrays.copyOf(idRefs, n);
    idLens = Arrays.copyOf(idLens, n);
    if (sources != null) {
      sources = Arrays.copyOf(sources, n);
    }
  }

  private void rehash(int capacity) {
    int[] next = new int[capacity];
    int mask = capacity - 1;
    for (int e = 0; e < size; e++) {
      int s = hashes[e] & mask;
      while (next[s] != 0) {
        s = (s + 1) & mask;
      }
      next[s] = e + 1;
    }
    slots = next;
  }
}
