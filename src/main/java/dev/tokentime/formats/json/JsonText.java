package dev.tokentime.formats.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonReadFeature;

/**
 * What every JSON format reads with: the two Jackson factories and the small text helpers the
 * parsers share. This package is shared by the format families (each family imports it and the
 * {@code ingest} contract, never another family).
 */
public final class JsonText {
  private JsonText() {}

  /** JSON as the standard has it: what engines and collectors write. */
  public static final JsonFactory STRICT = JsonFactory.builder().build();

  /** JSON as Python's json module writes it, with Infinity and NaN (SGLang's request_rate). */
  public static final JsonFactory PYTHON = JsonFactory.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  /** Whether a line holds only spaces, tabs and a carriage return (a blank line, not a record). */
  public static boolean isBlank(byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      byte c = b[i];
      if (c != ' ' && c != '\t' && c != '\r') {
        return false;
      }
    }
    return true;
  }

  /**
   * The first line of a parser's message, at most 160 characters (Jackson appends the source and
   * location on further lines), for a reject reason; empty for none.
   */
  public static String firstLine(String m) {
    if (m == null) {
      return "";
    }
    int nl = m.indexOf('\n');
    String s = nl < 0 ? m : m.substring(0, nl);
    return s.length() > 160 ? s.substring(0, 160) : s;
  }
}
