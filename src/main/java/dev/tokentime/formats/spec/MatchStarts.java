package dev.tokentime.formats.spec;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Whether a pattern can match some text that begins with a given start ({@link
 * LineMatcher#canMatchText}), asked once per pattern and start in a process and shared by every
 * {@link LineMatcher} of the pattern. A parse builds one matcher per worker thread, and asking
 * all 128 ASCII characters of every prefix and kind up front ran thousands of cold regex matches
 * per matcher, most of them about characters no line of the file starts a prefix with; a
 * character is now asked about when a line first puts it where a prefix or kind could start.
 */
final class MatchStarts {
  /** Weak keys: a spec's patterns leave with it (the answers hold no reference to them). */
  private static final Map<Pattern, MatchStarts> SHARED = Collections.synchronizedMap(new WeakHashMap<>());

  /** Per ASCII character: 0 not asked yet, {@link #CAN} a match can start with it, {@link #CANNOT} none can. */
  private final byte[] ascii = new byte[128];
  private static final byte CAN = 1;
  private static final byte CANNOT = 2;
  private final Map<String, Boolean> texts = new ConcurrentHashMap<>();

  private MatchStarts() {}

  static MatchStarts of(Pattern p) {
    return SHARED.computeIfAbsent(p, k -> new MatchStarts());
  }

  /**
   * Whether {@code p} (the pattern this was made for) can match a text that starts with {@code c}
   * (ASCII). Threads may race to answer the same character: each stores the same answer, and a
   * byte is written whole.
   */
  boolean canStart(Pattern p, char c) {
    byte a = ascii[c];
    if (a == 0) {
      a = LineMatcher.canMatchText(p, String.valueOf(c)) ? CAN : CANNOT;
      ascii[c] = a;
    }
    return a == CAN;
  }

  /** As {@link #canStart} for a start of any length. */
  boolean canStart(Pattern p, String start) {
    return texts.computeIfAbsent(start, s -> LineMatcher.canMatchText(p, s));
  }
}
