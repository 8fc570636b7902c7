package dev.tokentime.store;

import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The excerpt kept with a reject: the start of the line, at most 200 characters, cut before any
 * prompt or output text unless --keep-text (production logs carry user data). Invalid UTF-8 is
 * shown as U+FFFD.
 */
final class Excerpts {
  private Excerpts() {}

  static final int MAX_CHARS = 200;

  /** Keys after which a line carries user text, in the JSON and key=value shapes logs use. */
  private static final List<String> TEXT_KEYS = List.of("\"prompt\"", "\"messages\"", "\"output\"",
      "\"output_text\"", "\"generated_text\"", "\"text\"", "\"completion\"", "\"response\"",
      "prompt:", "prompt=", "prompt_token_ids", "\"content\"", "output: ", "text='", "text=\"");

  static String of(byte[] line, int off, int len, boolean keepText) {
    int take = Math.min(len, MAX_CHARS * 4);
    String s;
    try {
      s = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(line, off, take)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      s = new String(line, off, take, StandardCharsets.ISO_8859_1);
    }
    boolean cut = false;
    if (!keepText) {
      int at = -1;
      for (String k : TEXT_KEYS) {
        int i = s.indexOf(k);
        if (i >= 0 && (at < 0 || i < at)) {
          at = i;
        }
      }
      if (at >= 0) {
        s = s.substring(0, at);
        cut = true;
      }
    }
    String marker = "[text cut]";
    int budget = cut ? MAX_CHARS - marker.length() : MAX_CHARS;
    if (s.length() > budget) {
      s = s.substring(0, budget);
    }
    return cut ? s + marker : s;
  }
}
