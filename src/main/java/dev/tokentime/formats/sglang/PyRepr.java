package dev.tokentime.formats.sglang;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the top level of a Python dict as {@code repr()} prints it ({@code {'id': 'a', 'n': 3,
 * 'finish_reason': {'type': 'stop'}}}): SGLang's {@code --log-requests} lines print the response
 * that way. Values are kept as their source text (strings unquoted and unescaped, nested
 * containers as written), so a caller reads the few keys it knows and a prompt or an output is
 * never interpreted. Quotes and brackets inside strings are skipped correctly.
 *
 * <p>{@code --log-requests-level 2} (SGLang's default) cuts a string or a list longer than 2048
 * into its two halves with {@code " ... "} between them ({@code 'Once upon' ... 'the end.'},
 * {@code [1, 2] ... [8, 9]}: request_logger.py's {@code _dataclass_to_string_truncated}): such a
 * value is one value, a string's halves unquoted and joined by {@code " ... "}.
 */
final class PyRepr {
  private PyRepr() {}

  /** A dict that does not read (cut off, unbalanced). */
  static final class BadRepr extends Exception {
    BadRepr(String reason) {
      super(reason, null, false, false);
    }
  }

  /** The top-level keys of the dict starting at {@code s[from]} (which is '{'), by key. */
  static Map<String, String> dict(String s, int from) throws BadRepr {
    if (from >= s.length() || s.charAt(from) != '{') {
      throw new BadRepr("expected a dict at column " + (from + 1));
    }
    Map<String, String> out = new LinkedHashMap<>();
    int i = skipSpaces(s, from + 1);
    while (i < s.length() && s.charAt(i) != '}') {
      if (s.charAt(i) != '\'' && s.charAt(i) != '"') {
        throw new BadRepr("expected a quoted key at column " + (i + 1));
      }
      int keyEnd = endOfString(s, i);
      String key = unquote(s, i, keyEnd);
      i = skipSpaces(s, keyEnd);
      if (i >= s.length() || s.charAt(i) != ':') {
        throw new BadRepr("expected ':' after key '" + key + "'");
      }
      i = skipSpaces(s, i + 1);
      int valueEnd = endOfValue(s, i);
      char c = i < s.length() ? s.charAt(i) : 0;
      boolean quoted = c == '\'' || c == '"';
      String value = quoted ? unquote(s, i, valueEnd) : s.substring(i, valueEnd).strip();
      int tail = truncatedTail(s, i, valueEnd);
      if (tail >= 0) {
        int tailEnd = endOfValue(s, tail);
        value = quoted ? value + TRUNCATION + unquote(s, tail, tailEnd) : s.substring(i, tailEnd).strip();
        valueEnd = tailEnd;
      }
      out.put(key, value);
      i = skipSpaces(s, valueEnd);
      if (i < s.length() && s.charAt(i) == ',') {
        i = skipSpaces(s, i + 1);
      }
    }
    if (i >= s.length()) {
      throw new BadRepr("the dict is cut off before its closing brace");
    }
    return out;
  }

  /** What SGLang writes between the halves of a value it cut short. */
  static final String TRUNCATION = " ... ";

  /**
   * Where the second half of a value cut short by SGLang starts (after {@code " ... "}), or -1:
   * the first half, from {@code start} to {@code end}, is a string or a list/tuple and the second
   * one of the same kind.
   */
  private static int truncatedTail(String s, int start, int end) {
    if (!s.startsWith(TRUNCATION, end) || end + TRUNCATION.length() >= s.length()) {
      return -1;
    }
    char first = s.charAt(start);
    char next = s.charAt(end + TRUNCATION.length());
    boolean strings = (first == '\'' || first == '"') && (next == '\'' || next == '"');
    boolean lists = (first == '[' || first == '(') && next == first;
    return strings || lists ? end + TRUNCATION.length() : -1;
  }

  /** Index after the value starting at {@code i}: a string, a bracketed container or a scalar. */
  static int endOfValue(String s, int i) throws BadRepr {
    int n = s.length();
    if (i >= n) {
      throw new BadRepr("a value is cut off");
    }
    char c = s.charAt(i);
    if (c == '\'' || c == '"') {
      return endOfString(s, i);
    }
    if (c == '{' || c == '[' || c == '(') {
      int depth = 0;
      int j = i;
      while (j < n) {
        char d = s.charAt(j);
        if (d == '\'' || d == '"') {
          j = endOfString(s, j);
          continue;
        }
        if (d == '{' || d == '[' || d == '(') {
          depth++;
        } else if (d == '}' || d == ']' || d == ')') {
          depth--;
          if (depth == 0) {
            return j + 1;
          }
        }
        j++;
      }
      throw new BadRepr("a nested value is cut off");
    }
    int j = i;
    while (j < n && s.charAt(j) != ',' && s.charAt(j) != '}' && s.charAt(j) != ']' && s.charAt(j) != ')') {
      j++;
    }
    return j;
  }

  /** Index after the quoted string starting at {@code i}. */
  static int endOfString(String s, int i) throws BadRepr {
    char q = s.charAt(i);
    int j = i + 1;
    while (j < s.length()) {
      char c = s.charAt(j);
      if (c == '\\') {
        j += 2;
        continue;
      }
      if (c == q) {
        return j + 1;
      }
      j++;
    }
    throw new BadRepr("a string is cut off");
  }

  private static String unquote(String s, int from, int to) {
    StringBuilder sb = new StringBuilder(to - from);
    for (int j = from + 1; j < to - 1; j++) {
      char c = s.charAt(j);
      if (c == '\\' && j + 1 < to - 1) {
        sb.append(s.charAt(++j));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static int skipSpaces(String s, int i) {
    while (i < s.length() && s.charAt(i) == ' ') {
      i++;
    }
    return i;
  }
}
