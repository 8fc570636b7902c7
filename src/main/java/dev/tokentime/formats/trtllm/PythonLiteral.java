package dev.tokentime.formats.trtllm;

/**
 * Turns a Python literal as {@code repr()} writes it ({@code {'iter': 3, 'x': None, 'ok': True}})
 * into JSON text: trtllm-bench's {@code --iteration_log} and {@code print_iter_log}'s
 * {@code states = {...}} are Python dicts, not JSON. Quotes, {@code None}, booleans, tuples and
 * {@code inf}/{@code nan} are translated; anything else is copied, so invalid input stays invalid
 * and the JSON parser names the problem.
 */
final class PythonLiteral {
  private PythonLiteral() {}

  static String toJson(CharSequence py) {
    StringBuilder out = new StringBuilder(py.length() + 16);
    int n = py.length();
    int i = 0;
    while (i < n) {
      char c = py.charAt(i);
      if (c == '\'' || c == '"') {
        i = string(py, i, out);
        continue;
      }
      if (Character.isLetter(c)) {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(py.charAt(j)) || py.charAt(j) == '_')) {
          j++;
        }
        String word = py.subSequence(i, j).toString();
        out.append(switch (word) {
          case "None" -> "null";
          case "True" -> "true";
          case "False" -> "false";
          case "inf" -> "Infinity";
          case "nan" -> "NaN";
          default -> word;
        });
        i = j;
        continue;
      }
      out.append(c == '(' ? '[' : c == ')' ? ']' : c);
      i++;
    }
    return out.toString();
  }

  /** Copies the string literal starting at {@code i} as a JSON string; returns the index after it. */
  private static int string(CharSequence py, int i, StringBuilder out) {
    char quote = py.charAt(i);
    out.append('"');
    int n = py.length();
    int j = i + 1;
    while (j < n) {
      char c = py.charAt(j);
      if (c == '\\' && j + 1 < n) {
        char next = py.charAt(j + 1);
        if (next == '\'') {
          out.append('\''); // \' is not a JSON escape
        } else {
          out.append(c).append(next);
        }
        j += 2;
        continue;
      }
      if (c == quote) {
        out.append('"');
        return j + 1;
      }
      if (c == '"') {
        out.append("\\\"");
      } else {
        out.append(c);
      }
      j++;
    }
    return j; // unterminated: left unterminated, the JSON parser reports it
  }
}
