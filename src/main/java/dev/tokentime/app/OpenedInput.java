package dev.tokentime.app;

import com.github.luben.zstd.ZstdInputStream;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackInputStream;
import java.io.SequenceInputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import org.apache.commons.io.input.ReaderInputStream;

/**
 * A file opened for parsing: compression recognised by its magic bytes (gzip, zstd), the first
 * 64 KiB of its content held for sniffing, and the raw bytes hashed and counted as they are read.
 * A compressed file that ends early or is corrupt is read up to that point and flagged, as is
 * data after the end of a gzip stream.
 *
 * <p>A source is known by the SHA-256 of its content after decompression ({@link #sha256}), so a
 * log compressed by rotation (x.log, then x.log.gz with the same lines) is the same source; the
 * hash of the file's bytes ({@link #rawSha256}) still finds sources stored by versions that
 * hashed compressed files as they are.
 */
public final class OpenedInput implements AutoCloseable {
  static final int SAMPLE_BYTES = 64 * 1024;

  /** The file, when it is one on this machine (null for a stream: the Spark job's Hadoop files). */
  private final Path path;
  /** The file's name, for the formats' sniffing. */
  private final String name;
  /** A stream's size and its positional reads (for the tail sniff), when it is no local file. */
  private final long streamSize;
  private final Tail streamTail;
  private final CountingStream raw;
  private final MessageDigest sha;
  /** Of the decompressed content; the same digest as {@link #sha} for a file not compressed. */
  private final MessageDigest contentSha;
  private final InputStream hashed;
  /** Counts the content's bytes (decompressed), for {@link #contentBytes}. */
  private CountingStream contentCount;
  private GzipMembers gzip;
  private String rawHex;
  private final String compression;
  /** Compressed or UTF-16: the content is not the file's bytes, and is hashed on its own. */
  private final boolean transcoded;
  /** UTF-16: the content is transcoded text, and has no tail look. */
  private final boolean utf16;
  /** What was undone to read the file: "none", "gzip", "zstd", "utf-16le", "gzip, utf-16le", … */
  private final String label;
  private final Sample sample;
  private final InputStream content;
  private String damage;

  /**
   * Positional reads of a file opened as a stream (Hadoop's {@code FSDataInputStream.readFully}):
   * {@code into} filled from byte {@code position} of the file.
   */
  @FunctionalInterface
  public interface Tail {
    void readFully(long position, byte[] into) throws IOException;
  }

  private OpenedInput(Path path) throws IOException {
    this(path, true);
  }

  /** {@code exports}: a log platform's CSV download is read as its lines (else as the file's bytes). */
  private OpenedInput(Path path, boolean exports) throws IOException {
    this(Files.newInputStream(path), path.getFileName().toString(), path, -1, null, exports);
  }

  private OpenedInput(InputStream file, String name, Path path, long streamSize, Tail streamTail, boolean exports)
      throws IOException {
    this.path = path;
    this.name = name;
    this.streamSize = streamSize;
    this.streamTail = streamTail;
    try {
      this.sha = MessageDigest.getInstance("SHA-256");
      this.contentSha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    this.raw = new CountingStream(new DigestInputStream(file, sha));
    BufferedInputStream buffered = new BufferedInputStream(raw, 1 << 16);
    buffered.mark(264);
    byte[] magic = buffered.readNBytes(264);
    buffered.reset();
    String archive = archive(magic, name);
    if (archive != null) {
      raw.close();
      throw new RefusedInput(archive);
    }
    InputStream decoded;
    if (magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
      compression = "gzip";
      decoded = gzip = new GzipMembers(buffered); // notes data after the last member
    } else if (magic.length >= 4 && (magic[0] & 0xff) == 0x28 && (magic[1] & 0xff) == 0xb5
        && (magic[2] & 0xff) == 0x2f && (magic[3] & 0xff) == 0xfd) {
      compression = "zstd";
      decoded = new ZstdInputStream(buffered);
    } else {
      compression = "none";
      decoded = buffered;
    }
    // UTF-16 (a byte order mark first: PowerShell's '>' and Out-File write UTF-16LE) is read as
    // the UTF-8 every parser expects; its content hash is of that UTF-8, as a compressed file's is
    // of its decompressed bytes
    PushbackInputStream bomCheck = new PushbackInputStream(new TruncationGuard(decoded), 2);
    byte[] bom2 = bomCheck.readNBytes(2);
    Charset utf16 = bom2.length < 2 ? null
        : (bom2[0] & 0xff) == 0xff && (bom2[1] & 0xff) == 0xfe ? StandardCharsets.UTF_16LE
        : (bom2[0] & 0xff) == 0xfe && (bom2[1] & 0xff) == 0xff ? StandardCharsets.UTF_16BE : null;
    InputStream guarded = bomCheck;
    if (utf16 == null) {
      bomCheck.unread(bom2);
    } else {
      guarded = ReaderInputStream.builder().setReader(new InputStreamReader(bomCheck, utf16))
          .setCharset(StandardCharsets.UTF_8).get();
    }
    this.transcoded = !compression.equals("none") || utf16 != null;
    this.utf16 = utf16 != null;
    this.label = utf16 == null ? compression
        : (compression.equals("none") ? "" : compression + ", ") + utf16.name().toLowerCase(Locale.ROOT);
    if (transcoded) {
      guarded = new DigestInputStream(guarded, contentSha);
    }
    guarded = contentCount = new CountingStream(guarded);
    this.hashed = guarded;
    // a log platform's download (CloudWatch, Logs Insights, GCP, Azure, Datadog, Kibana) as CSV or
    // as a JSON document: its lines are read out of their column or field (LogExports); the
    // content hashed is the file's
    if (exports) {
      guarded = LogExports.undo(guarded, cut -> {
        if (damage == null) {
          damage = cut; // a cut gzip is the cause, said as such
        }
      });
    }
    byte[] head = guarded.readNBytes(SAMPLE_BYTES);
    if (!compression.equals("none") && isTar(head)) {
      raw.close();
      throw new RefusedInput("a " + compression + "-compressed tar archive (several files in one): extract it"
          + " (tar -xf FILE) and ingest the folder; read as one log, its files' lines would run together");
    }
    // a UTF-8 byte order mark ("CSV UTF-8" from Excel, PowerShell 5's Out-File) is not content:
    // every sniffer and parser would see it glued to the first header name or the first line's
    // first byte (a JSON document's "{" was not its first byte: no JSON format claimed it)
    int bom = utf8BomLength(head);
    this.sample = new Sample(name, java.util.Arrays.copyOfRange(head, bom, head.length),
        head.length - bom);
    // SequenceInputStream closes each part when it is exhausted; the raw stream must stay open so
    // sha256() can finish reading it, so the second part ignores close().
    InputStream unclosable = new FilterInputStream(guarded) {
      @Override
      public void close() {}
    };
    this.content = new SequenceInputStream(new ByteArrayInputStream(head, bom, head.length - bom), unclosable);
  }

  /** 3 when {@code b} starts with a UTF-8 byte order mark, else 0. */
  static int utf8BomLength(byte[] b) {
    return b.length >= 3 && (b[0] & 0xff) == 0xef && (b[1] & 0xff) == 0xbb && (b[2] & 0xff) == 0xbf ? 3 : 0;
  }

  /**
   * What an archive or a compression tokentime does not read is, and what to do, from its first
   * bytes; null for anything else. Read as text it was garbage (bzip2, xz, zip) or several files'
   * lines run together (tar), even under --from.
   */
  static String archive(byte[] b) {
    return archive(b, "");
  }

  /**
   * As {@link #archive(byte[])}, knowing the file's name: a spreadsheet or a document is a zip
   * too, and "extract it (unzip FILE)" gave a folder of XML no format reads.
   */
  static String archive(byte[] b, String name) {
    String office = officeZip(name);
    if (office != null && b.length >= 4 && b[0] == 'P' && b[1] == 'K' && b[2] == 3 && b[3] == 4) {
      return office;
    }
    if (b.length >= 10 && b[0] == 'B' && b[1] == 'Z' && b[2] == 'h' && b[3] >= '1' && b[3] <= '9'
        && b[4] == 0x31 && b[5] == 0x41 && b[6] == 0x59 && b[7] == 0x26 && b[8] == 0x53 && b[9] == 0x59) {
      return "bzip2-compressed: decompress it first (bunzip2 -k FILE); gzip and zstd files are read as they are";
    }
    if (b.length >= 6 && (b[0] & 0xff) == 0xfd && b[1] == '7' && b[2] == 'z' && b[3] == 'X' && b[4] == 'Z' && b[5] == 0) {
      return "xz-compressed: decompress it first (unxz -k FILE); gzip and zstd files are read as they are";
    }
    if (b.length >= 4 && b[0] == 'P' && b[1] == 'K' && (b[2] == 3 && b[3] == 4 || b[2] == 5 && b[3] == 6)) {
      return "a zip archive: extract it (unzip FILE) and ingest the folder";
    }
    if (b.length >= 6 && b[0] == '7' && b[1] == 'z' && (b[2] & 0xff) == 0xbc && (b[3] & 0xff) == 0xaf
        && b[4] == 0x27 && b[5] == 0x1c) {
      return "a 7-Zip archive: extract it (7z x FILE) and ingest the folder";
    }
    if (isTar(b)) {
      return "a tar archive (several files in one): extract it (tar -xf FILE) and ingest the folder; read as one"
          + " log, its files' lines would run together";
    }
    return null;
  }

  /** What to do with a spreadsheet or document of Office's zip formats, by its name; null for any other name. */
  private static String officeZip(String name) {
    String n = name == null ? "" : name.toLowerCase(java.util.Locale.ROOT);
    if (n.endsWith(".xlsx") || n.endsWith(".xlsm") || n.endsWith(".ods") || n.endsWith(".numbers")) {
      return "a spreadsheet workbook, not a log: save the sheet as CSV and ingest the .csv (tokentime formats"
          + " lists the CSV shapes it reads)";
    }
    if (n.endsWith(".docx") || n.endsWith(".odt") || n.endsWith(".pptx")) {
      return "an Office document, not a log: copy the log's lines into a text file and ingest that";
    }
    return null;
  }

  /** A POSIX tar header: "ustar" at byte 257 of the first block. */
  private static boolean isTar(byte[] b) {
    // POSIX "ustar\0", GNU "ustar  \0": the magic and its end, not text that spells it
    return b.length >= 264 && b[257] == 'u' && b[258] == 's' && b[259] == 't' && b[260] == 'a' && b[261] == 'r'
        && (b[262] == 0 || b[262] == ' ' && b[263] == ' ');
  }

  public static OpenedInput open(Path path) throws IOException {
    return new OpenedInput(path);
  }

  /**
   * A file that is no local path, opened as the stream {@code file} of {@code size} bytes named
   * {@code name}, with {@code tail} its positional reads: the Spark job's files (s3a://, hdfs://),
   * read as the CLI reads a local one (containers undone, archives refused, the tail sniffed).
   */
  public static OpenedInput open(InputStream file, String name, long size, Tail tail) throws IOException {
    return new OpenedInput(file, name, null, size, tail, true);
  }

  public Sample sample() {
    return sample;
  }

  /**
   * The file's format: the one its head shows, unless one whose records may come last, after
   * anything (a tool's console summary printed at the end of a run's log: AIPerf's tables after
   * hundreds of its own log lines, vllm bench serve's block after a progress bar of 60 KB), is
   * surer of the last 64 KiB of a plain file than the head's format, a line log's
   * ({@link InputFormat#yieldsToATail}), is of the head. The same choice as for a file short
   * enough for its head to hold both: a bench client's log whose head is the vLLM library's
   * start-up lines is the bench's, not a server log with no request in it.
   */
  public InputFormat sniffed(FormatRegistry formats) throws IOException {
    FormatRegistry.Sniffed head = formats.sniffScored(sample);
    InputFormat f = head == null ? null : head.format();
    boolean local = path != null && Files.isRegularFile(path);
    if (f != null && !f.yieldsToATail() || utf16 || !local && (streamTail == null || transcoded)) {
      return f; // a structured document (JSON, YAML, CSV) is its head's: its text may quote anything
    }
    Sample lines = tailSample();
    if (lines == null) {
      return f;
    }
    FormatRegistry.Sniffed last = formats.sniffTail(lines);
    // a claim on the head's later lines alone (none on its first) is never surer than the tail's
    return last != null && (head == null || head.further() || last.score() > head.score()) ? last.format() : f;
  }

  /**
   * The format whose records stand among the lines of {@code host}'s in this file (a load-test
   * tool's result block in a server's log: {@link InputFormat#embeddedReader}), or null: the
   * best of the formats whose records may come anywhere, by the head or by the last 64 KiB, when
   * the host is a line log.
   */
  public InputFormat embeddedIn(InputFormat host, FormatRegistry formats) throws IOException {
    if (host == null || !host.yieldsToATail()) {
      return null;
    }
    FormatRegistry.Sniffed head = formats.sniffTail(sample);
    if (head != null && head.format() != host) {
      return head.format();
    }
    Sample tail = tailSample();
    FormatRegistry.Sniffed last = tail == null ? null : formats.sniffTail(tail);
    return last != null && last.format() != host ? last.format() : null;
  }

  /** The tail sample once read (sniffed and embeddedIn both look at it), or null. */
  private Sample tailLines;
  private boolean tailRead;

  /**
   * The last 64 KiB of a file's content longer than its head, from its first whole line; else null.
   * A compressed local file's content has no positions: it is decompressed once more, keeping only
   * its last 64 KiB (a load-test block at the end of a rotated .gz server log).
   */
  private Sample tailSample() throws IOException {
    if (!tailRead) {
      tailLines = readTail();
      tailRead = true;
    }
    return tailLines;
  }

  private Sample readTail() throws IOException {
    boolean local = path != null && Files.isRegularFile(path);
    if (utf16 || !local && (streamTail == null || transcoded)) {
      return null;
    }
    if (transcoded) {
      return sample.length() < SAMPLE_BYTES || binary(sample) ? null : lines(decompressedTail());
    }
    long size = local ? Files.size(path) : streamSize;
    if (size <= SAMPLE_BYTES || binary(sample)) {
      return null;
    }
    byte[] tail = new byte[SAMPLE_BYTES];
    if (local) {
      try (var ch = java.nio.channels.FileChannel.open(path)) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(tail);
        long pos = size - SAMPLE_BYTES;
        while (b.hasRemaining()) {
          int n = ch.read(b, pos + b.position());
          if (n < 0) {
            break;
          }
        }
      }
    } else {
      streamTail.readFully(size - SAMPLE_BYTES, tail);
    }
    return lines(tail);
  }

  /**
   * The last 64 KiB of the decompressed content, or null when it is no longer than that: a ring of
   * 64 KiB over one more pass, so memory stays bounded whatever the file's size. A cut or corrupt
   * member ends the pass where the content ends (the parse reports the damage).
   */
  private byte[] decompressedTail() throws IOException {
    byte[] ring = new byte[SAMPLE_BYTES];
    long total = 0;
    try (InputStream file = new BufferedInputStream(Files.newInputStream(path), 1 << 16);
        InputStream in = compression.equals("gzip") ? new GzipMembers(file) : new ZstdInputStream(file)) {
      byte[] chunk = new byte[1 << 16];
      int n;
      while (true) {
        try {
          n = in.read(chunk);
        } catch (IOException cut) {
          break;
        }
        if (n < 0) {
          break;
        }
        for (int off = 0; off < n; ) {
          int at = (int) (total % SAMPLE_BYTES);
          int len = Math.min(n - off, SAMPLE_BYTES - at);
          System.arraycopy(chunk, off, ring, at, len);
          off += len;
          total += len;
        }
      }
    } catch (IOException unreadable) {
      return null; // its head already said what is wrong with it
    }
    if (total <= SAMPLE_BYTES) {
      return null;
    }
    int at = (int) (total % SAMPLE_BYTES);
    byte[] tail = new byte[SAMPLE_BYTES];
    System.arraycopy(ring, at, tail, 0, SAMPLE_BYTES - at);
    System.arraycopy(ring, 0, tail, SAMPLE_BYTES - at, at);
    return tail;
  }

  /** The sample of a tail's lines, from its first whole line; null for no tail. */
  private Sample lines(byte[] tail) {
    if (tail == null) {
      return null;
    }
    // from the first whole line of the tail
    int start = 0;
    while (start < tail.length && tail[start] != '\n') {
      start++;
    }
    byte[] lines = java.util.Arrays.copyOfRange(tail, Math.min(start + 1, tail.length), tail.length);
    return new Sample(name, lines, lines.length);
  }

  /** A NUL byte in the head: a binary file (an archive, a database), never text a tool printed. */
  private static boolean binary(Sample s) {
    byte[] b = s.bytes();
    for (int i = 0; i < s.length(); i++) {
      if (b[i] == 0) {
        return true;
      }
    }
    return false;
  }

  /** The decompressed content from its first byte. */
  public InputStream content() {
    return content;
  }

  /**
   * The content of a file opened again, as {@link #content} gives it (decompressed, decoded),
   * closing the file when closed: a parser's second reading ({@code ParseContext.reopen}).
   */
  public static InputStream reopened(OpenedInput input) {
    return new FilterInputStream(input.content) {
      @Override
      public void close() throws IOException {
        input.close();
      }
    };
  }

  /** What was undone to read the file ("none", "gzip", "zstd", "utf-16le", "gzip, utf-16le", …). */
  public String compression() {
    return label;
  }

  public Path path() {
    return path;
  }

  /** Bytes of the file read so far (compressed bytes for a compressed file). */
  public long rawBytesRead() {
    return raw.count;
  }

  /** Why the compressed stream stopped before its end (truncated or corrupt), or null. */
  public String damage() {
    return damage;
  }

  /**
   * SHA-256 of the content (decompressed; up to the damage of a damaged file); reads what the
   * parser left unread so the hash is the whole content's.
   */
  public String sha256() throws IOException {
    byte[] skip = new byte[1 << 16];
    while (hashed.read(skip) >= 0) {
      // drain
    }
    while (raw.read(skip) >= 0) {
      // drain
    }
    rawHex = HexFormat.of().formatHex(sha.digest());
    return transcoded ? HexFormat.of().formatHex(contentSha.digest()) : rawHex;
  }

  /** Bytes of content (decompressed, as transcoded); after {@link #sha256}. */
  public long contentBytes() {
    return contentCount.count;
  }

  /** SHA-256 of the file's bytes as they are; after {@link #sha256}. */
  public String rawSha256() {
    return rawHex;
  }

  /** The content's and the file's SHA-256 (equal for a file not compressed). */
  public record Hashes(String content, String raw) {}

  /** The hashes of a whole file, without parsing it. */
  public static Hashes hashesOf(Path path) throws IOException {
    try (OpenedInput in = new OpenedInput(path)) {
      String content = in.sha256();
      return new Hashes(content, in.rawSha256());
    }
  }

  /**
   * SHA-256 of the file's first {@code lengths} bytes (ascending), in one read: the digest is
   * copied at each length. A length beyond the file's end has no hash (null).
   */
  public static java.util.List<String> prefixSha256(Path path, java.util.List<Long> lengths, boolean decompressed)
      throws IOException {
    java.util.List<String> out = new java.util.ArrayList<>();
    // the content's bytes as stored and hashed, before a CSV export's lines are read out of it
    try (OpenedInput opened = decompressed ? new OpenedInput(path, false) : null;
        InputStream in = decompressed ? opened.content() : Files.newInputStream(path)) {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      long done = 0;
      for (long want : lengths) {
        while (done < want) {
          int n = in.read(buf, 0, (int) Math.min(buf.length, want - done));
          if (n < 0) {
            break;
          }
          d.update(buf, 0, n);
          done += n;
        }
        out.add(done == want ? HexFormat.of().formatHex(((MessageDigest) d.clone()).digest()) : null);
      }
    } catch (NoSuchAlgorithmException | CloneNotSupportedException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  /** Bytes of content a source's head hash covers (_source_heads). */
  public static final int HEAD_BYTES = 4096;

  /** SHA-256 of the content's first {@link #HEAD_BYTES} bytes, or null for a shorter file. */
  public static String headSha256(Path path, boolean decompressed) throws IOException {
    return prefixSha256(path, java.util.List.of((long) HEAD_BYTES), decompressed).get(0);
  }

  /** SHA-256 of a whole file's content, without parsing it. */
  public static String sha256Of(Path path) throws IOException {
    return hashesOf(path).content();
  }

  @Override
  public void close() throws IOException {
    raw.close();
  }

  private static final class CountingStream extends FilterInputStream {
    long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }

  /** Turns "compressed data ended early" into a clean end of stream, remembering it happened. */
  private final class TruncationGuard extends FilterInputStream {
    TruncationGuard(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n <= 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (damage != null) {
        return -1;
      }
      try {
        int n = super.read(b, off, len);
        if (n < 0 && gzip != null && gzip.trailing() != null) {
          damage = "gzip: " + gzip.trailing();
        }
        return n;
      } catch (EOFException e) {
        damage = compression + " stream ends early (truncated file)";
        return -1;
      } catch (IOException e) {
        if (compression.equals("none")) {
          throw e;
        }
        // zstd reports a cut or corrupt stream as a generic IOException
        damage = compression + " stream unreadable after this point: " + e.getMessage();
        return -1;
      }
    }
  }
}
