package dev.tokentime.formats.spec;

import dev.tokentime.ingest.LineReader;
import java.io.IOException;
import java.util.Arrays;

/**
 * Joins Kubernetes CRI partial lines before matching: the container runtime splits a long line
 * into {@code TS stdout P text} pieces and ends it with {@code TS stdout F text}; the joined line
 * is the first piece's prefix followed by every piece's text, numbered as its last (F) line. Each
 * P line is reported to {@link Sink#partial} (an other line: its text lives on in the joined one),
 * so lines read still equal records + other + rejected. Pieces are held per stream (stdout,
 * stderr) and never beyond {@link LineReader#DEFAULT_MAX_LINE_BYTES}; pieces left at the end of
 * the input are emitted as they are (a line cut by the end of the file).
 */
final class PartialLines implements LineReader.Handler {
  /** The downstream reader of lines, told about partial pieces as well. */
  interface Sink extends LineReader.Handler {
    void partial(long lineNo) throws IOException;
  }

  private final Sink out;
  private final Piece[] pending = {new Piece(), new Piece()}; // stdout, stderr

  PartialLines(Sink out) {
    this.out = out;
  }

  private static final class Piece {
    byte[] buf = new byte[0];
    int len;
    long firstLine = -1;
    long lastLine = -1;

    boolean held() {
      return firstLine >= 0;
    }

    void append(byte[] b, int off, int n) {
      if (len + n > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
      }
      System.arraycopy(b, off, buf, len, n);
      len += n;
    }
  }

  /**
   * Where the text of a CRI line starts ({@code TS stdout F }), with the stream (0 stdout, 1
   * stderr) and whether it is partial, as {@code text << 2 | stream << 1 | partial}; -1 for any
   * other line. A byte test: most lines of most logs are not CRI and cost a few comparisons.
   */
  static int cri(byte[] b, int off, int len) {
    if (len < 30 || b[off + 4] != '-' || b[off + 10] != 'T') {
      return -1;
    }
    int sp = -1;
    for (int i = off + 19; i < off + Math.min(len, 40); i++) {
      if (b[i] == ' ') {
        sp = i;
        break;
      }
    }
    if (sp < 0 || sp + 9 > off + len) {
      return -1;
    }
    int stream;
    if (b[sp + 1] == 's' && b[sp + 2] == 't' && b[sp + 3] == 'd' && b[sp + 4] == 'o' && b[sp + 5] == 'u'
        && b[sp + 6] == 't') {
      stream = 0;
    } else if (b[sp + 1] == 's' && b[sp + 2] == 't' && b[sp + 3] == 'd' && b[sp + 4] == 'e' && b[sp + 5] == 'r'
        && b[sp + 6] == 'r') {
      stream = 1;
    } else {
      return -1;
    }
    byte tag = b[sp + 8];
    if (b[sp + 7] != ' ' || (tag != 'P' && tag != 'F') || b[sp + 9] != ' ') {
      return -1;
    }
    int text = sp + 10 - off;
    return text << 2 | stream << 1 | (tag == 'P' ? 1 : 0);
  }

  @Override
  public void line(long lineNo, byte[] buf, int off, int len) throws IOException {
    int c = cri(buf, off, len);
    if (c < 0) {
      out.line(lineNo, buf, off, len);
      return;
    }
    int text = c >>> 2;
    Piece p = pending[(c >> 1) & 1];
    boolean partial = (c & 1) == 1;
    if (!p.held()) {
      if (!partial) {
        out.line(lineNo, buf, off, len); // a whole line: most CRI lines
        return;
      }
      p.len = 0;
      p.firstLine = lineNo;
      p.append(buf, off, len); // its prefix, then its text
    } else {
      out.partial(p.lastLine);
      if (p.len + len - text > LineReader.DEFAULT_MAX_LINE_BYTES) {
        out.tooLong(lineNo, (long) p.len + len - text, p.buf, Math.min(256, p.len));
        p.firstLine = -1;
        return;
      }
      p.append(buf, off + text, len - text);
    }
    p.lastLine = lineNo;
    if (!partial) {
      p.firstLine = -1;
      out.line(lineNo, p.buf, 0, p.len);
    }
  }

  @Override
  public void tooLong(long lineNo, long length, byte[] head, int headLen) throws IOException {
    out.tooLong(lineNo, length, head, headLen);
  }

  /** The input ended: pieces still held are emitted as the lines they are. */
  void end() throws IOException {
    for (Piece p : pending) {
      if (p.held()) {
        p.firstLine = -1;
        out.line(p.lastLine, p.buf, 0, p.len);
      }
    }
  }
}
