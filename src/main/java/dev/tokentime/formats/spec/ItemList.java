package dev.tokentime.formats.spec;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A {@code key = value, key: value} list as Python loggers print them (TensorRT-LLM's
 * {@code print_iter_log}: {@code iter = 5, rank = 0, num_scheduled_requests: 3, states = {'num_ctx_requests': 1}}).
 * Items are split at the commas outside brackets, braces, parentheses and quotes; a key is what
 * comes before the first {@code =} or {@code :}, lower-cased, and must be a name ({@code [a-z_][a-z0-9_]*});
 * the first item of a key wins. A value that is a dict ({@code {'k': v, …}}, Python or JSON) gives
 * items {@code key.k} in its place. An item still open when the text ends (a dict cut short) is
 * dropped: the rest of the line is read.
 */
public final class ItemList {
  private ItemList() {}

  private static final Pattern KEY = Pattern.compile("[a-z_][a-z0-9_]*");
  private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");

  /** A dict value that does not read as items. */
  public static final class BadDict extends Exception {
    BadDict(String message) {
      super(message, null, false, false);
    }
  }

  /** The items of {@code text}, in order, dicts flattened ({@code states.num_ctx_requests}). */
  public static Map<String, String> parse(String text) throws BadDict {
    Map<String, String> out = new LinkedHashMap<>();
    split(text, "", out);
    return out;
  }

  /** Whether an item's value is a plain number (what an unnamed item needs to land in extras). */
  public static boolean isNumber(String value) {
    return NUMBER.matcher(value).matches();
  }

  /** The last part of a flattened key ({@code states.cached_kv_tokens} → {@code cached_kv_tokens}). */
  public static String leaf(String key) {
    return key.substring(key.lastIndexOf('.') + 1);
  }

  private static void split(String text, String parent, Map<String, String> out) throws BadDict {
    int depth = 0;
    int start = 0;
    char quote = 0;
    for (int i = 0; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : ',';
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
        continue;
      }
      if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '{' || c == '[' || c == '(') {
        depth++;
      } else if (c == '}' || c == ']' || c == ')') {
        depth--;
      } else if (c == ',' && depth <= 0) {
        item(text.substring(start, Math.min(i, text.length())), parent, out);
        start = i + 1;
      }
    }
  }

  private static void item(String item, String parent, Map<String, String> out) throws BadDict {
    int eq = item.indexOf('=');
    int colon = item.indexOf(':');
    int at = eq >= 0 && (colon < 0 || eq < colon) ? eq : colon;
    if (at <= 0) {
      return;
    }
    String key = unquote(item.substring(0, at).strip()).toLowerCase(Locale.ROOT);
    if (key.isEmpty() || !KEY.matcher(key).matches()) {
      return;
    }
    String full = parent + key;
    String value = item.substring(at + 1).strip();
    if (value.startsWith("{")) {
      if (!value.endsWith("}")) {
        throw new BadDict(full + ": not a dict: " + Numbers.shorten(value));
      }
      split(value.substring(1, value.length() - 1), full + ".", out);
      return;
    }
    out.putIfAbsent(full, value);
  }

  private static String unquote(String s) {
    if (s.length() >= 2 && (s.charAt(0) == '\'' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
      return s.substring(1, s.length() - 1);
    }
    return s;
  }
}
