package dev.tokentime.formats.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Reading JSON values field by field, shared by the JSON parsers (peer tools, TensorRT-LLM): Python's
 * JSON factory, typed values with reasons a user can read.
 */
public final class PeerJson {
  /**
   * Anything after a file's one JSON document (a second copy appended, a summary pasted after the
   * figures) is a reject, never passed over: 1 when there was some, else 0. The parser stands just
   * after the document; {@code why} says why one is all the file holds.
   */
  public static long trailing(JsonParser p, dev.tokentime.ingest.RecordSink sink, String what, String why) {
    long line = line(p);
    try {
      if (p.nextToken() == null) {
        return 0;
      }
      line = line(p);
      sink.reject(line, "more JSON after the " + what + " (" + why + "); not read", null, 0, 0);
    } catch (IOException e) {
      sink.reject(Math.max(line, line(p)), reason(e) + " after the " + what + "; not read", null, 0, 0);
    }
    return 1;
  }

  private PeerJson() {}

  /**
   * A file that holds one JSON document: the document, or null after rejecting the file (one
   * unit) where Jackson broke; {@code extra} the reject of anything after it ({@link #trailing}).
   */
  public record OneDocument(com.fasterxml.jackson.databind.JsonNode doc, long extra, boolean broken) {}

  /** Reads a file's one document ({@code what} names it, {@code why} says why one is all it holds). */
  public static OneDocument one(java.io.InputStream in, dev.tokentime.ingest.RecordSink sink, String what, String why)
      throws IOException {
    try (JsonParser p = JSON.createParser(in)) {
      com.fasterxml.jackson.databind.JsonNode doc;
      try {
        doc = TREE.readTree(p);
      } catch (IOException e) {
        sink.reject(Math.max(1, line(p)), reason(e), null, 0, 0);
        return new OneDocument(null, 0, true);
      }
      return new OneDocument(doc, trailing(p, sink, what, why), false);
    }
  }

  /**
   * The first token of a file's one document (null for an empty file); NOT_AVAILABLE after
   * rejecting the file (one unit) with the reason Jackson gave.
   */
  public static JsonToken firstToken(JsonParser p, dev.tokentime.ingest.RecordSink sink) {
    try {
      return p.nextToken();
    } catch (IOException e) {
      sink.reject(1, reason(e), null, 0, 0);
      return JsonToken.NOT_AVAILABLE;
    }
  }

  /**
   * The value the parser is on, read whole; null after rejecting it (one unit) where it broke.
   */
  public static com.fasterxml.jackson.databind.JsonNode whole(JsonParser p, dev.tokentime.ingest.RecordSink sink) {
    try {
      return TREE.readTree(p);
    } catch (IOException e) {
      sink.reject(Math.max(1, line(p)), reason(e), null, 0, 0);
      return null;
    }
  }

  /** What a reader does with one element of a file's array: {@link Bad} rejects it with its reason. */
  public interface Element {
    void read(com.fasterxml.jackson.databind.JsonNode element, int index, long line) throws Bad;
  }

  /**
   * Reads the elements of the array the parser is on the START_ARRAY of (with {@code rootObjects},
   * the values one after another at the top level, the parser on the first one's start), one
   * unit each, read whole one at a time: an element the reader refuses is a reject naming its
   * index; a break in the JSON is a reject saying nothing after it was read, a unit of its own
   * when it falls outside an element (inside one, that element's). Returns the units.
   */
  public static long elements(JsonParser p, dev.tokentime.ingest.RecordSink sink, boolean rootObjects, Element reader)
      throws IOException {
    long units = 0;
    int index = 0;
    long line = 1;
    boolean pending = false; // an element counted whose outcome is not yet given
    try {
      JsonToken t = rootObjects ? p.currentToken() : p.nextToken();
      for (; rootObjects ? t != null : t != JsonToken.END_ARRAY; t = p.nextToken()) {
        if (t == null) {
          throw new JsonEOFException(p, null, "end of input in the array");
        }
        line = line(p);
        units++;
        pending = true;
        com.fasterxml.jackson.databind.JsonNode e = TREE.readTree(p);
        pending = false;
        try {
          reader.read(e, index, line);
        } catch (Bad | NumberFormatException x) {
          sink.reject(line, "[" + index + "]: " + x.getMessage(), null, 0, 0);
        }
        index++;
      }
    } catch (IOException e) {
      if (!pending) {
        units++;
      }
      sink.reject(Math.max(line, line(p)), reason(e) + " (in element " + index + "); nothing after this point could be read",
          null, 0, 0);
    }
    return units;
  }

  /** A finite number above 0 (a rate, a concurrency), or null. */
  public static Double positive(com.fasterxml.jackson.databind.JsonNode v) {
    return v != null && v.isNumber() && v.asDouble() > 0 && Double.isFinite(v.asDouble()) ? v.asDouble() : null;
  }

  /** Python's json module writes Infinity and NaN (SGLang's request_rate): accepted. */
  public static final JsonFactory JSON = JsonText.PYTHON;
  public static final ObjectMapper TREE = new ObjectMapper(JSON);
  /**
   * Reports some tools also save as YAML (GuideLLM): the same tokens as their JSON, read alike. No
   * limit on a document's size (SnakeYAML's default stops at 3 M code points: a sweep's report is
   * often tens of MB); it streams, so its size costs no memory.
   */
  public static final com.fasterxml.jackson.dataformat.yaml.YAMLFactory YAML = yamlFactory();

  /** YAML 1.1's special floats, which Jackson's YAML parser takes for numbers it cannot read. */
  private static final java.util.regex.Pattern YAML_SPECIAL =
      java.util.regex.Pattern.compile("([-+]?)\\.(?:(inf|Inf|INF)|nan|NaN|NAN)");

  /**
   * A YAML parser on which {@code .inf}, {@code -.inf} and {@code .nan} (what PyYAML writes for
   * Python's infinities and NaN) read as those doubles, where Jackson's own fails the whole
   * document ("Malformed numeric value '.inf'"). What a reader then does with one is its own
   * concern: a figure that is not finite is a reject naming it, never a number stored.
   */
  public static JsonParser yamlSpecialFloats(JsonParser yaml) {
    return new com.fasterxml.jackson.core.util.JsonParserDelegate(yaml) {
      private Double special() throws IOException {
        if (currentToken() != JsonToken.VALUE_NUMBER_FLOAT) {
          return null;
        }
        java.util.regex.Matcher m = YAML_SPECIAL.matcher(getText());
        if (!m.matches()) {
          return null;
        }
        return m.group(2) == null ? Double.NaN
            : m.group(1).equals("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      }

      @Override
      public double getDoubleValue() throws IOException {
        Double v = special();
        return v != null ? v : super.getDoubleValue();
      }

      @Override
      public float getFloatValue() throws IOException {
        Double v = special();
        return v != null ? v.floatValue() : super.getFloatValue();
      }

      @Override
      public Number getNumberValue() throws IOException {
        Double v = special();
        return v != null ? v : super.getNumberValue();
      }

      @Override
      public NumberType getNumberType() throws IOException {
        return special() != null ? NumberType.DOUBLE : super.getNumberType();
      }

      @Override
      public NumberTypeFP getNumberTypeFP() throws IOException {
        return special() != null ? NumberTypeFP.DOUBLE64 : super.getNumberTypeFP();
      }

      @Override
      public boolean isNaN() throws IOException {
        Double v = special();
        return v != null ? !Double.isFinite(v) : super.isNaN();
      }
    };
  }

  private static com.fasterxml.jackson.dataformat.yaml.YAMLFactory yamlFactory() {
    org.yaml.snakeyaml.LoaderOptions options = new org.yaml.snakeyaml.LoaderOptions();
    options.setCodePointLimit(Integer.MAX_VALUE);
    return com.fasterxml.jackson.dataformat.yaml.YAMLFactory.builder().loaderOptions(options).build();
  }

  /** A value that cannot be used; the message becomes the reject reason. */
  /** What an object-per-line reader does with one line's object (a reject: {@link Bad} or a range problem). */
  public interface ObjectLine {
    void object(long lineNo, com.fasterxml.jackson.databind.JsonNode node, byte[] buf, int off, int len)
        throws IOException, Bad;
  }

  /**
   * Reads a JSON-lines file of one object a line: a blank line is an other line; a line that is no
   * object ({@link #lineObject}), cut, too long, or that {@code reader} refuses is a reject with
   * its reason. Returns the lines read.
   */
  public static long objectLines(java.io.InputStream in, dev.tokentime.ingest.RecordSink sink, ObjectLine reader)
      throws IOException {
    return new dev.tokentime.ingest.LineReader(in).forEach(new dev.tokentime.ingest.LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) {
        if (JsonText.isBlank(buf, off, len)) {
          sink.otherLine();
          return;
        }
        try {
          reader.object(lineNo, lineObject(buf, off, len), buf, off, len);
        } catch (Bad | dev.tokentime.ingest.Checked.OutOfRange e) {
          sink.reject(lineNo, e.getMessage(), buf, off, len);
        } catch (IOException e) {
          String reason = reason(e);
          sink.reject(lineNo, reason.startsWith("truncated") ? "truncated JSON: the line ends"
              + " inside the record" : reason, buf, off, len);
        }
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        sink.reject(lineNo, "line of " + length + " bytes is longer than the limit of "
            + dev.tokentime.ingest.LineReader.DEFAULT_MAX_LINE_BYTES + " bytes; skipped", head, 0, headLen);
      }
    });
  }

  /**
   * A line of a JSON-lines file as one object: a line that holds no object, or more after it (a
   * second value, text), is no record ({@link Bad}); readTree alone stops after the first value.
   */
  public static com.fasterxml.jackson.databind.JsonNode lineObject(byte[] buf, int off, int len)
      throws IOException, Bad {
    try (JsonParser p = JSON.createParser(buf, off, len)) {
      com.fasterxml.jackson.databind.JsonNode node = TREE.readTree(p);
      if (node == null || !node.isObject()) {
        throw new Bad("not a JSON object");
      }
      if (p.nextToken() != null) {
        throw new Bad("more after the JSON object (one record a line); not read");
      }
      return node;
    }
  }

  public static final class Bad extends Exception {
    public Bad(String reason) {
      super(reason, null, false, false);
    }
  }

  /** The reject reason for an exception Jackson threw while reading. */
  public static String reason(IOException e) {
    if (e instanceof JsonEOFException) {
      return "truncated JSON: the input ends inside a value";
    }
    if (e instanceof InputCoercionException ice) {
      return JsonText.outOfRange(ice);
    }
    if (e instanceof JsonParseException jpe) {
      String m = jpe.getOriginalMessage();
      if (m != null && m.startsWith("Invalid UTF-8")) {
        return "invalid UTF-8: " + JsonText.firstLine(m);
      }
      if (m != null && m.startsWith("Unexpected end-of-input")) {
        return "truncated JSON: the input ends inside a value";
      }
      return "not valid JSON: " + JsonText.firstLine(m);
    }
    if (e instanceof com.fasterxml.jackson.core.JacksonException je) {
      return "not valid JSON: " + JsonText.firstLine(je.getOriginalMessage());
    }
    return "cannot read: " + JsonText.firstLine(e.getMessage());
  }

  /** The line where the parser's current token starts (1-based), or 0 when unknown. */
  public static long line(JsonParser p) {
    int n = p.currentTokenLocation().getLineNr();
    return n < 0 ? 0 : n;
  }

  /** A number token (or numeric text, as some tools quote numbers) as a double. */
  public static double number(JsonParser p, String field) throws IOException, Bad {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
      return p.getDoubleValue();
    }
    if (t == JsonToken.VALUE_STRING) {
      String s = p.getText().strip();
      if (s.equalsIgnoreCase("inf") || s.equalsIgnoreCase("infinity")) {
        return Double.POSITIVE_INFINITY;
      }
      try {
        return Double.parseDouble(s.replace(",", ""));
      } catch (NumberFormatException e) {
        throw new Bad(field + ": expected a number, got " + quote(s));
      }
    }
    throw new Bad(field + ": expected a number, got " + describe(p));
  }

  /** An integer token (or an integral number, or numeric text) as a long. */
  public static long integer(JsonParser p, String field) throws IOException, Bad {
    if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
      return p.getLongValue();
    }
    double d = number(p, field);
    if (d != Math.rint(d) || Double.isInfinite(d)) {
      throw new Bad(field + ": expected an integer, got " + p.getText());
    }
    return (long) d;
  }

  /** A string, or the text of a scalar; null for JSON null. Objects and arrays are refused. */
  public static String text(JsonParser p, String field) throws IOException, Bad {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t.isScalarValue()) {
      return p.getText();
    }
    throw new Bad(field + ": expected a string, got " + describe(p));
  }

  public static String describe(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) {
      return "nothing";
    }
    return switch (t) {
      case START_ARRAY -> "an array";
      case START_OBJECT -> "an object";
      case VALUE_STRING -> quote(p.getText());
      case VALUE_NULL -> "null";
      default -> p.getText();
    };
  }

  public static String quote(String s) {
    String t = s.length() > 40 ? s.substring(0, 40) + "..." : s;
    return "\"" + t + "\"";
  }

  /**
   * The member {@code field} of {@code obj} as seconds written as a JSON number (a tool's
   * time.time() or duration), exact as written; null when absent or null. A negative, infinite or
   * non-number value is the record's reject, naming the field and showing the value.
   */
  public static java.math.BigDecimal seconds(com.fasterxml.jackson.databind.JsonNode obj, String field) throws Bad {
    com.fasterxml.jackson.databind.JsonNode v = obj.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < 0) {
      throw new Bad(field + ": " + (v.isTextual() ? quote(v.asText()) : v.toString()) + " is not a time in seconds");
    }
    return v.decimalValue();
  }

  /** Seconds (as tools write them) to whole nanoseconds. */
  public static long secondsToNs(double s) {
    return Math.round(s * 1e9);
  }

  /** Milliseconds to whole nanoseconds. */
  public static long msToNs(double ms) {
    return Math.round(ms * 1e6);
  }
}
