package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.RecordSink;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads the JSON objects of a file in any of the layouts TensorRT-LLM's endpoints and users' pollers
 * leave: one compact array (a {@code curl} of {@code /perf_metrics} or {@code /metrics}), several
 * arrays one per line (a poller appending each drained response), JSON lines, a pasted element with
 * its trailing comma, or pretty-printed arrays and objects (jq, documentation).
 *
 * <p>Counted in records: every object is one unit, wherever it sits. When each line holds whole
 * values (the first non-blank line does, and is shorter than 1 MiB), lines are parsed one by one,
 * so a broken line costs only itself; blank lines and lone brackets are other lines. Otherwise
 * (pretty-printed JSON, or a poll too big to hold as a line) the file is one stream of values read
 * with a streaming parser, one object at a time, and a syntax error ends the file there (the
 * reject says so).
 */
final class JsonRecordReader {
  /** Receives each object; it must account for it (sink.record or sink.reject), once. */
  interface Handler {
    /** {@code raw} is the object's line in line mode (for the reject excerpt), else null. */
    void object(JsonNode node, long lineNo, byte[] raw, int off, int len);
  }

  /** What a reject of a non-object says, e.g. "expected a perf-metrics object". */
  private final String expected;

  JsonRecordReader(String expected) {
    this.expected = expected;
  }

  long read(InputStream raw, RecordSink sink, Handler h) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
    return wholeLines(in) ? lines(in, sink, h) : document(in, sink, h);
  }

  /**
   * Whether the file is lines of whole values (peeks at most 1 MiB): its first non-blank line holds
   * complete values, or, when that line is cut (a file whose first record was cut off, as a tail of
   * a log), the next non-blank line starts at its first column with '{' or '[' and is whole (a
   * pretty-printed document's second line is indented or a key, never that).
   */
  static boolean wholeLines(BufferedInputStream in) throws IOException {
    int limit = 1 << 20;
    in.mark(limit + 1);
    try {
      JsonDepth depth = new JsonDepth();
      boolean seen = false;
      int line = 0;
      int first = -1; // the first character of the second non-blank line
      for (int i = 0; i < limit; i++) {
        int c = in.read();
        if (c < 0 || c == '\n') {
          if (seen) {
            if (line == 0 && !depth.balanced() && c >= 0) {
              line = 1; // the first line is cut: is the next one a whole value of its own?
              depth = new JsonDepth();
              seen = false;
              continue;
            }
            return depth.balanced() && (line == 0 || first == '{' || first == '[');
          }
          if (c < 0) {
            return line == 0; // a cut first line alone: streamed, its whole objects read
          }
          continue;
        }
        if (!seen && (c == ' ' || c == '\t' || c == '\r' || c == 0xEF || c == 0xBB || c == 0xBF)) {
          if (line == 1 && c != '\r') {
            return false; // indented: a pretty-printed document
          }
          continue;
        }
        if (!seen && line == 1) {
          first = c;
        }
        seen = true;
        depth.feed((byte) c);
      }
      return false; // a first line of more than 1 MiB: a big poll, streamed rather than held whole
    } finally {
      in.reset();
    }
  }

  private long lines(InputStream in, RecordSink sink, Handler h) throws IOException {
    long[] units = {0};
    new LineReader(in).forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) {
        int end = trimEnd(buf, off, len);
        int start = trimStart(buf, off, end);
        if (start == end || isLoneBracket(buf, start, end)) {
          sink.otherLine();
          units[0]++;
          return;
        }
        units[0] += values(lineNo, buf, start, end, off, len, sink, h);
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        units[0]++;
        sink.reject(lineNo, "line of " + length + " bytes is longer than the limit of "
            + LineReader.DEFAULT_MAX_LINE_BYTES + " bytes; skipped", head, 0, headLen);
      }
    });
    return units[0];
  }

  /** One line's values (several may follow each other); returns the units it accounted for. */
  private long values(long lineNo, byte[] buf, int start, int end, int off, int len, RecordSink sink,
      Handler h) {
    if (buf[end - 1] == ',') { // an element pasted, or appended, with its separator
      end = trimEnd(buf, start, end - 1 - start);
    }
    long units = 0;
    try (JsonParser p = PeerJson.JSON.createParser(buf, start, end - start)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        if (t != JsonToken.START_ARRAY) {
          element(p, t, lineNo, buf, off, len, sink, h);
          units++; // counted once accounted for: a break inside it is the catch's unit
          continue;
        }
        boolean any = false;
        JsonToken e;
        while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
          if (e == null) {
            throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "end of line in the array");
          }
          any = true;
          element(p, e, lineNo, buf, off, len, sink, h);
          units++;
        }
        if (!any) {
          units++;
          sink.otherLine(); // an empty poll
        }
      }
      return units;
    } catch (IOException e) {
      String reason = PeerJson.reason(e);
      sink.reject(lineNo, reason.startsWith("truncated") ? "truncated JSON: the line ends inside"
          + " the record" : reason, buf, off, len);
      return units + 1;
    }
  }

  private void element(JsonParser p, JsonToken t, long lineNo, byte[] buf, int off, int len,
      RecordSink sink, Handler h) throws IOException {
    if (t != JsonToken.START_OBJECT) {
      p.skipChildren();
      sink.reject(lineNo, expected + ", got " + describe(t), buf, off, len);
      return;
    }
    h.object(PeerJson.TREE.readTree(p), lineNo, buf, off, len);
  }

  private long document(InputStream in, RecordSink sink, Handler h) throws IOException {
    long units = 0;
    long line = 1;
    boolean pending = false; // an element counted whose outcome is not yet given
    try (JsonParser p = PeerJson.JSON.createParser(in)) {
      try {
        JsonToken t;
        while ((t = p.nextToken()) != null) {
          line = PeerJson.line(p);
          if (t == JsonToken.START_ARRAY) {
            boolean any = false;
            JsonToken e;
            while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
              if (e == null) {
                throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "end of input in the array");
              }
              any = true;
              line = PeerJson.line(p);
              units++;
              pending = true;
              documentElement(p, e, line, sink, h);
              pending = false;
            }
            if (!any) {
              units++;
              sink.otherLine();
            }
          } else {
            units++;
            pending = true;
            documentElement(p, t, line, sink, h);
            pending = false;
          }
        }
      } catch (IOException e) {
        if (!pending) {
          units++; // the break is outside an element: a unit of its own
        }
        sink.reject(Math.max(line, PeerJson.line(p)), PeerJson.reason(e)
            + "; nothing after this point could be read", null, 0, 0);
      }
    }
    return units;
  }

  private void documentElement(JsonParser p, JsonToken t, long line, RecordSink sink, Handler h)
      throws IOException {
    if (t != JsonToken.START_OBJECT) {
      p.skipChildren();
      sink.reject(line, expected + ", got " + describe(t), null, 0, 0);
      return;
    }
    h.object(PeerJson.TREE.readTree(p), line, null, 0, 0);
  }

  private static String describe(JsonToken t) {
    return switch (t) {
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NULL -> "null";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      default -> "a number";
    };
  }

  private static boolean isLoneBracket(byte[] b, int start, int end) {
    if (end - start == 1) {
      return b[start] == '[' || b[start] == ']';
    }
    return end - start == 2 && b[start] == ']' && b[start + 1] == ',';
  }

  static int trimEnd(byte[] b, int off, int len) {
    int end = off + len;
    while (end > off && (b[end - 1] == ' ' || b[end - 1] == '\t' || b[end - 1] == '\r')) {
      end--;
    }
    return end;
  }

  static int trimStart(byte[] b, int start, int end) {
    while (start < end && (b[start] == ' ' || b[start] == '\t')) {
      start++;
    }
    if (end - start >= 3 && (b[start] & 0xFF) == 0xEF && (b[start + 1] & 0xFF) == 0xBB
        && (b[start + 2] & 0xFF) == 0xBF) {
      start += 3; // a byte order mark
    }
    return start;
  }
}
