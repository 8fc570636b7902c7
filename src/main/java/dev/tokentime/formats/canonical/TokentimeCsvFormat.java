package dev.tokentime.formats.canonical;

import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.TextLines;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * tokentime-csv: the canonical fields as CSV columns, named by a header row. A requests file has a
 * row per request (tokens_ns, when present, holds the timestamps separated by spaces or
 * semicolons); a tokens file has a row per token (request_id, seq, ts_ns[, n_tokens,
 * chunk_kind]); both may sit in one run's folder and meet by request_id. Rows mean exactly what
 * the same fields mean in tokentime-jsonl (docs/formats.md).
 *
 * <p>Lines are split on raw bytes first, so a row with invalid UTF-8 is rejected alone; a quoted
 * field may span lines (the record is then counted as one line, at the line where it starts).
 */
public final class TokentimeCsvFormat extends NamedFormat {
  private static final CSVFormat ROW = CSVFormat.DEFAULT.builder().setTrim(true).get();
  private static final List<String> CANONICAL_COLUMNS = List.of("ts_ns", "tokens_ns", "arrival_ns",
      "first_token_ns", "last_token_ns", "finished_ns", "scheduled_ns", "ttft_ms", "e2e_ms");

  public TokentimeCsvFormat() {
    super("tokentime-csv",
        "runs, requests, tokens",
        "tokentime's canonical CSV: a requests file and a tokens file per run, header-driven");
  }

  @Override
  public String idNamespace() {
    return CanonicalFields.ID_NAMESPACE;
  }

  @Override
  public int sniff(Sample sample) {
    List<String> lines = sample.firstLines(2);
    if (lines.isEmpty() || lines.get(0).startsWith("{")) {
      return 0;
    }
    List<String> header = headerOf(lines.get(0));
    if (header == null || !header.contains("request_id")) {
      return 0;
    }
    return header.stream().anyMatch(CANONICAL_COLUMNS::contains) ? 90 : 0;
  }

  private static List<String> headerOf(String line) {
    try (CSVParser p = CSVParser.parse(line, ROW)) {
      List<CSVRecord> r = p.getRecords();
      return r.isEmpty() ? null : r.get(0).toList();
    } catch (IOException | UncheckedIOException e) {
      return null;
    }
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    Reading r = new Reading(ctx, sink);
    LineReader reader = new LineReader(in);
    r.reader = reader;
    long lines = reader.forEach(r);
    r.finish();
    return lines;
  }

  /** The state of one file: its header and a record that spans lines. */
  private static final class Reading implements LineReader.Handler {
    private final RecordSink sink;
    private final CanonicalRecord rec;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    private List<String> header;
    /** Why no row of the file can be read (a header that names a column twice), or null. */
    private String badHeader;
    private final StringBuilder pending = new StringBuilder();
    /** Asked whether the line at hand is the file's last and has no line end. */
    private LineReader reader;
    private long pendingStart;
    private int pendingLines;

    Reading(ParseContext ctx, RecordSink sink) {
      this.sink = sink;
      this.rec = new CanonicalRecord(ctx, sink);
    }

    @Override
    public void line(long lineNo, byte[] buf, int off, int len) {
      String text;
      try {
        text = utf8.decode(ByteBuffer.wrap(buf, off, len)).toString();
      } catch (CharacterCodingException e) {
        if (pendingLines > 0) {
          rejectPending("invalid UTF-8 inside a quoted field that spans lines");
        }
        sink.reject(lineNo, "invalid UTF-8 at byte " + dev.tokentime.formats.json.JsonText.firstInvalidUtf8(buf, off, len), buf, off, len);
        return;
      }
      if (pendingLines == 0 && text.isBlank()) {
        sink.otherLine();
        return;
      }
      if (pendingLines == 0) {
        pendingStart = lineNo;
      } else {
        pending.append('\n');
      }
      pending.append(text);
      pendingLines++;
      if (quotesOpen(pending)) {
        return; // a quoted field continues on the next line
      }
      String record = pending.toString();
      int spanned = pendingLines;
      pending.setLength(0);
      pendingLines = 0;
      // a record spanning n lines counts as one record and n - 1 other lines
      for (int i = 1; i < spanned; i++) {
        sink.otherLine();
      }
      handle(pendingStart, record, buf, off, len);
    }

    private void handle(long lineNo, String record, byte[] buf, int off, int len) {
      List<String> fields;
      try (CSVParser p = CSVParser.parse(record, ROW)) {
        List<CSVRecord> rs = p.getRecords();
        fields = rs.isEmpty() ? List.of() : rs.get(0).toList();
      } catch (IOException | UncheckedIOException e) {
        sink.reject(lineNo, "not valid CSV: " + rootMessage(e), buf, off, len);
        return;
      }
      if (badHeader != null) {
        sink.reject(lineNo, badHeader, buf, off, len);
        return;
      }
      if (header == null) {
        if (!fields.contains("request_id")) {
          sink.reject(lineNo, "the header row must name a request_id column", buf, off, len);
          return;
        }
        String twice = repeated(fields);
        if (twice != null) {
          // which of the two columns a row's value is meant for cannot be known: no row is read
          sink.reject(lineNo, "the header names column " + twice + " twice", buf, off, len);
          badHeader = "not read: the header (line " + lineNo + ") names column " + twice + " twice";
          return;
        }
        header = fields;
        sink.otherLine();
        return;
      }
      if (fields.size() != header.size()) {
        sink.reject(lineNo, "row has " + fields.size() + " fields, the header has " + header.size(),
            buf, off, len);
        return;
      }
      if (reader != null && !reader.lastLineTerminated()) {
        // every writer of CSV ends each row with a line end
        sink.reject(lineNo, TextLines.CUT_LAST_ROW, buf, off, len);
        return;
      }
      rec.reset(lineNo);
      try {
        for (int i = 0; i < fields.size(); i++) {
          String v = fields.get(i);
          if (v.isEmpty()) {
            continue;
          }
          String name = header.get(i);
          if (name.equals("tokens_ns") || name.equals("tokens_n")) {
            list(name, v);
          } else {
            rec.text(name, v);
          }
        }
        rec.emit(buf, off, len);
      } catch (CanonicalRecord.BadRecord e) {
        sink.reject(lineNo, e.getMessage(), buf, off, len);
      }
    }

    private static String repeated(List<String> names) {
      var seen = new java.util.HashSet<String>();
      for (String n : names) {
        if (!n.isEmpty() && !seen.add(n)) {
          return n;
        }
      }
      return null;
    }

    private void list(String name, String v) throws CanonicalRecord.BadRecord {
      boolean ts = name.equals("tokens_ns");
      if (ts) {
        rec.tokensPresent();
      } else {
        rec.tokensNPresent();
      }
      String[] parts = v.strip().split("[\\s;|]+");
      for (int i = 0; i < parts.length; i++) {
        long x;
        try {
          x = Long.parseLong(parts[i]);
        } catch (NumberFormatException e) {
          throw new CanonicalRecord.BadRecord(name + "[" + i + "]: expected an integer"
              + (ts ? " (ns)" : "") + ", got " + CanonicalRecord.quoteShort(parts[i]));
        }
        if (ts) {
          rec.tokenTs(x);
        } else {
          rec.tokenN(x);
        }
      }
    }

    @Override
    public void tooLong(long lineNo, long length, byte[] head, int headLen) {
      if (pendingLines > 0) {
        rejectPending("a quoted field runs into an over-long line");
      }
      sink.reject(lineNo, "line of " + length + " bytes is longer than the limit of "
          + LineReader.DEFAULT_MAX_LINE_BYTES + " bytes; skipped", head, 0, headLen);
    }

    /** End of input inside a quoted field: the record is truncated. */
    void finish() {
      if (pendingLines > 0) {
        rejectPending("the file ends inside a quoted field (truncated record)");
      }
    }

    private void rejectPending(String reason) {
      byte[] b = pending.toString().getBytes(StandardCharsets.UTF_8);
      sink.reject(pendingStart, reason, b, 0, b.length);
      for (int i = 1; i < pendingLines; i++) {
        sink.otherLine();
      }
      pending.setLength(0);
      pendingLines = 0;
    }

    private static boolean quotesOpen(CharSequence s) {
      int quotes = 0;
      for (int i = 0; i < s.length(); i++) {
        if (s.charAt(i) == '"') {
          quotes++;
        }
      }
      return quotes % 2 == 1;
    }

    private static String rootMessage(Exception e) {
      Throwable t = e;
      while (t.getCause() != null) {
        t = t.getCause();
      }
      return t.getMessage();
    }
  }
}
