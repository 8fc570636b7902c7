package dev.tokentime.spark;

import dev.tokentime.app.OpenedInput;
import dev.tokentime.ingest.CheckedSink;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;

/**
 * Reads one file on an executor with the CLI's parsers: opened through Hadoop's file systems (so
 * s3a:// and hdfs:// work as local paths do) and then as the CLI opens a file ({@code
 * OpenedInput}: gzip and zstd, UTF-16 and a byte order mark, a log platform's CSV or JSON download
 * read as its lines; archives refused, skipped with the reason), the format sniffed from the
 * first 64 KiB, or from the last where a tool's summary may end a log (or named by --from), and
 * every row handed to {@code out} through a {@link RowSink}. A file no format claims gives one
 * sources row with a NULL format, which the job reports as skipped and leaves out.
 */
final class FileParser {
  /** A skipped file's compression column starts so when it was refused, the reason after it (never stored). */
  static final String REFUSED = "refused: ";

  private FileParser() {}

  private static FormatRegistry registry;

  /** The registry (its specs read and compiled once per executor JVM). */
  static synchronized FormatRegistry formats() {
    if (registry == null) {
      registry = FormatRegistry.standard();
    }
    return registry;
  }

  /** The file opened again as the CLI opens it, for a parser's second reading (ParseContext.reopen). */
  private static java.io.InputStream reopen(FileSystem fs, Path path, long size) throws IOException {
    org.apache.hadoop.fs.FSDataInputStream stream = fs.open(path);
    try {
      return OpenedInput.reopened(OpenedInput.open(stream, path.getName(), size, null));
    } catch (IOException | RuntimeException e) {
      stream.close();
      throw e;
    }
  }

  static void parse(FileTask task, ParseOptions o, Map<String, String> hadoopConf, Consumer<Row> out)
      throws IOException {
    Configuration conf = new Configuration();
    hadoopConf.forEach(conf::set);
    Path path = new Path(URI.create(task.path()));
    FileSystem fs = path.getFileSystem(conf);
    long size = fs.getFileStatus(path).getLen();
    // opened as the CLI opens a file (OpenedInput): gzip and zstd, UTF-16 and a UTF-8 byte order
    // mark, a log platform's CSV or JSON download undone; archives refused; the tail sniffed
    OpenedInput opened;
    org.apache.hadoop.fs.FSDataInputStream stream = fs.open(path);
    org.apache.hadoop.fs.FSDataInputStream tailStream;
    try {
      tailStream = fs.open(path);
    } catch (IOException | RuntimeException e) {
      stream.close();
      throw e;
    }
    try {
      opened = OpenedInput.open(stream, path.getName(), size, tailStream::readFully);
    } catch (dev.tokentime.app.RefusedInput refused) {
      // an archive (zip, tar, bzip2, xz, 7-Zip), as the CLI refuses it: skipped, saying why (a
      // failure to read, s3a's throttling, fails the task instead, which Spark retries)
      stream.close();
      tailStream.close();
      new RowSink(task.sourceId(), null, task.defaultRun(), o.keepText(), out).finish(task.path(), null, null,
          REFUSED + refused.getMessage(), size, 0, Timestamp.from(Instant.now()));
      return;
    } catch (IOException | RuntimeException e) {
      stream.close();
      tailStream.close();
      throw e;
    }
    try (stream; tailStream; OpenedInput in = opened) {
      FormatRegistry formats = formats();
      InputFormat format = o.from() != null ? formats.byId(o.from()) : in.sniffed(formats);
      String display = task.path();
      RowSink sink = new RowSink(task.sourceId(), format == null ? null : format.idNamespace(),
          task.defaultRun(), o.keepText(), out);
      long lines = 0;
      if (format != null) {
        ParseContext ctx = new ParseContext(display, task.defaultRun(), o.keepText(),
            o.tz() == null ? null : ZoneId.of(o.tz()), o.year(),
            Instant.ofEpochMilli(task.modifiedMs()), null).withEmbedded(in.embeddedIn(format, formats))
            .withReopen(() -> reopen(fs, path, size));
        try {
          // the same range checks as the CLI's ingest: an out-of-range value is a reject naming its field
          CheckedSink checked = new CheckedSink(sink);
          lines = format.parse(in.content(), ctx, checked);
          if (in.damage() != null) {
            // a cut gzip or a cut export is a rejected line, as the CLI's ingest counts it
            checked.reject(lines + 1, in.damage() + "; the lines before it were read", null, 0, 0);
            lines++;
          }
        } catch (UncheckedIOException e) {
          throw e.getCause();
        }
      }
      // the whole file read, so its hash is the content's, as the CLI's ingest stores it
      String sha = in.sha256();
      sink.finish(display, sha, format == null ? null : format.id(), in.compression(), in.rawBytesRead(), lines,
          Timestamp.from(Instant.now()));
    }
  }
}
