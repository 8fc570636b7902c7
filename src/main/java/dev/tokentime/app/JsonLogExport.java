package dev.tokentime.app;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A server log downloaded from a log platform as one JSON document: {@code aws logs
 * get-log-events} and {@code filter-log-events} ({@code {"events": [{"timestamp": <epoch ms>,
 * "message": …, "logStreamName": …}], "nextForwardToken": …}}), Logs Insights' {@code aws logs
 * get-query-results} ({@code {"results": [[{"field": "@timestamp", "value": …}, …]]}}), and an
 * array of entries ({@code gcloud logging read --format=json}: {@code textPayload}, {@code
 * timestamp}, {@code resource.labels.pod_name}; Azure's, Datadog's or Kibana's JSON downloads with
 * the column names {@link CsvLogExport} knows). A container of log lines, undone before any
 * format sees the file, as the CSV downloads are: read as it is, a document of events was
 * "cannot tell the format".
 *
 * <p>Each event becomes the line {@link CsvLogExport} gives a record: its time as RFC 3339, its
 * stream or pod as {@code [pod/NAME]}, its message. The lines given are the document's lines: an
 * event's line is given at the line its object starts on, the lines around it (the document's
 * brackets, the event's other fields) blank, so a reject names the line of its event. In a
 * document written on one line (or events sharing a line) the events are given one a line, in
 * order, after it. An event with no message is given as its JSON on one line, for the formats to
 * read or name. A document that ends inside an event (a download cut short) or stops being JSON
 * is said once, like a cut gzip: the events before it are read.
 */
public final class JsonLogExport extends InputStream {
  /** How far the start of a file is looked at for a document of log events. */
  private static final int HEAD_BYTES = 1 << 16;
  private static final JsonFactory JSON = JsonFactory.builder()
      // a message may be long (a prompt logged whole); one over this is a broken document
      .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(64 << 20).build())
      // the file's stream stays open at the document's end: its content hash reads on to the end
      .disable(com.fasterxml.jackson.core.StreamReadFeature.AUTO_CLOSE_SOURCE)
      .build();
  private static final ObjectMapper MAPPER = new ObjectMapper(JSON);
  private static final Pattern NOT_IN_NAME = Pattern.compile("[\\s\\]]");

  /** The document's shapes: where its events are. */
  enum Shape {
    /** {"events": [ {…}, … ]}: CloudWatch's get-log-events and filter-log-events. */
    EVENTS,
    /** {"results": [ [ {"field": …, "value": …}, … ], … ]}: Logs Insights' get-query-results. */
    INSIGHTS,
    /** [ {…}, … ]: gcloud's, and other platforms' arrays of entries. */
    ARRAY
  }

  /**
   * {@code in} (a file's content from its first byte, decompressed) as the lines of its events
   * when it is a log platform's JSON document of them, else as it is; {@code onCut} hears of a
   * document cut short or broken. The CLI's ingest and the Spark job read files through it alike.
   */
  public static InputStream undo(InputStream in, Consumer<String> onCut) throws IOException {
    PushbackInputStream check = new PushbackInputStream(in, HEAD_BYTES);
    byte[] head = check.readNBytes(HEAD_BYTES);
    check.unread(head);
    Shape shape = shape(head);
    if (shape == null) {
      return check;
    }
    check.skipNBytes(OpenedInput.utf8BomLength(head));
    return new JsonLogExport(check, shape, onCut);
  }

  /** The shape of a document of log events that {@code head} starts, or null for anything else. */
  static Shape shape(byte[] head) {
    int i = OpenedInput.utf8BomLength(head);
    while (i < head.length && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) {
      i++;
    }
    if (i >= head.length || head[i] != '{' && head[i] != '[') {
      return null;
    }
    try (JsonParser p = JSON.createParser(head, i, head.length - i)) {
      JsonToken root = p.nextToken();
      if (root == JsonToken.START_ARRAY) {
        return p.nextToken() == JsonToken.START_OBJECT && isEvent(p.readValueAsTree()) ? Shape.ARRAY : null;
      }
      // the root object's fields, in order, up to the first array of events
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (value == JsonToken.START_ARRAY && (name.equals("events") || name.equals("results"))) {
          JsonToken first = p.nextToken();
          if (name.equals("events") && first == JsonToken.START_OBJECT) {
            return isEvent(p.readValueAsTree()) ? Shape.EVENTS : null;
          }
          if (name.equals("results") && first == JsonToken.START_ARRAY) {
            return isEvent(insightsRow(p.readValueAsTree())) ? Shape.INSIGHTS : null;
          }
          return null;
        }
        p.skipChildren();
      }
    } catch (IOException | RuntimeException e) {
      return null; // not JSON, or its first event is longer than the look: read as it is
    }
    return null;
  }

  /**
   * An entry of a log platform: a message and a time under the names the CSV downloads use, and
   * no field of measured data (a tool's document of requests may have a "message" of its own).
   */
  static boolean isEvent(Object tree) {
    if (!(tree instanceof ObjectNode o)) {
      return false;
    }
    for (java.util.Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
      String n = it.next();
      if (n.equals("request_id") || n.endsWith("_ns") || n.equals("seq")) {
        return false;
      }
    }
    return find(o, CsvLogExport.MESSAGE) != null && find(o, CsvLogExport.TIME) != null;
  }

  /** A Logs Insights row ([{"field": "@timestamp", "value": …}, …]) as one object. */
  static ObjectNode insightsRow(Object tree) {
    ObjectNode o = MAPPER.createObjectNode();
    if (tree instanceof JsonNode row && row.isArray()) {
      for (JsonNode cell : row) {
        if (cell.path("field").isTextual() && cell.has("value")) {
          o.set(cell.get("field").asText(), cell.get("value"));
        }
      }
    }
    return o;
  }

  /** The first of {@code names} (a dotted name is a path, or a key with dots) with a scalar value. */
  private static JsonNode find(ObjectNode o, List<String> names) {
    for (String n : names) {
      JsonNode v = o.get(n);
      if (v == null && n.indexOf('.') > 0) {
        v = o.at("/" + n.replace(".", "/"));
      }
      if (v != null && v.isValueNode() && !v.isNull()) {
        return v;
      }
    }
    return null;
  }

  private final JsonParser parser;
  private final Shape shape;
  private final Consumer<String> onCut;
  /** Inside the root object's array of events (or the root array); false between documents. */
  private boolean inEvents;
  private boolean done;
  /** Lines given so far. */
  private long given;
  private byte[] pending;
  private int at;

  private JsonLogExport(InputStream in, Shape shape, Consumer<String> onCut) throws IOException {
    this.parser = JSON.createParser(in);
    this.shape = shape;
    this.onCut = onCut;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (pending == null || at >= pending.length) {
      if (done || !next()) {
        done = true;
        return -1;
      }
    }
    int n = Math.min(len, pending.length - at);
    System.arraycopy(pending, at, b, off, n);
    at += n;
    return n;
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }

  /** The next event's lines (or the blank lines up to the document's end); false at the end. */
  private boolean next() throws IOException {
    long from = -1;
    try {
      while (true) {
        JsonToken t = parser.nextToken();
        if (t == null) {
          return false;
        }
        if (!inEvents) {
          inEvents = enterEvents(t);
          if (!inEvents) {
            return blanksTo(parser.currentLocation().getLineNr());
          }
          continue;
        }
        if (t == JsonToken.END_ARRAY) {
          inEvents = false;
          if (shape != Shape.ARRAY) {
            skipToRootEnd();
          }
          return blanksTo(parser.currentLocation().getLineNr());
        }
        if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
          continue; // a number or a string among the events: no event
        }
        from = parser.currentTokenLocation().getLineNr();
        JsonNode tree = parser.readValueAsTree();
        long to = parser.currentTokenLocation().getLineNr();
        give(from, to, line(shape == Shape.INSIGHTS ? insightsRow(tree) : tree, tree));
        return true;
      }
    } catch (IOException | RuntimeException e) {
      long line = from > 0 ? from : Math.max(1, parser.currentLocation().getLineNr());
      // where the parser stopped, for a document that stops being JSON (an error page appended)
      long at = e instanceof com.fasterxml.jackson.core.JsonProcessingException j && j.getLocation() != null
          ? Math.max(1, j.getLocation().getLineNr()) : line;
      String message = String.valueOf(e instanceof com.fasterxml.jackson.core.JsonProcessingException j
          ? j.getOriginalMessage() : e.getMessage());
      String why = message.contains("end-of-input")
          ? "the JSON export ends inside its event from line " + line + ", which is cut"
          : "the JSON export stops being JSON at line " + at + " (" + message.lines().findFirst().orElse("") + ")";
      onCut.accept(why);
      return false;
    }
  }

  /** At a root value's first token: whether its events follow (the root array, or the root object's array of events). */
  private boolean enterEvents(JsonToken t) throws IOException {
    if (t == JsonToken.START_ARRAY) {
      if (shape == Shape.ARRAY) {
        return true;
      }
      parser.skipChildren();
      return false;
    }
    if (t != JsonToken.START_OBJECT) {
      return false;
    }
    String events = shape == Shape.INSIGHTS ? "results" : "events";
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      if (name.equals(events) && value == JsonToken.START_ARRAY) {
        return true;
      }
      parser.skipChildren();
    }
    return false; // a root object with no events (the last page of a pagination)
  }

  /** After the array of events: the rest of the root object (its tokens and statistics). */
  private void skipToRootEnd() throws IOException {
    JsonToken t;
    while ((t = parser.nextToken()) == JsonToken.FIELD_NAME) {
      parser.nextToken();
      parser.skipChildren();
    }
    if (t != JsonToken.END_OBJECT) {
      throw new IOException("Unexpected end-of-input after the events");
    }
  }

  /** One event as a line: its time, its stream or pod, and its message; its JSON when it has no message. */
  private static String line(JsonNode event, JsonNode asWritten) {
    if (!(event instanceof ObjectNode o)) {
      return asWritten.toString();
    }
    JsonNode message = find(o, CsvLogExport.MESSAGE);
    if (message == null) {
      return asWritten.toString();
    }
    String name = null;
    JsonNode time = null;
    for (String n : CsvLogExport.TIME) {
      JsonNode v = find(o, List.of(n));
      if (v != null) {
        name = n;
        time = v;
        break;
      }
    }
    JsonNode who = find(o, CsvLogExport.WHO);
    StringBuilder line = new StringBuilder();
    String rfc3339 = time == null ? null : CsvLogExport.rfc3339(time.asText(), name);
    if (rfc3339 != null) {
      line.append(rfc3339).append(' ');
    }
    String w = who == null ? "" : who.asText().strip();
    if (!w.isEmpty()) {
      line.append("[pod/").append(NOT_IN_NAME.matcher(w).replaceAll("_")).append("] ");
    }
    String m = message.asText();
    return line.append(m.endsWith("\n") ? m.substring(0, m.length() - 1) : m).toString();
  }

  /** An event's line given at its first line, and blank lines through its last. */
  private void give(long from, long to, String text) {
    StringBuilder out = new StringBuilder();
    while (given + 1 < from) {
      out.append('\n');
      given++;
    }
    out.append(text).append('\n');
    given += 1 + text.chars().filter(c -> c == '\n').count();
    while (given < to) {
      out.append('\n');
      given++;
    }
    pending = out.toString().getBytes(StandardCharsets.UTF_8);
    at = 0;
  }

  private boolean blanksTo(long line) {
    if (given >= line) {
      pending = new byte[0];
      at = 0;
      return true;
    }
    pending = "\n".repeat((int) Math.min(Integer.MAX_VALUE - 8, line - given)).getBytes(StandardCharsets.US_ASCII);
    given = line;
    at = 0;
    return true;
  }
}
