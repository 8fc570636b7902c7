package dev.tokentime.formats.spec;

import java.nio.charset.StandardCharsets;

/**
 * The request ids already written from a file, as 64-bit hashes in an open-addressing table
 * (8 bytes an id, not a String each): a log may name millions of requests. Shared by the
 * formats' request trackers (vllm-log's, SGLang's, the spec engine's own), which reject an id read
 * again after its request was written.
 */
public final class IdHashes {
  private long[] table = new long[1 << 10];
  private int size;
  private boolean hasZero;

  /** Adds the id; whether it was not there yet. */
  public boolean add(String id) {
    long h = hash(id);
    if (h == 0) {
      boolean added = !hasZero;
      hasZero = true;
      return added;
    }
    if (size * 2 >= table.length) {
      grow();
    }
    if (insert(table, h)) {
      size++;
      return true;
    }
    return false;
  }

  public boolean contains(String id) {
    long h = hash(id);
    if (h == 0) {
      return hasZero;
    }
    int mask = table.length - 1;
    for (int i = (int) (h ^ (h >>> 32)) & mask; ; i = (i + 1) & mask) {
      if (table[i] == 0) {
        return false;
      }
      if (table[i] == h) {
        return true;
      }
    }
  }

  private static boolean insert(long[] t, long h) {
    int mask = t.length - 1;
    for (int i = (int) (h ^ (h >>> 32)) & mask; ; i = (i + 1) & mask) {
      if (t[i] == 0) {
        t[i] = h;
        return true;
      }
      if (t[i] == h) {
        return false;
      }
    }
  }

  private void grow() {
    long[] t = new long[table.length * 2];
    for (long h : table) {
      if (h != 0) {
        insert(t, h);
      }
    }
    table = t;
  }

  /** FNV-1a over the UTF-8 bytes, then a murmur finaliser to spread the bits. */
  static long hash(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h;
  }
}
