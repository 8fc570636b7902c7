package dev.tokentime.formats.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A record as Fluent Bit's stdout output prints it (msgpack-c's {@code msgpack_object_print}):
 * {@code {"time"=>"2025-…Z", "stream"=>"stdout", "log"=>"…", "kubernetes"=>{"pod_name"=>"…"}}}, then
 * the {@code ]} that closes the event. It looks like a Ruby hash but its strings are printed as
 * they are, quotes and all, unescaped ({@code "log"=>"… "GET / HTTP/1.1" 200 …"}), so a string ends
 * at the first quote that is followed by what can come after a value: {@code , "key"=>}, or a
 * closing brace or bracket that is itself so followed (or ends the text). A string the text ends
 * in (its value ended in a newline, printed as one: the rest of the record is on the next line) is
 * kept up to there and ends the record.
 */
final class MsgpackPrint {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final java.util.regex.Pattern INTEGER = java.util.regex.Pattern.compile("-?\\d+");
  private static final java.util.regex.Pattern FLOAT = java.util.regex.Pattern.compile("-?\\d+\\.\\d+(?:[eE][+-]?\\d+)?");

  private final String s;
  private int i;
  /** The text ended inside a string: what was read so far is the record. */
  private boolean cut;

  private MsgpackPrint(String s, int from) {
    this.s = s;
    this.i = from;
  }

  /** The record at {@code from} as a JSON object, or null when the text is no such record. */
  static ObjectNode record(String text, int from) {
    if (from >= text.length() || text.charAt(from) != '{') {
      return null;
    }
    MsgpackPrint p = new MsgpackPrint(text, from);
    try {
      ObjectNode node = p.map();
      if (node == null) {
        return null;
      }
      if (!p.cut) {
        // the event's closing bracket (and nothing else) after the record
        if (p.i < text.length() && text.charAt(p.i) == ']') {
          p.i++;
        }
        if (!text.substring(p.i).isBlank()) {
          return null;
        }
      }
      return node;
    } catch (IndexOutOfBoundsException | NumberFormatException e) {
      return null;
    }
  }

  private ObjectNode map() {
    ObjectNode node = NODES.objectNode();
    i++; // {
    if (peek('}')) {
      i++;
      return node;
    }
    while (true) {
      if (!peek('"')) {
        return null;
      }
      int arrow = s.indexOf("\"=>", i + 1);
      if (arrow < 0) {
        return null;
      }
      String key = s.substring(i + 1, arrow);
      i = arrow + 3;
      JsonNode value = value();
      if (value == null) {
        return null;
      }
      node.set(key, value);
      if (cut) {
        return node;
      }
      if (peek('}')) {
        i++;
        return node;
      }
      if (!s.startsWith(", ", i)) {
        return null;
      }
      i += 2;
    }
  }

  private ArrayNode array() {
    ArrayNode node = NODES.arrayNode();
    i++; // [
    if (peek(']')) {
      i++;
      return node;
    }
    while (true) {
      JsonNode value = value();
      if (value == null) {
        return null;
      }
      node.add(value);
      if (cut) {
        return node;
      }
      if (peek(']')) {
        i++;
        return node;
      }
      if (!s.startsWith(", ", i)) {
        return null;
      }
      i += 2;
    }
  }

  private JsonNode value() {
    if (i >= s.length()) {
      return null;
    }
    char c = s.charAt(i);
    if (c == '"') {
      return string();
    }
    if (c == '{') {
      return map();
    }
    if (c == '[') {
      return array();
    }
    int start = i;
    while (i < s.length() && ",}] ".indexOf(s.charAt(i)) < 0) {
      i++;
    }
    String word = s.substring(start, i);
    return switch (word) {
      case "nil" -> NODES.nullNode();
      case "true" -> NODES.booleanNode(true);
      case "false" -> NODES.booleanNode(false);
      default -> INTEGER.matcher(word).matches() ? NODES.numberNode(new java.math.BigInteger(word))
          : FLOAT.matcher(word).matches() ? NODES.numberNode(Double.parseDouble(word)) : null;
    };
  }

  private JsonNode string() {
    int open = i;
    for (int q = s.indexOf('"', open + 1); q >= 0; q = s.indexOf('"', q + 1)) {
      if (endsValue(q + 1)) {
        i = q + 1;
        return NODES.textNode(s.substring(open + 1, q));
      }
    }
    cut = true;
    i = s.length();
    return NODES.textNode(s.substring(open + 1));
  }

  /** Whether what follows a closing quote at {@code at} is what follows a value. */
  private boolean endsValue(int at) {
    boolean closed = false;
    while (true) {
      if (at >= s.length()) {
        // the record's end: a quote that ends the text is the line's own (the rest of its record
        // is on the next line)
        return closed;
      }
      char c = s.charAt(at);
      if (c == '}' || c == ']') {
        at++;
        closed = true;
        continue;
      }
      if (!s.startsWith(", ", at)) {
        return false;
      }
      // the next key of a map, or the next item of an array (a string, a map, an array)
      int next = at + 2;
      if (next < s.length() && (s.charAt(next) == '{' || s.charAt(next) == '[')) {
        return true;
      }
      if (next >= s.length() || s.charAt(next) != '"') {
        return false;
      }
      int close = s.indexOf('"', next + 1);
      int space = s.indexOf(' ', next);
      return close > 0 && s.startsWith("=>", close + 1) && (space < 0 || space > close);
    }
  }

  private boolean peek(char c) {
    return i < s.length() && s.charAt(i) == c;
  }
}
