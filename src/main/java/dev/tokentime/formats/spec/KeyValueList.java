package dev.tokentime.formats.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@code key: value, key: value} list as log lines print them (vLLM's stats line), or
 * {@code key=value, …} (its KV Transfer metrics), or {@code key:value} before a number. Items are
 * split on {@code ", "}; an item with
 * neither continues the previous value (a list of numbers such as {@code Per-position acceptance
 * rate: 0.615, 0.415}).
 */
public final class KeyValueList {
  private KeyValueList() {}

  public record Entry(String key, String value) {}

  public static List<Entry> parse(String s) {
    List<Entry> out = new ArrayList<>();
    String key = null;
    StringBuilder value = new StringBuilder();
    int from = 0;
    while (from <= s.length()) {
      int comma = s.indexOf(", ", from);
      String item = comma < 0 ? s.substring(from) : s.substring(from, comma);
      int colon = item.indexOf(": ");
      int sep = 2;
      if (colon < 0) {
        // "key=value" (vLLM's KV Transfer metrics: "Avg xfer time (ms)=63.33"), a key of words
        colon = item.indexOf('=');
        sep = 1;
        if (colon > 0 && !Character.isLetter(item.strip().charAt(0))) {
          colon = -1;
        }
      }
      if (colon < 0) {
        // "key:value" with no space, a key of words and a number after it (vLLM 0.3's "Avg
        // time/tok:149.4 ms", vllm-project/vllm#2731): glued to the value before, it had
        // overwritten that value's figure
        int c = item.indexOf(':');
        String k = c > 0 ? item.substring(0, c).strip() : "";
        if (!k.isEmpty() && Character.isLetter(k.charAt(0)) && k.chars().noneMatch(Character::isDigit)
            && c + 1 < item.length() && Character.isDigit(item.charAt(c + 1))) {
          colon = c;
          sep = 1;
        }
      }
      if (colon > 0) {
        if (key != null) {
          out.add(new Entry(key, value.toString().strip()));
        }
        key = item.substring(0, colon).strip();
        value.setLength(0);
        value.append(item.substring(colon + sep));
      } else if (key != null) {
        value.append(", ").append(item);
      } else if (!item.isBlank()) {
        out.add(new Entry("", item.strip()));
      }
      if (comma < 0) {
        break;
      }
      from = comma + 2;
    }
    if (key != null) {
      out.add(new Entry(key, value.toString().strip()));
    }
    return out;
  }

  /**
   * A key as an extras name: lower case, words joined by underscores, a word written twice in a
   * row once (vLLM 0.5's "Number of draft tokens tokens: 42272" is {@code number_of_draft_tokens},
   * as every other version names it).
   */
  public static String extraName(String key) {
    StringBuilder sb = new StringBuilder();
    int wordStart = 0;
    int prevStart = -1;
    boolean sep = false;
    for (int i = 0; i <= key.length(); i++) {
      char c = i < key.length() ? key.charAt(i) : ' ';
      if (Character.isLetterOrDigit(c)) {
        if (sep && sb.length() > 0) {
          sb.append('_');
          prevStart = wordStart;
          wordStart = sb.length();
        }
        sb.append(Character.toLowerCase(c));
        sep = false;
      } else {
        if (!sep && prevStart >= 0 && sb.length() - wordStart == wordStart - 1 - prevStart
            && sb.substring(wordStart).equals(sb.substring(prevStart, wordStart - 1))) {
          sb.setLength(wordStart - 1); // the word again: dropped with its underscore
          wordStart = prevStart;
          prevStart = -1;
        }
        sep = true;
      }
    }
    return sb.toString();
  }
}
