package dev.tokentime.formats.canonical;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.formats.json.JsonText;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * tokentime-jsonl: one JSON object per line, either a request (with an optional tokens_ns array of
 * per-token timestamps) or one token ({@code request_id, seq, ts_ns}). See docs/formats.md.
 */
public final class TokentimeJsonlFormat extends NamedFormat {
  private static final JsonFactory JSON = JsonText.STRICT;
  private static final ObjectMapper TREE = new ObjectMapper(JSON);

  /** Whether tokens_ns arrays go through TokensArrayScan (off only in tests, to compare the paths). */
  private final boolean scanTokenArrays;

  public TokentimeJsonlFormat() {
    this(true);
  }

  TokentimeJsonlFormat(boolean scanTokenArrays) {
    super("tokentime-jsonl",
        "runs, requests, tokens, steps, engine_stats, engine_events",
        "tokentime's canonical JSONL: one request per line (tokens_ns array) or one token per line");
    this.scanTokenArrays = scanTokenArrays;
  }

  @Override
  public String idNamespace() {
    return CanonicalFields.ID_NAMESPACE;
  }

  @Override
  public int sniff(Sample sample) {
    List<String> lines = sample.firstLines(5);
    if (lines.isEmpty() || !lines.get(0).startsWith("{")) {
      return 0;
    }
    String first = lines.get(0);
    if (first.matches("\\{\\s*\"table\"\\s*:\\s*\"(steps|engine_stats|engine_events)\".*")) {
      return 90;
    }
    if (!first.contains("\"request_id\"")) {
      return 0;
    }
    for (String key : new String[] {"\"tokens_ns\"", "\"ts_ns\"", "\"arrival_ns\"",
        "\"first_token_ns\"", "\"finished_ns\"", "\"last_token_ns\"", "\"scheduled_ns\""}) {
      if (first.contains(key)) {
        return 90;
      }
    }
    return 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    CanonicalRecord rec = new CanonicalRecord(ctx, sink);
    CanonicalTableLine tableLine = new CanonicalTableLine(ctx, sink);
    TokensArrayScan scan = scanTokenArrays ? new TokensArrayScan() : null;
    LineReader reader = new LineReader(in);
    return reader.forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) throws IOException {
        if (JsonText.isBlank(buf, off, len)) {
          sink.otherLine();
          return;
        }
        rec.reset(lineNo);
        try {
          if (startsWithTableField(buf, off, len)) {
            int bad = JsonText.firstInvalidUtf8(buf, off, len);
            if (bad > 0) {
              throw new CanonicalRecord.BadRecord("invalid UTF-8 at byte " + bad);
            }
            tableLine.emit(lineNo, TREE.readTree(JSON.createParser(buf, off, len)));
            return;
          }
          if (!readScanned(scan, buf, off, len, rec)) {
            rec.reset(lineNo);
            readObject(buf, off, len, rec, null);
          }
          rec.emit(buf, off, len);
        } catch (CanonicalRecord.BadRecord e) {
          sink.reject(lineNo, e.getMessage(), buf, off, len);
        } catch (JsonEOFException e) {
          sink.reject(lineNo, "truncated JSON: the line ends inside the record", buf, off, len);
        } catch (InputCoercionException e) {
          sink.reject(lineNo, JsonText.outOfRange(e), buf, off, len);
        } catch (JsonParseException e) {
          sink.reject(lineNo, jsonReason(e), buf, off, len);
        } catch (StreamReadException e) {
          sink.reject(lineNo, "not valid JSON: " + e.getOriginalMessage(), buf, off, len);
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

  /**
   * The fast path: when the line's tokens_ns array is plain integers (TokensArrayScan), Jackson
   * reads the line with that array emptied and the scanned values stand in for it. False when the
   * line is short (a few timestamps at most: Jackson alone is as fast), is not like that, or
   * anything goes wrong on the way (the record is then half filled: the caller resets it and
   * reads the original line, so rejects and their reasons are the slow path's).
   */
  static boolean readScanned(TokensArrayScan scan, byte[] buf, int off, int len, CanonicalRecord rec) {
    if (scan == null || len < TokensArrayScan.MIN_LINE || !scan.scan(buf, off, len)) {
      return false;
    }
    try {
      return readObject(scan.emptiedLine(), 0, scan.emptiedLength(), rec, scan);
    } catch (IOException | CanonicalRecord.BadRecord | RuntimeException e) {
      return false;
    }
  }

  /**
   * Reads one JSON object into the record; field syntax only, meaning is the record's job. With
   * {@code scanned}, the line is one whose tokens_ns array was emptied by it: false when Jackson did
   * not find that array where the scan did (the key matched elsewhere), so the values were not used.
   */
  static boolean readObject(byte[] buf, int off, int len, CanonicalRecord rec, TokensArrayScan scanned)
      throws IOException, CanonicalRecord.BadRecord {
    boolean used = false;
    int bad = JsonText.firstInvalidUtf8(buf, off, len);
    if (bad > 0) {
      throw new CanonicalRecord.BadRecord("invalid UTF-8 at byte " + bad);
    }
    try (JsonParser p = JSON.createParser(buf, off, len)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new CanonicalRecord.BadRecord("not a JSON object");
      }
      JsonToken t;
      String[] seen = rec.seenFields();
      int nSeen = 0;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        if (nSeen == seen.length) {
          seen = rec.growSeenFields();
        }
        if (repeated(seen, nSeen, field)) {
          // a JSON reader keeps one of the two values, and which differs between readers
          // (Python's json and Jackson the last, others the first): neither is the record's
          throw new CanonicalRecord.BadRecord("field " + field + " appears twice");
        }
        seen[nSeen++] = field;
        JsonToken v = p.nextToken();
        switch (v) {
          case VALUE_NUMBER_INT -> rec.integer(field, p.getLongValue());
          case VALUE_NUMBER_FLOAT -> rec.number(field, p.getDoubleValue());
          case VALUE_STRING -> rec.text(field, p.getText());
          case VALUE_NULL -> rec.nullValue(field);
          case VALUE_TRUE, VALUE_FALSE -> rec.text(field, p.getText());
          case START_ARRAY -> {
            if (field.equals("tokens_ns")) {
              if (scanned != null && !used && p.currentTokenLocation().getByteOffset() == scanned.arrayOffset()) {
                if (p.nextToken() != JsonToken.END_ARRAY) {
                  return false;
                }
                rec.tokenTimestamps(scanned.values(), scanned.count());
                used = true;
              } else {
                readLongs(p, rec, true);
              }
            } else if (field.equals("tokens_n")) {
              readLongs(p, rec, false);
            } else {
              rec.json(field, TREE.readTree(p).toString());
            }
          }
          case START_OBJECT -> rec.json(field, TREE.readTree(p).toString());
          default -> throw new CanonicalRecord.BadRecord("unexpected JSON token " + v);
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw new CanonicalRecord.BadRecord("not a JSON object");
      }
      if (p.nextToken() != null) {
        throw new CanonicalRecord.BadRecord("more than one JSON value on the line");
      }
    }
    return scanned == null || used;
  }

  /**
   * Whether the line's object already had this field. Jackson interns field names, so the same
   * name is almost always the same String; equals covers the rest. A handful of fields per line:
   * a scan is cheaper than a set.
   */
  private static boolean repeated(String[] seen, int n, String field) {
    for (int i = 0; i < n; i++) {
      String s = seen[i];
      if (s == field || (s.hashCode() == field.hashCode() && s.equals(field))) {
        return true;
      }
    }
    return false;
  }

  private static void readLongs(JsonParser p, CanonicalRecord rec, boolean timestamps)
      throws IOException, CanonicalRecord.BadRecord {
    if (timestamps) {
      rec.tokensPresent();
    } else {
      rec.tokensNPresent();
    }
    String field = timestamps ? "tokens_ns" : "tokens_n";
    int i = 0;
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t != JsonToken.VALUE_NUMBER_INT) {
        throw new CanonicalRecord.BadRecord(field + "[" + i + "]: expected an integer"
            + (timestamps ? " (ns)" : "") + ", got " + describe(p, t));
      }
      if (timestamps) {
        rec.tokenTs(p.getLongValue());
      } else {
        rec.tokenN(p.getLongValue());
      }
      i++;
    }
  }

  private static String describe(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case VALUE_STRING -> CanonicalRecord.quoteShort(p.getText());
      case VALUE_NUMBER_FLOAT -> p.getText();
      case START_ARRAY -> "an array";
      case START_OBJECT -> "an object";
      default -> p.getText();
    };
  }

  static String jsonReason(JsonParseException e) {
    String m = e.getOriginalMessage();
    if (m == null) {
      return "not valid JSON";
    }
    if (m.startsWith("Invalid UTF-8")) {
      return "invalid UTF-8: " + JsonText.firstLine(m);
    }
    return "not valid JSON: " + JsonText.withoutParserAdvice(JsonText.firstLine(m));
  }

  private static final byte[] TABLE_FIELD = "\"table\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** A line for another table starts with its "table" field: {"table":"steps", ...}. */
  static boolean startsWithTableField(byte[] b, int off, int len) {
    int i = off;
    int end = off + len;
    while (i < end && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    if (i >= end || b[i] != '{') {
      return false;
    }
    i++;
    while (i < end && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    if (end - i < TABLE_FIELD.length) {
      return false;
    }
    for (int k = 0; k < TABLE_FIELD.length; k++) {
      if (b[i + k] != TABLE_FIELD[k]) {
        return false;
      }
    }
    return true;
  }
}
