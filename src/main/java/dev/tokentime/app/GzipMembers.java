package dev.tokentime.app;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * A gzip file's content: every member in turn (as gzip -d reads concatenated members), each
 * checked against its CRC and length. Unlike {@link java.util.zip.GZIPInputStream}, which ends
 * quietly at bytes after the last member that are not a gzip header, it notes them
 * ({@link #trailing}): a file with data appended to it (two files glued, a copy that went wrong)
 * is reported, not read as if complete.
 */
final class GzipMembers extends InputStream {
  private static final int BUF = 1 << 16;

  private final PushbackInputStream in;
  private final Inflater inf = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private final byte[] buf = new byte[BUF];
  private int bufLen;
  private boolean eof;
  private String trailing;

  GzipMembers(InputStream raw) throws IOException {
    this.in = new PushbackInputStream(raw, BUF);
    header();
  }

  /** What followed the last member when it was not another member, or null. */
  String trailing() {
    return trailing;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n <= 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (eof) {
      return -1;
    }
    if (len == 0) {
      return 0;
    }
    while (true) {
      int n;
      try {
        n = inf.inflate(b, off, len);
      } catch (DataFormatException e) {
        throw new ZipException("invalid deflate data: " + e.getMessage());
      }
      if (n > 0) {
        crc.update(b, off, n);
        return n;
      }
      if (inf.finished()) {
        int rest = inf.getRemaining();
        if (rest > 0) {
          in.unread(buf, bufLen - rest, rest);
        }
        trailer();
        if (!nextMember()) {
          eof = true;
          return -1;
        }
        continue;
      }
      if (inf.needsDictionary()) {
        throw new ZipException("deflate data needs a preset dictionary");
      }
      if (inf.needsInput()) {
        bufLen = in.read(buf, 0, BUF);
        if (bufLen <= 0) {
          throw new EOFException("Unexpected end of ZLIB input stream");
        }
        inf.setInput(buf, 0, bufLen);
      }
    }
  }

  /** After a member: another one, or the end, or bytes that are neither (noted, then skipped). */
  private boolean nextMember() throws IOException {
    int b0 = in.read();
    if (b0 < 0) {
      return false;
    }
    int b1 = in.read();
    if (b0 == 0x1f && b1 == 0x8b) {
      in.unread(b1);
      in.unread(b0);
      header();
      inf.reset();
      crc.reset();
      return true;
    }
    long extra = b1 < 0 ? 1 : 2;
    boolean zeros = b0 == 0 && b1 <= 0;
    int n;
    while ((n = in.read(buf, 0, BUF)) > 0) {
      for (int i = 0; i < n && zeros; i++) {
        zeros = buf[i] == 0;
      }
      extra += n;
    }
    trailing = extra + " byte" + (extra == 1 ? "" : "s") + (zeros ? " of zeros" : "")
        + " after the end of the gzip data (trailing garbage), not read";
    return false;
  }

  private void header() throws IOException {
    if (u8() != 0x1f || u8() != 0x8b) {
      throw new ZipException("Not in GZIP format");
    }
    if (u8() != 8) {
      throw new ZipException("Unsupported compression method");
    }
    int flags = u8();
    for (int i = 0; i < 6; i++) {
      u8(); // mtime, extra flags, OS
    }
    if ((flags & 4) != 0) { // FEXTRA
      int xlen = u8() | (u8() << 8);
      for (int i = 0; i < xlen; i++) {
        u8();
      }
    }
    if ((flags & 8) != 0) { // FNAME
      while (u8() != 0) {
        // skip
      }
    }
    if ((flags & 16) != 0) { // FCOMMENT
      while (u8() != 0) {
        // skip
      }
    }
    if ((flags & 2) != 0) { // FHCRC
      u8();
      u8();
    }
  }

  private void trailer() throws IOException {
    long sum = u32();
    long size = u32();
    if (sum != crc.getValue() || size != (inf.getBytesWritten() & 0xffffffffL)) {
      throw new ZipException("Corrupt GZIP trailer");
    }
  }

  private long u32() throws IOException {
    return u8() | ((long) u8() << 8) | ((long) u8() << 16) | ((long) u8() << 24);
  }

  private int u8() throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new EOFException("Unexpected end of gzip stream");
    }
    return b;
  }

  @Override
  public void close() throws IOException {
    inf.end();
    in.close();
  }
}
