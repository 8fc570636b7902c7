package dev.tokentime.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A server log downloaded from a log platform as CSV (CloudWatch's "Download search results":
 * {@code timestamp,message} with epoch ms; Logs Insights' {@code @timestamp,@message}; GCP's
 * {@code textPayload}; Azure's {@code LogMessage}; Datadog's, Kibana's and Splunk's
 * {@code message} / {@code _raw}): a container of log lines, like gzip or UTF-16, undone before
 * any format sees the file. The CSV quotes every line holding a comma or a quote (and doubles its
 * quotes): read as it is, each stats line ended in a stray quote and was a truncated reject, an
 * access line's doubled quotes matched nothing.
 *
 * <p>Each record becomes its message, after its time as RFC 3339 (the wrapper layer's container
 * prefix: the line's finer time and the year) and its stream or pod as {@code [pod/NAME]} (the
 * line's instance), so replicas in one download stay apart. The header is its own line, and a
 * message that holds newlines keeps them: the lines read are the file's lines, numbered alike.
 */
final class CsvLogExport extends InputStream {
  /** Columns holding the logged line, by platform, in order of preference. */
  static final List<String> MESSAGE = List.of("message", "@message", "textPayload", "jsonPayload.message",
      "LogMessage", "log", "Line", "line", "_raw", "Message", "msg");
  /** Columns holding the entry's time (not the platform's receive time: receiveTimestamp is none). */
  static final List<String> TIME = List.of("timestamp", "@timestamp", "TimeGenerated", "TimeGenerated [UTC]",
      "time", "Time", "date", "Date", "_time", "Timestamp");
  /** Columns naming the stream, pod or host the line came from. */
  static final List<String> WHO = List.of("@logStream", "logStreamName", "logStream", "resource.labels.pod_name",
      "kubernetes.pod_name", "PodName", "pod_name", "pod", "host", "Host");

  /** Where the export's columns are in its header. */
  record Columns(int message, int time, String timeName, int who) {}

  /**
   * The columns of a log export, when {@code headerLine} (the file's first line) is the header of
   * one: a message column and a time column among the names above; else null.
   */
  static Columns header(String headerLine) {
    List<String> names;
    try (CSVParser p = CSVParser.parse(headerLine, CSVFormat.DEFAULT)) {
      Iterator<CSVRecord> it = p.iterator();
      if (!it.hasNext()) {
        return null;
      }
      names = it.next().toList().stream().map(String::strip).toList();
    } catch (IOException | UncheckedIOException | IllegalStateException e) {
      return null;
    }
    if (names.size() < 2) {
      return null;
    }
    int message = first(names, MESSAGE);
    int time = first(names, TIME);
    if (message < 0 || time < 0) {
      return null;
    }
    return new Columns(message, time, names.get(time), first(names, WHO));
  }

  private static int first(List<String> names, List<String> wanted) {
    for (String w : wanted) {
      int i = names.indexOf(w);
      if (i >= 0) {
        return i;
      }
    }
    return -1;
  }

  /** Commons CSV's words for a file that ends inside a quoted field, with the record's first line. */
  private static final java.util.regex.Pattern CUT =
      java.util.regex.Pattern.compile("\\(startline (\\d+)\\) EOF reached before encapsulated token finished");

  private final Columns columns;
  private final java.util.function.Consumer<String> onCut;
  private final Iterator<CSVRecord> records;
  private byte[] pending;
  private int at;

  /**
   * {@code in} from the file's first byte: the header is read again, as the first line given;
   * {@code onCut} hears of a file that ends inside a quoted field.
   */
  CsvLogExport(InputStream in, String headerLine, Columns columns, java.util.function.Consumer<String> onCut)
      throws IOException {
    this.columns = columns;
    this.onCut = onCut;
    CSVParser parser = CSVParser.parse(new InputStreamReader(in, StandardCharsets.UTF_8),
        CSVFormat.DEFAULT.builder().setSkipHeaderRecord(false).build());
    this.records = parser.iterator();
    if (records.hasNext()) {
      records.next(); // the header: given as it was written
    }
    pending = (headerLine + "\n").getBytes(StandardCharsets.UTF_8);
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
      if (!next()) {
        return -1;
      }
    }
    int n = Math.min(len, pending.length - at);
    System.arraycopy(pending, at, b, off, n);
    at += n;
    return n;
  }

  private boolean next() throws IOException {
    CSVRecord r;
    try {
      if (!records.hasNext()) {
        return false;
      }
      r = records.next();
    } catch (UncheckedIOException e) {
      java.util.regex.Matcher m = CUT.matcher(String.valueOf(e.getCause().getMessage()));
      if (!m.find()) {
        throw e.getCause();
      }
      // a quote never closed: the download was cut inside its last record, which is lost (the
      // lines before it were read); said as a damaged gzip's end is
      onCut.accept("the CSV export ends inside a quoted field: its record from line " + m.group(1) + " is cut");
      return false;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    if (r.size() <= columns.message()) {
      // a row with fewer columns than the header: its text as it stands, for the formats to name
      out.writeBytes(String.join(",", r.toList()).getBytes(StandardCharsets.UTF_8));
    } else {
      String time = columns.time() < r.size() ? rfc3339(r.get(columns.time()), columns.timeName()) : null;
      String who = columns.who() >= 0 && columns.who() < r.size() ? r.get(columns.who()).strip() : "";
      StringBuilder line = new StringBuilder();
      if (time != null) {
        line.append(time).append(' ');
      }
      if (!who.isEmpty()) {
        line.append("[pod/").append(who.replaceAll("[\\s\\]]", "_")).append("] ");
      }
      // as written: a newline in it (a shipper keeps the one it read) is one in the file too, so
      // the lines read stay the file's lines
      line.append(r.get(columns.message()));
      out.writeBytes(line.toString().getBytes(StandardCharsets.UTF_8));
    }
    out.write('\n');
    pending = out.toByteArray();
    at = 0;
    return true;
  }

  /**
   * The entry's time as RFC 3339 UTC: epoch seconds, ms, µs or ns (by their digits), an RFC 3339
   * time, or Logs Insights' "2025-05-07 01:55:24.378" (UTC, as CloudWatch writes it); null for
   * any other (a local time with no zone is not guessed).
   */
  static String rfc3339(String value, String column) {
    String v = value.strip();
    try {
      if (v.matches("\\d{10}(\\.\\d{1,9})?")) {
        return DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(0, new java.math.BigDecimal(v)
            .movePointRight(9).longValueExact()));
      }
      if (v.matches("\\d{13}|\\d{16}|\\d{19}")) {
        long n = Long.parseLong(v);
        long nanos = v.length() == 13 ? n * 1_000_000 : v.length() == 16 ? n * 1_000 : n;
        return DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(0, nanos));
      }
      if (v.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,9})?(Z|[+-]\\d\\d:\\d\\d)")) {
        return v;
      }
      if (column.equals("@timestamp") && v.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d{1,9})?")) {
        return v.replace(' ', 'T') + "Z";
      }
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
    return null;
  }
}
