package dev.tokentime.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * A log platform's download (a CSV of records, a JSON document of events) read as the log lines
 * it holds, before any format sees the file; any other content as it is. The CLI's ingest (and
 * its --explain) and the Spark job read every file through this one call.
 */
public final class LogExports {
  private LogExports() {}

  /**
   * {@code in}, a file's content from its first byte (decompressed, UTF-8), as its log lines when
   * it is a download of them; {@code onCut} hears once of one cut short or broken.
   */
  public static InputStream undo(InputStream in, Consumer<String> onCut) throws IOException {
    return JsonLogExport.undo(CsvLogExport.undo(in, onCut), onCut);
  }
}
