package dev.tokentime.report;

/** Escaping for the two places log content reaches a page: HTML text and JSON inside a script. */
final class Html {
  private Html() {}

  /**
   * Text or an attribute value: every character HTML gives a meaning to is replaced, and control
   * characters are shown as {@code \xHH} (XML forbids most of them, so one in a run name made the
   * Markdown report's SVG charts invalid; dev.tokentime.output.Terminal#printable).
   */
  static String esc(String s) {
    if (s == null) {
      return "";
    }
    s = dev.tokentime.output.Terminal.printable(s);
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * JSON placed inside {@code <script type="application/json">}: a string from the logs holding
   * {@code </script>} or {@code <!--} must not end or change the script element, so {@code <},
   * {@code >} and {@code &} become JSON escapes (the parsed value is unchanged), as do U+2028/9.
   */
  static String scriptJson(String json) {
    StringBuilder sb = new StringBuilder(json.length() + 64);
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      switch (c) {
        case '<' -> sb.append("\\u003c");
        case '>' -> sb.append("\\u003e");
        case '&' -> sb.append("\\u0026");
        case '\u2028' -> sb.append("\\u2028");
        case '\u2029' -> sb.append("\\u2029");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
