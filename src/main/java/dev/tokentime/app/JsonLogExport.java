package dev.tokentime.app;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
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
 * the column names {@link CsvLogExport} knows), and a JSON:API page of them ({@code {"data":
 * [{"type": "log", "attributes": {"timestamp", "message", "host", …}}]}}: Datadog's logs search,
 * Fly.io's logs API). A container of log lines, undone before any
 * format sees the file, as the CSV downloads are: read as it is, a document of events was
 * "cannot tell the format". Pages of a pagination appended to one file (an empty first page
 * included) are read in turn.
 *
 * <p>Each event becomes the line {@link CsvLogExport} gives a record: its time as RFC 3339, its
 * stream or pod as {@code [pod/NAME]}, its message. The lines given are the document's lines: an
 * event's line is given at the line its object starts on, the lines around it (the document's
 * brackets, the event's other fields) blank, so a reject names the line of its event. A message's
 * own newlines take the lines its event spans; more than those are folded into its last one as
 * {@code \n}, as the document writes them. In a document written on one line (or events sharing
 * a line) the events are given one a line, in order, after it. An event with no message is a
 * blank line. Events are read as a stream, field by field: only the few values a line needs are
 * kept, whatever an event holds besides. A document that ends before it closes (a download cut
 * short) or stops being JSON is said once, like a cut gzip: the events before it are read.
 */
public final class JsonLogExport extends GivenLines {
  /** How far the start of a file is looked at for a document of log events. */
  private static final int HEAD_BYTES = 1 << 16;
  /** The longest value read: a longer one (a prompt of 16 M characters) is no log line. */
  static final int MAX_VALUE_CHARS = 16 << 20;
  private static final JsonFactory JSON = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_VALUE_CHARS).build())
      // the file's stream stays open at the document's end: its content hash reads on to the end
      .disable(com.fasterxml.jackson.core.StreamReadFeature.AUTO_CLOSE_SOURCE)
      .build();
  private static final Pattern NOT_IN_NAME = Pattern.compile("[\\s\\]]");

  /** Every name an event's line may take a value from (a dotted name is a path into it). */
  private static final java.util.Set<String> WANTED = new java.util.HashSet<>();

  static {
    WANTED.addAll(CsvLogExport.MESSAGE);
    WANTED.addAll(CsvLogExport.TIME);
    WANTED.addAll(CsvLogExport.WHO);
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
    if (!isExport(head)) {
      return check;
    }
    check.skipNBytes(OpenedInput.utf8BomLength(head));
    return new JsonLogExport(check, onCut);
  }

  /**
   * Whether {@code head} starts a document of log events: its first event (after any empty
   * pages) names a message and a time under the CSV downloads' names, and no field of measured
   * data (a tool's document of requests may have a "message" of its own). A first event longer
   * than the head is judged by the names it shows in it.
   */
  static boolean isExport(byte[] head) {
    int i = OpenedInput.utf8BomLength(head);
    while (i < head.length && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) {
      i++;
    }
    if (i >= head.length || head[i] != '{' && head[i] != '[') {
      return false;
    }
    java.util.Set<String> names = new java.util.HashSet<>();
    try (JsonParser p = JSON.createParser(head, i, head.length - i)) {
      JsonToken root;
      while ((root = p.nextToken()) != null) {
        Boolean found = firstEvent(p, root, names);
        if (found != null) {
          return found && isEvent(names);
        }
      }
    } catch (IOException | RuntimeException e) {
      // the head ends inside the first event (a long prompt): judged by the names it showed
      return !names.isEmpty() && isEvent(names);
    }
    return false;
  }

  /**
   * At a root value's first token: the names of its first event into {@code names} and true;
   * false when it is no document of events; null when it holds none (an empty page: look on).
   */
  private static Boolean firstEvent(JsonParser p, JsonToken root, java.util.Set<String> names) throws IOException {
    String events = eventsOf(p, root);
    if (events == null) {
      return false;
    }
    JsonToken first = p.nextToken();
    if (first == JsonToken.END_ARRAY) {
      if (root == JsonToken.START_OBJECT) {
        skipRest(p); // an empty page (a pagination's first): its tokens, then the next page
      }
      return null;
    }
    // Logs Insights' results are rows of {field, value} cells; every other shape's events are objects
    if (first != (events.equals("results") ? JsonToken.START_ARRAY : JsonToken.START_OBJECT)) {
      return false;
    }
    readEvent(p, first, names, null);
    return true;
  }

  /**
   * At a root value's first token, walks to where its events start: "[" for an array of them,
   * else the name of the object's array that holds them ({@code events}, {@code results}); null
   * for a root value that holds none (the rest of an object is then read).
   */
  private static String eventsOf(JsonParser p, JsonToken root) throws IOException {
    if (root == JsonToken.START_ARRAY) {
      return "[";
    }
    if (root != JsonToken.START_OBJECT) {
      return null;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (value == JsonToken.START_ARRAY && (name.equals("events") || name.equals("results") || name.equals("data"))) {
        return name;
      }
      p.skipChildren();
    }
    return null;
  }

  /** The rest of an object whose array of events has ended. */
  private static void skipRest(JsonParser p) throws IOException {
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      p.nextToken();
      p.skipChildren();
    }
    if (t != JsonToken.END_OBJECT) {
      throw new IOException("Unexpected end-of-input after the events");
    }
  }

  /** An entry of a log platform: a message and a time, and no field of measured data. */
  static boolean isEvent(java.util.Set<String> names) {
    for (String n : names) {
      // the entry's own fields: a structured payload's (gcloud's jsonPayload.request_id) are its log's
      if (n.indexOf('.') < 0 && (n.equals("request_id") || n.endsWith("_ns") || n.equals("seq"))) {
        return false;
      }
    }
    return CsvLogExport.MESSAGE.stream().anyMatch(names::contains) && CsvLogExport.TIME.stream().anyMatch(names::contains);
  }

  /**
   * Reads one event from its first token ({ of an entry, [ of a Logs Insights row of {"field",
   * "value"} cells) to its last, as a stream: every scalar's dotted name into {@code names} (when
   * given), the values a line needs into {@code values} (when given); arrays inside it skipped.
   */
  private static void readEvent(JsonParser p, JsonToken start, java.util.Set<String> names,
      java.util.Map<String, String> values) throws IOException {
    if (start == JsonToken.START_ARRAY) {
      JsonToken t;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        if (t == null) {
          throw new IOException("Unexpected end-of-input in an event");
        }
        if (t != JsonToken.START_OBJECT) {
          p.skipChildren();
          continue;
        }
        String field = null;
        String value = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String n = p.currentName();
          JsonToken v = p.nextToken();
          if (v.isScalarValue() && n.equals("field")) {
            field = p.getText();
          } else if (v.isScalarValue() && n.equals("value")) {
            value = v == JsonToken.VALUE_NULL ? null : p.getText();
          } else {
            p.skipChildren();
          }
        }
        if (field != null) {
          if (names != null) {
            names.add(field);
          }
          if (values != null && value != null && WANTED.contains(field)) {
            values.put(field, value);
          }
        }
      }
      return;
    }
    java.util.ArrayDeque<String> path = new java.util.ArrayDeque<>();
    while (true) {
      JsonToken t = p.nextToken();
      if (t == JsonToken.END_OBJECT) {
        if (path.isEmpty()) {
          return;
        }
        path.removeLast();
        continue;
      }
      if (t == null) {
        throw new IOException("Unexpected end-of-input in an event");
      }
      if (t != JsonToken.FIELD_NAME) {
        throw new IOException("Unexpected token " + t + " in an event");
      }
      String name = path.isEmpty() ? p.currentName() : String.join(".", path) + "." + p.currentName();
      JsonToken v = p.nextToken();
      if (v == JsonToken.START_OBJECT) {
        path.addLast(p.currentName());
      } else if (v == JsonToken.START_ARRAY) {
        p.skipChildren();
      } else {
        if (names != null) {
          names.add(name);
        }
        if (values != null && v != JsonToken.VALUE_NULL && WANTED.contains(name)) {
          values.put(name, p.getText());
        }
        // a JSON:API resource's fields under "attributes" (Datadog's logs search, Fly.io's logs
        // API: {"data": [{"id", "type": "log", "attributes": {"timestamp", "message", "host", …}}]})
        // are the entry's own
        if (name.startsWith("attributes.")) {
          String own = name.substring("attributes.".length());
          if (names != null) {
            names.add(own);
          }
          if (values != null && v != JsonToken.VALUE_NULL && WANTED.contains(own)) {
            values.putIfAbsent(own, p.getText());
          }
        }
      }
    }
  }

  private final JsonParser parser;
  private final Consumer<String> onCut;
  /** Inside a root value's array of events; false between documents. */
  private boolean inEvents;
  /** The root value being read is an object (its rest follows its events). */
  private boolean inObject;
  /** Lines given so far. */
  private long given;

  private JsonLogExport(InputStream in, Consumer<String> onCut) throws IOException {
    this.parser = JSON.createParser(in);
    this.onCut = onCut;
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }

  /** The next event's lines (or blank lines up to a document's end); false at the end. */
  @Override
  protected boolean next() throws IOException {
    long from = -1;
    try {
      while (true) {
        JsonToken t = parser.nextToken();
        if (t == null) {
          // the document's last lines (blank ones after it are lines too)
          var end = parser.currentLocation();
          return blanksTo(end.getColumnNr() <= 1 ? end.getLineNr() - 1 : end.getLineNr());
        }
        if (!inEvents) {
          inObject = t == JsonToken.START_OBJECT;
          inEvents = eventsOf(parser, t) != null;
          if (!inEvents) {
            blanksTo(parser.currentLocation().getLineNr());
            return true;
          }
          continue;
        }
        if (t == JsonToken.END_ARRAY) {
          inEvents = false;
          if (inObject) {
            skipRest(parser);
          }
          blanksTo(parser.currentLocation().getLineNr());
          return true;
        }
        if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
          continue; // a number or a string among the events: no event
        }
        from = parser.currentTokenLocation().getLineNr();
        java.util.Map<String, String> values = new java.util.HashMap<>();
        readEvent(parser, t, null, values);
        long to = parser.currentTokenLocation().getLineNr();
        give(from, to, line(values));
        return true;
      }
    } catch (IOException | RuntimeException e) {
      long line = from > 0 ? from : Math.max(1, parser.currentLocation().getLineNr());
      // where the parser stopped, for a document that stops being JSON (an error page appended)
      long where = e instanceof com.fasterxml.jackson.core.JsonProcessingException j && j.getLocation() != null
          ? Math.max(1, j.getLocation().getLineNr()) : line;
      String message = String.valueOf(e instanceof com.fasterxml.jackson.core.JsonProcessingException j
          ? j.getOriginalMessage() : e.getMessage());
      String why;
      if (e instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException) {
        // a string over MAX_VALUE_CHARS, nesting, a number or a name past the reader's limits
        why = "the JSON export goes past a limit of its reader at line " + where + " ("
            + message.replaceAll(", from `StreamReadConstraints[^`]*`", "").lines().findFirst().orElse("")
            + "): the events after it are not read";
      } else if (message.contains("end-of-input")) {
        why = from > 0 ? "the JSON export ends inside its event from line " + from + ", which is cut"
            : "the JSON export ends before its document closes (after line " + where + ")";
      } else {
        why = "the JSON export stops being JSON at line " + where + " (" + message.lines().findFirst().orElse("") + ")";
      }
      onCut.accept(why);
      return false;
    }
  }

  /** One event's line: its time, its stream or pod, and its message; blank when it has no message. */
  private static String line(java.util.Map<String, String> values) {
    String message = first(values, CsvLogExport.MESSAGE);
    if (message == null) {
      return "";
    }
    String name = null;
    String time = null;
    for (String n : CsvLogExport.TIME) {
      if (values.get(n) != null) {
        name = n;
        time = values.get(n);
        break;
      }
    }
    String who = first(values, CsvLogExport.WHO);
    StringBuilder line = new StringBuilder(message.length() + 64);
    String rfc3339 = time == null ? null : CsvLogExport.rfc3339(time, name);
    if (rfc3339 != null) {
      line.append(rfc3339).append(' ');
    }
    String w = who == null ? "" : who.strip();
    if (!w.isEmpty()) {
      line.append("[pod/").append(NOT_IN_NAME.matcher(w).replaceAll("_")).append("] ");
    }
    return line.append(message.endsWith("\n") ? message.substring(0, message.length() - 1) : message).toString();
  }

  private static String first(java.util.Map<String, String> values, List<String> names) {
    for (String n : names) {
      if (values.get(n) != null) {
        return values.get(n);
      }
    }
    return null;
  }

  /**
   * An event's line given at its first line and blank lines through its last; a message's own
   * newlines take those lines, the ones beyond them folded into the last as "\n".
   */
  private void give(long from, long to, String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    while (given + 1 < from) {
      out.append('\n');
      given++;
    }
    long room = Math.max(1, to - given); // the lines this event may take
    int nl = -1;
    for (long i = 1; i < room && (nl = text.indexOf('\n', nl + 1)) >= 0; i++) {
      // each newline within the room ends a line
    }
    int fold = room <= 1 ? 0 : nl < 0 ? text.length() : nl + 1;
    String kept = text.substring(0, fold);
    String folded = text.substring(fold);
    out.append(kept).append(folded.replace("\n", "\\n")).append('\n');
    given += 1 + kept.chars().filter(c -> c == '\n').count();
    while (given < to) {
      out.append('\n');
      given++;
    }
    give(out.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Blank lines up to {@code line}; whether there were any. */
  private boolean blanksTo(long line) {
    if (given >= line) {
      give(new byte[0]);
      return false;
    }
    give("\n".repeat((int) Math.min(Integer.MAX_VALUE - 8, line - given)).getBytes(StandardCharsets.US_ASCII));
    given = line;
    return true;
  }
}
