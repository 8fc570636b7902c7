package dev.tokentime.formats.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  /**
   * The 1-based position in {@code b[off, off + len)} of the first byte that is not well-formed
   * UTF-8, or 0 when all are. Jackson's decoder lets an overlong form through ({@code C0 AF} read as
   * "/", {@code "ru\xC1\xAEn"} as the key "run") and a code point past U+10FFFF: a record would be
   * stored as other text than its bytes. Eight ASCII bytes at a time, as most lines are.
   */
  public static int firstInvalidUtf8(byte[] b, int off, int len) {
    int i = off;
    int end = off + len;
    for (; i + 8 <= end; i += 8) {
      if (((long) LONGS.get(b, i) & 0x8080808080808080L) != 0) {
        break;
      }
    }
    while (i < end && b[i] >= 0) {
      i++;
    }
    if (i == end) {
      return 0;
    }
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(b, i, end - i);
    java.nio.charset.CoderResult r = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
        .decode(in, java.nio.CharBuffer.allocate(end - i), true);
    return r.isError() ? in.position() - off + 1 : 0;
  }

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
  /**
   * Jackson's message without its advice to a programmer ("Non-standard token 'NaN': enable
   * `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"): the user cannot enable anything.
   */
  public static String withoutParserAdvice(String m) {
    int at = m.indexOf(": enable ");
    if (at > 0 && m.indexOf("JsonReadFeature", at) > 0) {
      String t = m.substring(0, at);
      return t.contains("NaN") || t.contains("Infinity") ? t + " (JSON has no NaN or Infinity: write null, or leave the field out)" : t;
    }
    return m;
  }

  public static String firstLine(String m) {
    if (m == null) {
      return "";
    }
    int nl = m.indexOf('\n');
    String s = nl < 0 ? m : m.substring(0, nl);
    return s.length() > 160 ? s.substring(0, 160) : s;
  }

  /** Jackson quotes the number in its message: "Numeric value (99999999999999999999) out of range of long (…)". */
  private static final Pattern QUOTED_NUMBER = Pattern.compile("^Numeric value \\(([^)]{1,60})\\)");

  /**
   * The reject reason for a number too large for its type, naming the field it was in ("arrival_ns
   * out of range: 99999999999999999999999 (more than a 64-bit integer holds)"); Jackson's own
   * message names only the type.
   */
  public static String outOfRange(InputCoercionException e) {
    String field = null;
    String text = null;
    JsonParser p = e.getProcessor();
    if (p != null) {
      JsonStreamContext c = p.getParsingContext();
      field = c == null ? null : c.getCurrentName();
      if (field == null && c != null && c.inArray() && c.getParent() != null && c.getParent().getCurrentName() != null) {
        field = c.getParent().getCurrentName() + "[" + c.getCurrentIndex() + "]";
      }
    }
    Matcher m = QUOTED_NUMBER.matcher(String.valueOf(e.getOriginalMessage()));
    if (m.find()) {
      text = m.group(1);
    }
    String what = e.getTargetType() == Integer.TYPE ? "a 32-bit integer" : "a 64-bit integer";
    return (field == null ? "a number" : field) + " out of range: "
        + (text == null ? firstLine(e.getOriginalMessage()) : text + " (more than " + what + " holds)");
  }
}
