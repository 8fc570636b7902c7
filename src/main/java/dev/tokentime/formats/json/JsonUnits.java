package dev.tokentime.formats.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.RecordSink;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;

/**
 * Reads JSON that comes either as one document per line (a collector's file exporter, JSONL) or
 * as one document over many lines (an export saved by hand), and hands each document's parser to
 * a reader. Accounting: in the line form every line is a record, an other line or a reject; in
 * the document form the reader counts the units it finds (spans, series) as records or other,
 * and a document that breaks off is one reject (docs/formats.md says which form counts what).
 */
public final class JsonUnits {
  public static final JsonFactory JSON = JsonText.STRICT;
  public static final ObjectMapper TREE = new ObjectMapper(JSON);

  /** Reads one document; returns how many units it accounted for (document form only). */
  public interface DocumentReader {
    /**
     * Reads the document at the parser's first token.
     *
     * @param line the line number, or 0 in the document form
     * @return in the line form, whether the line produced rows; ignored in the document form
     */
    boolean read(JsonParser p, long line) throws IOException, BadUnit;

    /** Whether the sink already rejected the last line itself (a duplicate id). */
    default boolean sinkRejected() {
      return false;
    }
  }

  /** A unit that cannot be used; the message is the reject reason. */
  public static final class BadUnit extends Exception {
    public BadUnit(String reason) {
      super(reason, null, false, false);
    }
  }

  private JsonUnits() {}

  /**
   * Reads the stream in the form its start shows: one document per line when the first line is a
   * whole JSON value, else one document. Returns the units read (lines, or the reader's units).
   */
  public static long read(InputStream in, RecordSink sink, DocumentReader reader, UnitCounter counter)
      throws IOException {
    PushbackInputStream pin = new PushbackInputStream(in, 1 << 16);
    byte[] head = pin.readNBytes(1 << 16);
    pin.unread(head);
    if (firstLineIsWholeValue(head)) {
      return readLines(pin, sink, reader);
    }
    return readDocument(pin, sink, reader, counter);
  }

  /** Counts the units of the document form. */
  public static final class UnitCounter {
    public long units;
  }

  private static long readLines(InputStream in, RecordSink sink, DocumentReader reader) throws IOException {
    return new LineReader(in).forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) throws IOException {
        if (JsonText.isBlank(buf, off, len)) {
          sink.otherLine();
          return;
        }
        try (JsonParser p = JSON.createParser(buf, off, len)) {
          p.nextToken();
          boolean rows = reader.read(p, lineNo);
          if (p.nextToken() != null) {
            throw new BadUnit("more than one JSON value on the line");
          }
          if (reader.sinkRejected()) {
            return; // the sink counted the line as a reject
          }
          if (rows) {
            sink.record();
          } else {
            sink.otherLine();
          }
        } catch (BadUnit e) {
          sink.reject(lineNo, e.getMessage(), buf, off, len);
        } catch (JsonEOFException e) {
          sink.reject(lineNo, "truncated JSON: the line ends inside the document", buf, off, len);
        } catch (StreamReadException e) {
          sink.reject(lineNo, reason(e), buf, off, len);
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
          // nesting, number, string or name beyond Jackson's limits: this line, not the file
          sink.reject(lineNo, "JSON beyond a parser limit: " + e.getOriginalMessage(), buf, off, len);
        }
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        sink.reject(lineNo, "line of " + length + " bytes is longer than the limit of "
            + LineReader.DEFAULT_MAX_LINE_BYTES + " bytes; skipped", head, 0, headLen);
      }
    });
  }

  private static long readDocument(InputStream in, RecordSink sink, DocumentReader reader,
      UnitCounter counter) throws IOException {
    try (JsonParser p = JSON.createParser(in)) {
      try {
        JsonToken t = p.nextToken();
        while (t != null) {
          reader.read(p, 0);
          t = p.nextToken();
        }
      } catch (BadUnit e) {
        counter.units++;
        sink.reject(p.currentLocation().getLineNr(), e.getMessage() + " (the rest of the document is not read)",
            null, 0, 0);
      } catch (JsonEOFException e) {
        counter.units++;
        sink.reject(e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
            "truncated JSON: the document ends early; the units before it were read", null, 0, 0);
      } catch (StreamReadException e) {
        counter.units++;
        sink.reject(e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
            reason(e) + "; the units before it were read", null, 0, 0);
      } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
        counter.units++;
        sink.reject(p.currentLocation().getLineNr(), "JSON beyond a parser limit: "
            + e.getOriginalMessage() + "; the units before it were read", null, 0, 0);
      }
    }
    return counter.units;
  }

  static String reason(StreamReadException e) {
    String m = e.getOriginalMessage();
    if (m == null) {
      return "not valid JSON";
    }
    String s = JsonText.firstLine(m);
    if (s.startsWith("Invalid UTF-8")) {
      return "invalid UTF-8: " + s;
    }
    return "not valid JSON: " + s;
  }

  /** Whether the first non-blank line parses as one whole JSON value. */
  static boolean firstLineIsWholeValue(byte[] head) {
    int start = 0;
    while (start < head.length && (head[start] == ' ' || head[start] == '\n' || head[start] == '\r'
        || head[start] == '\t')) {
      start++;
    }
    int end = start;
    while (end < head.length && head[end] != '\n') {
      end++;
    }
    if (end == start) {
      return false;
    }
    try (JsonParser p = JSON.createParser(head, start, end - start)) {
      if (p.nextToken() == null) {
        return false;
      }
      p.skipChildren();
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
