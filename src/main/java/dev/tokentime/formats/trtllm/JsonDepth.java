package dev.tokentime.formats.trtllm;

/**
 * Tracks the nesting of JSON text fed byte by byte, outside strings: whether what was fed so far
 * closes every object and array it opens. Used to tell a one-line record from the first line of a
 * multi-line one without parsing it.
 */
final class JsonDepth {
  private int depth;
  private boolean inString;
  private boolean escaped;
  private boolean opened;

  void feed(byte c) {
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        inString = false;
      }
      return;
    }
    switch (c) {
      case '"' -> inString = true;
      case '{', '[' -> {
        depth++;
        opened = true;
      }
      case '}', ']' -> depth--;
      default -> { }
    }
  }

  void feed(byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      feed(b[i]);
    }
  }

  /** Every object or array opened so far is closed (and at least one was opened). */
  boolean balanced() {
    return opened && depth <= 0 && !inString;
  }

  /** Inside an object or array that is not closed yet. */
  boolean open() {
    return depth > 0 || inString;
  }

  void reset() {
    depth = 0;
    inString = escaped = opened = false;
  }
}
