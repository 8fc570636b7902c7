package dev.tokentime.spark;

import com.github.luben.zstd.ZstdInputStream;
import dev.tokentime.ingest.CheckedSink;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;

/**
 * Reads one file on an executor with the CLI's parsers: opened through Hadoop's file systems (so
 * s3a:// and hdfs:// work as local paths do), gzip and zstd recognised by their magic bytes as in
 * {@code OpenedInput}, a log platform's CSV or JSON download read as its lines ({@code LogExports}), the
 * format sniffed from the first 64 KiB (or named by --from), and every row handed to {@code out}
 * through a {@link RowSink}. A file no format claims gives one sources
 * row with a NULL format, which the job reports as skipped and leaves out.
 */
final class FileParser {
  static final int SAMPLE_BYTES = 64 * 1024;

  private FileParser() {}

  private static FormatRegistry registry;

  /** The registry (its specs read and compiled once per executor JVM). */
  static synchronized FormatRegistry formats() {
    if (registry == null) {
      registry = FormatRegistry.standard();
    }
    return registry;
  }

  static void parse(FileTask task, ParseOptions o, Map<String, String> hadoopConf, Consumer<Row> out)
      throws IOException {
    Configuration conf = new Configuration();
    hadoopConf.forEach(conf::set);
    Path path = new Path(URI.create(task.path()));
    FileSystem fs = path.getFileSystem(conf);
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    long[] rawBytes = {0};
    try (InputStream raw = new DigestInputStream(fs.open(path), sha)) {
      InputStream counted = new FilterInputStream(raw) {
        @Override
        public int read() throws IOException {
          int b = super.read();
          if (b >= 0) {
            rawBytes[0]++;
          }
          return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          int n = super.read(b, off, len);
          if (n > 0) {
            rawBytes[0] += n;
          }
          return n;
        }
      };
      BufferedInputStream buffered = new BufferedInputStream(counted, 1 << 16);
      buffered.mark(4);
      byte[] magic = buffered.readNBytes(4);
      buffered.reset();
      String compression;
      InputStream decoded;
      if (magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
        compression = "gzip";
        decoded = new GZIPInputStream(buffered, 1 << 16);
      } else if (magic.length == 4 && (magic[0] & 0xff) == 0x28 && (magic[1] & 0xff) == 0xb5
          && (magic[2] & 0xff) == 0x2f && (magic[3] & 0xff) == 0xfd) {
        compression = "zstd";
        decoded = new ZstdInputStream(buffered);
      } else {
        compression = "none";
        decoded = buffered;
      }
      // a log platform's download (CSV or JSON) is read as the lines it holds, as the CLI reads it
      String[] cut = {null};
      decoded = dev.tokentime.app.LogExports.undo(decoded, c -> cut[0] = c);
      byte[] head = decoded.readNBytes(SAMPLE_BYTES);
      FormatRegistry formats = formats();
      InputFormat format = o.from() != null ? formats.byId(o.from())
          : formats.sniff(new Sample(path.getName(), head, head.length));
      String display = task.path();
      RowSink sink = new RowSink(task.sourceId(), format == null ? null : format.idNamespace(),
          task.defaultRun(), o.keepText(), out);
      long lines = 0;
      if (format != null) {
        // parsers close their stream; the raw stream stays open so the hash can finish it below
        InputStream unclosable = new FilterInputStream(decoded) {
          @Override
          public void close() {}
        };
        InputStream content = new SequenceInputStream(new ByteArrayInputStream(head), unclosable);
        ParseContext ctx = new ParseContext(display, task.defaultRun(), o.keepText(),
            o.tz() == null ? null : ZoneId.of(o.tz()), o.year(),
            Instant.ofEpochMilli(task.modifiedMs()), null);
        try {
          // the same range checks as the CLI's ingest: an out-of-range value is a reject naming its field
          CheckedSink checked = new CheckedSink(sink);
          lines = format.parse(content, ctx, checked);
          if (cut[0] != null) {
            // the export's cut end is a rejected line, as the CLI's ingest counts it
            checked.reject(lines + 1, cut[0] + "; the lines before it were read", null, 0, 0);
            lines++;
          }
        } catch (UncheckedIOException e) {
          throw e.getCause();
        }
      }
      // the rest of the raw bytes, so the hash is of the whole file as stored
      byte[] skip = new byte[1 << 16];
      while (counted.read(skip) >= 0) {
        // drain
      }
      sink.finish(display, HexFormat.of().formatHex(sha.digest()),
          format == null ? null : format.id(), compression, rawBytes[0], lines,
          Timestamp.from(Instant.now()));
    }
  }
}
