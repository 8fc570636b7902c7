package dev.tokentime.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A server log downloaded from a log platform as CSV (CloudWatch's "Download search results":
 * {@code timestamp,message} with epoch ms; Logs Insights' {@code @timestamp,@message}; GCP's
 * {@code textPayload}; Azure's {@code LogMessage}, and Container Apps' console logs ({@code Log_s},
 * {@code Log}, named by {@code ContainerGroupName_s} or {@code ReplicaName}); Datadog's, Kibana's and Splunk's
 * {@code message} / {@code _raw}): a container of log lines, like gzip or UTF-16, undone before
 * any format sees the file. The CSV quotes every line holding a comma or a quote (and doubles its
 * quotes): read as it is, each stats line ended in a stray quote and was a truncated reject, an
 * access line's doubled quotes matched nothing.
 *
 * <p>Each record becomes its message, after its time as RFC 3339 (the wrapper layer's container
 * prefix: the line's finer time and the year) and its stream or pod as {@code [pod/NAME]} (the
 * line's instance), so replicas in one download stay apart. The lines given are the file's lines:
 * the header, blank lines and a record's every physical line (a message's newlines stay, a record
 * spread over more lines than its message has is padded with blank ones). A record is read whole
 * from its physical lines, at most {@link #MAX_RECORD_LINES} lines and {@link #MAX_RECORD_CHARS}
 * characters: a quote never closed within them (a stray one), or a row the CSV reader refuses, is
 * given as it stands, line by line, for the formats to read or name; a file that ends inside a
 * quote is a cut record, said once.
 */
public final class CsvLogExport extends GivenLines {
  /** Columns holding the logged line, by platform, in order of preference. */
  static final List<String> MESSAGE = List.of("message", "@message", "textPayload", "jsonPayload.message",
      "LogMessage", "Log_s", "Log", "log", "Line", "line", "_raw", "Message", "msg");
  /** Columns holding the entry's time (not the platform's receive time: receiveTimestamp is none). */
  static final List<String> TIME = List.of("timestamp", "@timestamp", "TimeGenerated", "TimeGenerated [UTC]",
      "time", "Time", "date", "Date", "_time", "Timestamp");
  /**
   * Columns naming the stream, pod or host the line came from; {@code fields.pod}: Grafana
   * Explore's JSON download, the stream's Loki labels under "fields"; {@code instance}: Fly.io's
   * logs API, the machine.
   */
  static final List<String> WHO = List.of("@logStream", "logStreamName", "logStream", "resource.labels.pod_name",
      "labels.instanceId", "kubernetes.pod_name", "PodName", "ContainerGroupName_s", "ContainerGroupName",
      "ReplicaName", "pod_name", "pod", "host", "Host", "fields.pod", "fields.pod_name", "instance");

  static final int MAX_RECORD_LINES = 256;
  static final int MAX_RECORD_CHARS = 1 << 20;

  private static final Pattern EPOCH_S = Pattern.compile("\\d{10}(\\.\\d{1,9})?");
  private static final Pattern EPOCH_N = Pattern.compile("\\d{13}|\\d{16}|\\d{19}");
  private static final Pattern RFC3339 =
      Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,9})?(Z|[+-]\\d\\d:\\d\\d)");
  private static final Pattern INSIGHTS = Pattern.compile("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d{1,9})?");
  private static final Pattern US_CLOCK =
      Pattern.compile("(\\d{1,2})/(\\d{1,2})/(\\d{4}),? (\\d{1,2}):(\\d\\d):(\\d\\d)(\\.\\d{1,9})? (AM|PM)");
  private static final Pattern NOT_IN_NAME = Pattern.compile("[\\s\\]]");

  /** How far the first line is looked at for a log export's CSV header. */
  private static final int HEADER_BYTES = 4096;

  /**
   * {@code in} (a file's content from its first byte, decompressed) as the lines it holds when it
   * is a log export's CSV, else as it is; {@code onCut} hears of an export that ends inside a
   * quoted field. The CLI's ingest and the Spark job read files through it alike.
   */
  public static InputStream undo(InputStream in, java.util.function.Consumer<String> onCut) throws IOException {
    java.io.PushbackInputStream check = new java.io.PushbackInputStream(in, HEADER_BYTES);
    byte[] first = check.readNBytes(HEADER_BYTES);
    check.unread(first);
    int nl = -1;
    for (int i = 0; i < first.length && nl < 0; i++) {
      nl = first[i] == '\n' ? i : -1;
    }
    if (nl <= 0) {
      return check;
    }
    int from = OpenedInput.utf8BomLength(first);
    int to = nl > from && first[nl - 1] == '\r' ? nl - 1 : nl;
    String headerLine = new String(first, from, Math.max(0, to - from), StandardCharsets.UTF_8);
    Columns columns = header(headerLine);
    if (columns == null) {
      return check;
    }
    check.skipNBytes(from);
    return new CsvLogExport(check, headerLine, columns, onCut);
  }

  /** Where the export's columns are in its header. */
  record Columns(int message, int time, String timeName, int who) {}

  /**
   * The columns of a log export, when {@code headerLine} (the file's first line) is the header of
   * one: a message column and a time column among the names above, and no column of measured data
   * (a tokentime CSV's request_id or *_ns, a tool's Metric: such a file may carry a message column
   * of its own); else null.
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
    if (names.size() < 2 || names.stream().anyMatch(n -> n.equals("request_id") || n.endsWith("_ns")
        || n.equals("Metric") || n.equals("seq"))) {
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

  private final Columns columns;
  private final java.util.function.Consumer<String> onCut;
  private final Reader in;
  private long physical;
  private boolean eof;

  /**
   * {@code in} from the file's first byte: the header is read again and given first, as it was
   * written; {@code onCut} hears of a file that ends inside a quoted field.
   */
  CsvLogExport(InputStream in, String headerLine, Columns columns, java.util.function.Consumer<String> onCut)
      throws IOException {
    this.columns = columns;
    this.onCut = onCut;
    this.in = new java.io.BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    physicalLine(); // the header
    give((headerLine + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The next physical line (up to '\n', which is dropped; a '\r' before it stays: the formats drop
   * it), at most MAX_RECORD_CHARS characters of it (the rest of a longer one is skipped); null at
   * the end.
   */
  private String physicalLine() throws IOException {
    if (eof) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0 && c != '\n') {
      if (sb.length() < MAX_RECORD_CHARS) {
        sb.append((char) c);
      }
    }
    if (c < 0) {
      eof = true;
      if (sb.length() == 0) {
        return null;
      }
    }
    physical++;
    return sb.toString();
  }

  private static int quotes(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == '"') {
        n++;
      }
    }
    return n;
  }

  @Override
  protected boolean next() throws IOException {
    String first = physicalLine();
    if (first == null) {
      return false;
    }
    long firstLine = physical;
    List<String> group = new ArrayList<>();
    group.add(first);
    int chars = first.length();
    boolean open = quotes(first) % 2 == 1;
    while (open && group.size() < MAX_RECORD_LINES && chars < MAX_RECORD_CHARS) {
      String more = physicalLine();
      if (more == null) {
        // the download was cut inside its last record, which is lost (the lines before it were
        // read); said as a damaged gzip's end is
        onCut.accept("the CSV export ends inside a quoted field: its record from line " + firstLine + " is cut");
        return false;
      }
      group.add(more);
      chars += more.length() + 1;
      open ^= quotes(more) % 2 == 1;
    }
    StringBuilder out = new StringBuilder();
    String line = open || first.isBlank() && group.size() == 1 ? null : record(String.join("\n", group));
    if (line == null) {
      // a blank line, or no record to read (a stray quote, a row the reader refuses): as it stands
      for (String g : group) {
        out.append(g).append('\n');
      }
    } else {
      out.append(line).append('\n');
      // a record over more lines than its message has (a newline in another column): padded, so
      // the lines given stay the file's
      int given = 1 + (int) line.chars().filter(ch -> ch == '\n').count();
      for (int i = given; i < group.size(); i++) {
        out.append('\n');
      }
    }
    give(out.toString().getBytes(StandardCharsets.UTF_8));
    return true;
  }

  /** The line of one record's text: its time, its stream and its message; null when it is no one record. */
  private String record(String text) {
    CSVRecord r;
    try (CSVParser p = CSVParser.parse(text, CSVFormat.DEFAULT)) {
      List<CSVRecord> all = p.getRecords();
      if (all.size() != 1) {
        return null;
      }
      r = all.get(0);
    } catch (IOException | UncheckedIOException | IllegalStateException e) {
      return null;
    }
    if (r.size() <= columns.message()) {
      return null; // fewer columns than the header: as it stands, for the formats to name
    }
    String time = columns.time() < r.size() ? rfc3339(r.get(columns.time()), columns.timeName()) : null;
    String who = columns.who() >= 0 && columns.who() < r.size() ? r.get(columns.who()).strip() : "";
    StringBuilder line = new StringBuilder();
    if (time != null) {
      line.append(time).append(' ');
    }
    if (!who.isEmpty()) {
      line.append("[pod/").append(NOT_IN_NAME.matcher(who).replaceAll("_")).append("] ");
    }
    // as written: a newline in it (a shipper keeps the one it read) is one in the file too
    String message = r.get(columns.message());
    return line.append(message.endsWith("\n") ? message.substring(0, message.length() - 1) : message).toString();
  }

  /**
   * The entry's time as RFC 3339 UTC: epoch seconds, ms, µs or ns (by their digits), an RFC 3339
   * time, or Logs Insights' "2025-05-07 01:55:24.378" (UTC, as CloudWatch writes it); null for
   * any other (a local time with no zone is not guessed).
   */
  static String rfc3339(String value, String column) {
    String v = value.strip();
    try {
      if (EPOCH_S.matcher(v).matches()) {
        return DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(0, new java.math.BigDecimal(v)
            .movePointRight(9).longValueExact()));
      }
      if (EPOCH_N.matcher(v).matches()) {
        long n = Long.parseLong(v);
        long nanos = v.length() == 13 ? n * 1_000_000 : v.length() == 16 ? n * 1_000 : n;
        return DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(0, nanos));
      }
      if (RFC3339.matcher(v).matches()) {
        return v;
      }
      // Logs Insights' @timestamp, and a column that names its zone (Azure's "TimeGenerated [UTC]")
      boolean utc = column.equals("@timestamp") || column.endsWith("[UTC]");
      if (utc && INSIGHTS.matcher(v).matches()) {
        return v.replace(' ', 'T') + "Z";
      }
      java.util.regex.Matcher us = column.endsWith("[UTC]") ? US_CLOCK.matcher(v) : null;
      if (us != null && us.matches()) {
        // the Azure portal's US form: "6/27/2026, 2:23:02.100 AM" (day-first locales print "am"/"pm")
        int month = Integer.parseInt(us.group(1));
        int day = Integer.parseInt(us.group(2));
        int hour = Integer.parseInt(us.group(4));
        if (month > 12 || day > 31 || hour > 12) {
          return null;
        }
        return String.format("%s-%02d-%02dT%02d:%s:%s%sZ", us.group(3), month, day,
            hour % 12 + (us.group(8).equals("PM") ? 12 : 0), us.group(5), us.group(6), us.group(7) == null ? "" : us.group(7));
      }
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
    return null;
  }
}
