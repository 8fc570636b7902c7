package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.formats.json.ToolClocks;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * AIPerf's per-record CSV, {@code profile_export_records.csv} ({@code --records csv}, 2026): one
 * row per request, the record's metadata in fixed columns ({@code request_num}, …,
 * {@code error_code}, {@code error_message}), then one {@code "<tag> (<unit>)"} column per metric.
 * Each row is rebuilt into the record {@code profile_export.jsonl} holds and read as that is
 * ({@link AiperfJsonlFormat#record}): the two files of one run store the same requests. The CSV has
 * no error type and writes floats to 6 significant digits ({@code %.6g}).
 */
public final class AiperfRecordsCsvFormat extends NamedFormat {
  private static final String HEAD = "request_num,session_num,x_request_id,";
  private static final Set<String> WHOLE = Set.of("request_num", "session_num", "turn_index", "credit_issued_ns",
      "request_start_ns", "request_ack_ns", "request_end_ns", "cancellation_time_ns");
  private static final Pattern METRIC = Pattern.compile("(\\S+) \\((.*)\\)");
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");
  private static final Pattern PLAIN_NUMBER =
      Pattern.compile("-?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?");
  private static final Pattern JSONL = Pattern.compile("profile_export\\.jsonl(?:\\.gz|\\.zst)?");
  static final String BESIDE_JSONL = "AIPerf's per-record CSV: the same requests as profile_export.jsonl"
      + " beside it, which is read";
  private static final Pattern RAW = Pattern.compile("profile_export_raw\\.jsonl(?:\\.gz|\\.zst)?");

  /** Whether profile_export_raw.jsonl beside this file (and no JSONL) gives the chunks. */
  private final boolean chunksFromRaw;

  public AiperfRecordsCsvFormat() {
    this(false);
  }

  private AiperfRecordsCsvFormat(boolean chunksFromRaw) {
    super("aiperf-records-csv",
        "runs, requests, tokens",
        "AIPerf profile_export_records.csv: one row per request (metadata columns, then \"<tag> (<unit>)\")");
    this.chunksFromRaw = chunksFromRaw;
  }

  @Override
  public String idNamespace() {
    return chunksFromRaw ? AiperfJsonlFormat.ID_NAMESPACE : null;
  }

  @Override
  public String folderNamespace() {
    return AiperfJsonlFormat.ID_NAMESPACE;
  }

  @Override
  public InputFormat inFolder(String fileName, Set<String> folder) {
    // with the JSONL beside it the CSV is left out (leaveOut); else the raw file gives its chunks
    return folder.stream().anyMatch(n -> RAW.matcher(n).matches()) ? new AiperfRecordsCsvFormat(true) : this;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text();
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    return text.startsWith(HEAD) ? 95 : 0;
  }

  @Override
  public String leaveOut(String fileName, Set<String> folder) {
    // with the JSONL beside it the requests would be stored twice; alone it is read
    return folder.stream().anyMatch(n -> JSONL.matcher(n).matches()) ? BESIDE_JSONL : null;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    RequestRecord req = new RequestRecord();
    int clockId = sink.clock(ToolClocks.aiperf(ctx));
    String[][] header = {null};
    // a quoted cell may hold line breaks (an error message): the row goes on to the next line
    StringBuilder pending = new StringBuilder();
    long[] pendingFrom = {0};
    long[] last = {0};
    long n = TextLines.read(in, sink, "an AIPerf record row", (lineNo, text) -> {
      last[0] = lineNo;
      String line = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
      if (pending.length() > 0) {
        pending.append('\n').append(line);
        sink.otherLine(); // every line of a row but its first
        if (!balanced(pending)) {
          return null;
        }
        line = pending.toString();
        pending.setLength(0);
        return row(line, pendingFrom[0], header, req, ctx, clockId, sink, true, !chunksFromRaw);
      }
      if (line.isBlank()) {
        sink.otherLine();
        return null;
      }
      if (header[0] == null) {
        List<String> cells = cells(line);
        if (cells == null || !line.replace("\uFEFF", "").startsWith(HEAD)) {
          return "expected AIPerf's record CSV header (request_num,session_num,x_request_id,…)";
        }
        header[0] = cells.toArray(new String[0]);
        header[0][0] = header[0][0].replace("\uFEFF", "");
        sink.otherLine();
        return null;
      }
      if (!balanced(line)) {
        pending.append(line);
        pendingFrom[0] = lineNo;
        return null;
      }
      return row(line, lineNo, header, req, ctx, clockId, sink, false, !chunksFromRaw);
    });
    if (pending.length() > 0) {
      // the first line of the cut row was not yet accounted for
      sink.reject(pendingFrom[0], "cut inside a quoted cell (the file ends before the row does)", null, 0, 0);
    }
    return n;
  }

  /**
   * One row: rebuilt into a record and read. Returns a reject reason for a row read from one line;
   * a row of several lines (its later lines counted as other lines) is rejected here at its first.
   */
  private static String row(String line, long lineNo, String[][] header, RequestRecord req, ParseContext ctx,
      int clockId, RecordSink sink, boolean multiLine, boolean chunks) {
    String reason;
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    try {
      JsonNode rec = record(line, header[0]);
      AiperfJsonlFormat.record(rec, req, ctx, clockId, lineNo, sink, bytes, 0, bytes.length, chunks);
      return null;
    } catch (PeerJson.Bad e) {
      reason = e.getMessage();
    }
    if (!multiLine) {
      return reason;
    }
    sink.reject(lineNo, reason, bytes, 0, bytes.length);
    return null;
  }

  /** The row as {@code profile_export.jsonl} holds the record: {metadata, metrics, error}. */
  static JsonNode record(String line, String[] header) throws PeerJson.Bad {
    List<String> cells = cells(line);
    if (cells == null) {
      throw new PeerJson.Bad("not a CSV row (unbalanced quotes)");
    }
    if (cells.size() != header.length) {
      throw new PeerJson.Bad("row has " + cells.size() + " fields but the header has " + header.length);
    }
    ObjectNode rec = PeerJson.TREE.createObjectNode();
    ObjectNode meta = rec.putObject("metadata");
    ObjectNode metrics = rec.putObject("metrics");
    String code = "";
    String message = "";
    for (int i = 0; i < header.length; i++) {
      String col = header[i];
      String v = cells.get(i);
      if (v.isEmpty()) {
        continue;
      }
      var m = METRIC.matcher(col);
      if (col.equals("error_code")) {
        if (!INTEGER.matcher(v).matches()) {
          throw new PeerJson.Bad("error_code: expected a whole number, got " + PeerJson.quote(v));
        }
        code = v;
      } else if (col.equals("error_message")) {
        message = v;
      } else if (col.equals("was_cancelled")) {
        if (!v.equals("True") && !v.equals("False")) {
          throw new PeerJson.Bad("was_cancelled: expected True or False, got " + PeerJson.quote(v));
        }
        meta.put(col, v.equals("True"));
      } else if (WHOLE.contains(col)) {
        if (!INTEGER.matcher(v).matches() || v.length() > 19) {
          throw new PeerJson.Bad(col + ": expected a whole number, got " + PeerJson.quote(v));
        }
        meta.put(col, Long.parseLong(v));
      } else if (m.matches()) {
        ObjectNode mv = metrics.putObject(m.group(1));
        mv.put("unit", m.group(2));
        if (v.startsWith("[")) {
          // --export-per-chunk-data: Python's list, which is JSON
          try {
            mv.set("value", PeerJson.TREE.readTree(v));
          } catch (IOException e) {
            throw new PeerJson.Bad(col + ": expected a list of numbers, got " + PeerJson.quote(v));
          }
        } else if (PLAIN_NUMBER.matcher(v).matches()) {
          mv.put("value", INTEGER.matcher(v).matches() && v.length() < 19 ? (JsonNode) PeerJson.TREE.getNodeFactory()
              .numberNode(Long.parseLong(v)) : PeerJson.TREE.getNodeFactory().numberNode(Double.parseDouble(v)));
        } else {
          // Python's "%.6g" of a float writes inf and nan; neither is a figure
          throw new PeerJson.Bad(col + ": expected a number, got " + PeerJson.quote(v));
        }
      } else {
        meta.put(col, v);
      }
    }
    if (!code.isEmpty() || !message.isEmpty()) {
      ObjectNode err = rec.putObject("error");
      if (!code.isEmpty()) {
        err.put("code", Long.parseLong(code));
      }
      err.put("message", message);
    }
    return rec;
  }

  private static boolean balanced(CharSequence s) {
    int quotes = 0;
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == '"') {
        quotes++;
      }
    }
    return quotes % 2 == 0;
  }

  private static List<String> cells(String line) {
    return CsvCells.of(line);
  }
}
