package dev.tokentime.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The lines of a text a format reads line by line itself (a tool's console summary, its report),
 * decoded: a line that is not UTF-8, or longer than {@link LineReader}'s limit, is a reject here,
 * so each reader sees text only.
 */
public final class TextLines {
  private TextLines() {}

  /** What a format makes of one decoded line. */
  public interface Reader {
    /**
     * Accounts for the line (a record, an other line) and returns null, or returns why it is
     * rejected (the line is then rejected with its bytes).
     */
    String line(long lineNo, String text) throws IOException;
  }

  /**
   * The reject reason of a row its writer ends with a line end found without one at the file's
   * end: cut while the file was written or copied (a cut number, "2100" as "21", still parses).
   */
  public static final String CUT_LAST_ROW = "truncated last line: the file ends without a line end after it"
      + " (cut while it was written?); a whole row ends with one";

  /** A {@link Reader} told whether the line ends with a line end. */
  public interface EndingReader {
    /**
     * As {@link Reader#line}; {@code terminated} is false only for a last line the file ends
     * inside (no line end after it): a row a writer ends with one was then cut.
     */
    String line(long lineNo, String text, boolean terminated) throws IOException;
  }

  /**
   * Reads every line of {@code in}; {@code what} names a line of the format in the reason of a
   * line too long ("a console summary"). Returns the number of lines read.
   */
  public static long read(InputStream in, RecordSink sink, String what, Reader reader) throws IOException {
    return readEndings(in, sink, what, (lineNo, text, terminated) -> reader.line(lineNo, text));
  }

  /** As {@link #read}, telling the reader whether each line ends with a line end. */
  public static long readEndings(InputStream in, RecordSink sink, String what, EndingReader reader) throws IOException {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
    LineReader lines = new LineReader(in);
    return lines.forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) throws IOException {
        String text;
        try {
          text = decoder.decode(ByteBuffer.wrap(buf, off, len)).toString();
        } catch (CharacterCodingException e) {
          sink.reject(lineNo, "invalid UTF-8", buf, off, len);
          return;
        }
        String reason = reader.line(lineNo, text, lines.lastLineTerminated());
        if (reason != null) {
          sink.reject(lineNo, reason, buf, off, len);
        }
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        sink.reject(lineNo, "line of " + length + " bytes is too long for " + what, head, 0, headLen);
      }
    });
  }
}
