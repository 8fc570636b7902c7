package dev.tokentime.app;

import dev.tokentime.ingest.Sample;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What a file no format claims looks like, when its head says so, with what to do: "cannot tell
 * the format; name it with --from" sent a user with a saved web page or an old
 * Excel workbook to look for a format that no --from names.
 */
public final class UnknownContent {
  private UnknownContent() {}

  /** A clause for after "cannot tell the format of FILE" ("it is an HTML page …"), or null. */
  public static String describe(Sample s) {
    byte[] b = s.bytes();
    int n = Math.min(s.length(), b.length);
    if (n >= 8 && (b[0] & 0xff) == 0xd0 && (b[1] & 0xff) == 0xcf && (b[2] & 0xff) == 0x11 && (b[3] & 0xff) == 0xe0) {
      return "it is an Office document (an Excel 97-2003 workbook?): save the sheet as CSV and ingest that";
    }
    if (n >= 16 && new String(b, 0, 16, StandardCharsets.ISO_8859_1).equals("SQLite format 3\0")) {
      return "it is an SQLite database, not a log";
    }
    if (n >= 12 && new String(b, 8, 4, StandardCharsets.ISO_8859_1).equals("DUCK")) {
      return "it is a DuckDB database: open it with --db FILE (tokentime summary --db FILE)";
    }
    for (int i = 0; i < n; i++) {
      if (b[i] == 0) {
        return "it is binary data, not text a server or a load-test tool writes";
      }
    }
    String head = new String(b, 0, n, StandardCharsets.UTF_8).stripLeading().toLowerCase(Locale.ROOT);
    String name = s.fileName() == null ? "" : s.fileName().toLowerCase(Locale.ROOT);
    if (name.startsWith("mlperf_log_accuracy") && head.startsWith("[")) {
      return "it is MLPerf LoadGen's accuracy log (each sample's output token ids, no times), which tokentime does"
          + " not read; the run's figures are in mlperf_log_summary.txt and mlperf_log_detail.txt beside it";
    }
    if (name.startsWith("mlperf_log_trace") && (head.isEmpty() || head.startsWith("{") || head.startsWith("["))) {
      return "it is MLPerf LoadGen's trace (empty unless tracing was on), which tokentime does not read; the run's"
          + " figures are in mlperf_log_summary.txt and mlperf_log_detail.txt beside it";
    }
    if (head.startsWith("<!doctype html") && head.contains("<meta name=\"generator\" content=\"tokentime\">")) {
      return "it is a report tokentime wrote (tokentime report), not an input";
    }
    if (head.startsWith("<!doctype html") || head.startsWith("<html") || head.startsWith("<?xml")
        && head.contains("<html")) {
      return "it is an HTML page (saved from a browser or a log viewer?), not the log itself: download the raw"
          + " text (the viewer's raw or download link, kubectl logs POD > pod.log, docker logs NAME > server.log)";
    }
    return null;
  }
}
