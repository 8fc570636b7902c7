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
 *
 * <p>Docker's json-file driver splits the same way: a line over 16 KB becomes several
 * {@code {"log":"…","stream":"stdout","time":"…"}} records, only the last of whose {@code log}
 * ends in {@code \n}. Those are joined into one record: the first piece's record with every
 * piece's {@code log} text in its {@code log} (the JSON-escaped texts put end to end are the
 * escaped whole), numbered as its last piece, the other pieces other lines as CRI's P lines are.
 *
 * <p>Fluent Bit's and Fluentd's records of a CRI log read by their cri parser keep the piece's
 * flag: {@code "logtag":"P"} (Fluentd's and Fluent Bit's regex parser) or {@code "_p":"P"} (Fluent
 * Bit's multiline parser), the text under {@code message} or {@code log}, one record a line or after
 * Fluentd's stdout prefix ({@code 2020-10-10 09:10:00.333333333 +0900 cri: {…}}). The P records of a
 * stream are joined with the F record after them into one record: the first piece's, with every
 * piece's text in its text key and the flag F, numbered as its last piece, the earlier pieces other
 * lines.
 *
 * <p>GitLab's runner, with timestamps ({@code FF_TIMESTAMPS}), marks the other way round: a piece
 * that continues the line before it has {@code +} after its stream ({@code TS 00O+text}), the
 * first piece a space. So each such line is held until the next one shows whether it goes on;
 * its continuations are joined to it (the first piece's header, then every piece's text), numbered
 * as the last, the earlier pieces other lines.
 */
final class PartialLines implements LineReader.Handler {
  /** The downstream reader of lines, told about partial pieces as well. */
  interface Sink extends LineReader.Handler {
    void partial(long lineNo) throws IOException;
  }

  private final Sink out;
  private final Piece[] pending = {new Piece(), new Piece()}; // stdout, stderr
  /** docker json-file pieces per stream: the first record up to its log's end, then the texts after. */
  private final Piece[] pendingJson = {new Piece(), new Piece()};
  /** The first json piece's record after its log's text (from the closing quote on), per stream. */
  private final byte[][] jsonTail = {new byte[0], new byte[0]};

  /** The last GitLab runner line, held until the next line shows whether it continues it. */
  private final Piece gitlab = new Piece();
  /** Its stream: the two hex digits and O or E of its header. */
  private final byte[] gitlabStream = new byte[3];

  /** Flagged JSON records held per stream (stdout, stderr): the first piece, then the texts after. */
  private final FlaggedRecord[] pendingFlagged = {new FlaggedRecord(), new FlaggedRecord()};

  /** A held run of flagged JSON pieces: the first piece's record and the texts so far. */
  private static final class FlaggedRecord {
    byte[] prefix;
    com.fasterxml.jackson.databind.node.ObjectNode record;
    String textKey;
    String flagKey;
    final StringBuilder text = new StringBuilder();
    long firstLine = -1;
    long lastLine = -1;

    boolean held() {
      return firstLine >= 0;
    }

    /** The joined record, after the first piece's prefix, as a line. */
    byte[] joined() throws IOException {
      record.put(textKey, text.toString());
      record.put(flagKey, "F");
      byte[] json = RECORD_JSON.writeValueAsBytes(record);
      byte[] line = Arrays.copyOf(prefix, prefix.length + json.length);
      System.arraycopy(json, 0, line, prefix.length, json.length);
      return line;
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper RECORD_JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

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

  /**
   * Where the text of a GitLab runner line starts ({@code 2024-06-12T10:27:13.765080Z 00O text},
   * {@code … 00O+text}), with whether it continues the line before ({@code +}), as
   * {@code text << 1 | continues}, and where its stream (three bytes) is, as {@code stream << 32};
   * -1 for any other line.
   */
  static long gitlab(byte[] b, int off, int len) {
    if (len < 25 || b[off + 4] != '-' || b[off + 10] != 'T' || b[off + 13] != ':') {
      return -1;
    }
    int sp = -1;
    for (int i = off + 19; i < off + Math.min(len, 40); i++) {
      if (b[i] == ' ') {
        sp = i;
        break;
      }
    }
    if (sp < 0 || sp + 5 > off + len || (b[sp - 1] != 'Z' && !Character.isDigit(b[sp - 1]))) {
      return -1;
    }
    if (!hex(b[sp + 1]) || !hex(b[sp + 2]) || (b[sp + 3] != 'O' && b[sp + 3] != 'E')) {
      return -1;
    }
    byte flag = b[sp + 4];
    if (flag != '+' && flag != ' ') {
      return -1;
    }
    return (long) (sp + 1 - off) << 32 | (long) (sp + 5 - off) << 1 | (flag == '+' ? 1 : 0);
  }

  private static boolean hex(byte c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'f';
  }

  /** Emits the held GitLab line, if any. */
  private void flushGitlab() throws IOException {
    if (gitlab.held()) {
      gitlab.firstLine = -1;
      out.line(gitlab.lastLine, gitlab.buf, 0, gitlab.len);
    }
  }

  /** A GitLab runner line: held, or joined to the held one it continues. */
  private boolean gitlabLine(long lineNo, byte[] buf, int off, int len) throws IOException {
    long g = gitlab(buf, off, len);
    if (g < 0) {
      return false;
    }
    int stream = (int) (g >>> 32);
    int text = (int) ((g & 0xffffffffL) >>> 1);
    boolean continues = (g & 1) == 1;
    if (continues && gitlab.held() && Arrays.equals(gitlabStream, 0, 3, buf, off + stream, off + stream + 3)) {
      out.partial(gitlab.lastLine);
      if (gitlab.len + len - text > LineReader.DEFAULT_MAX_LINE_BYTES) {
        out.tooLong(lineNo, (long) gitlab.len + len - text, gitlab.buf, Math.min(256, gitlab.len));
        gitlab.firstLine = -1;
        return true;
      }
      gitlab.append(buf, off + text, len - text);
      gitlab.lastLine = lineNo;
      return true;
    }
    flushGitlab();
    // a line of its own (or a continuation of nothing held: read as it is), held in turn
    gitlab.len = 0;
    gitlab.firstLine = lineNo;
    gitlab.lastLine = lineNo;
    gitlab.append(buf, off, len);
    System.arraycopy(buf, off + stream, gitlabStream, 0, 3);
    return true;
  }

  private static final byte[] DOCKER_LOG = "{\"log\":\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] STDERR = "\"stream\":\"stderr\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * For a docker json-file record ({@code {"log":"…"} first, as the driver writes it): where its
   * log text's closing quote is, with the stream and whether the text is partial (does not end in
   * an escaped newline), as {@code quote << 2 | stream << 1 | partial}; -1 for any other line.
   */
  static long dockerJson(byte[] b, int off, int len) {
    if (len < DOCKER_LOG.length + 1 || b[off] != '{' || !Arrays.equals(b, off, off + DOCKER_LOG.length,
        DOCKER_LOG, 0, DOCKER_LOG.length)) {
      return -1;
    }
    int i = off + DOCKER_LOG.length;
    int end = off + len;
    while (i < end && b[i] != '"') {
      i += b[i] == '\\' ? 2 : 1;
    }
    if (i >= end) {
      return -1;
    }
    int quote = i;
    // ends in "\n" when the two bytes before the quote are an escape (an odd run of backslashes) and n
    int slashes = 0;
    for (int k = quote - 2; k >= off + DOCKER_LOG.length && b[k] == '\\'; k--) {
      slashes++;
    }
    boolean newline = quote - 1 >= off + DOCKER_LOG.length && b[quote - 1] == 'n' && slashes % 2 == 1;
    int stream = indexOf(b, quote, end, STDERR) >= 0 ? 1 : 0;
    return (long) (quote - off) << 2 | stream << 1 | (newline ? 0 : 1);
  }

  private static int indexOf(byte[] b, int from, int to, byte[] what) {
    outer:
    for (int i = from; i + what.length <= to; i++) {
      for (int k = 0; k < what.length; k++) {
        if (b[i + k] != what[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** A docker json-file record: joined with the pieces before it when its log text is partial. */
  private boolean json(long lineNo, byte[] buf, int off, int len) throws IOException {
    long d = dockerJson(buf, off, len);
    if (d < 0) {
      return false;
    }
    int quote = (int) (d >>> 2);
    int stream = (int) ((d >> 1) & 1);
    boolean partial = (d & 1) == 1;
    Piece p = pendingJson[stream];
    if (!p.held()) {
      if (!partial) {
        out.line(lineNo, buf, off, len); // a whole line: most records
        return true;
      }
      p.len = 0;
      p.firstLine = lineNo;
      p.append(buf, off, quote);
      jsonTail[stream] = Arrays.copyOfRange(buf, off + quote, off + len);
    } else {
      out.partial(p.lastLine);
      int text = DOCKER_LOG.length;
      if (p.len + quote - text + jsonTail[stream].length > LineReader.DEFAULT_MAX_LINE_BYTES) {
        out.tooLong(lineNo, (long) p.len + quote - text + jsonTail[stream].length, p.buf, Math.min(256, p.len));
        p.firstLine = -1;
        return true;
      }
      p.append(buf, off + text, quote - text);
    }
    p.lastLine = lineNo;
    if (!partial) {
      p.firstLine = -1;
      p.append(jsonTail[stream], 0, jsonTail[stream].length);
      out.line(lineNo, p.buf, 0, p.len);
    }
    return true;
  }

  private static final byte[] LOGTAG_KEY = "\"logtag\":\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] P_KEY = "\"_p\":\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] FLUENTD_RECORD = ": {".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * For a JSON record that carries a CRI piece's flag ({@code "logtag":"P"}, {@code "_p":"F"}), on
   * its own or after Fluentd's stdout prefix ({@code 2020-10-10 09:10:00.333333333 +0900 tag: }):
   * where its object starts, with whether the piece is partial, as {@code start << 1 | partial};
   * -1 for any other line. A byte test; the record is parsed only when pieces are joined.
   */
  static long flagged(byte[] b, int off, int len) {
    int end = off + len;
    int start;
    if (len > 0 && b[off] == '{') {
      start = off;
    } else if (len > 30 && b[off] >= '0' && b[off] <= '9' && b[off + 4] == '-' && b[off + 10] == ' ') {
      int colon = indexOf(b, off + 19, Math.min(end, off + 512), FLUENTD_RECORD);
      if (colon < 0) {
        return -1;
      }
      start = colon + 2;
    } else {
      return -1;
    }
    int key = indexOf(b, start, end, LOGTAG_KEY);
    int at = key < 0 ? -1 : key + LOGTAG_KEY.length;
    if (key < 0) {
      key = indexOf(b, start, end, P_KEY);
      at = key < 0 ? -1 : key + P_KEY.length;
    }
    if (at < 0 || at + 1 >= end || (b[at] != 'P' && b[at] != 'F') || b[at + 1] != '"') {
      return -1;
    }
    return (long) (start - off) << 1 | (b[at] == 'P' ? 1 : 0);
  }

  /** A flagged JSON record: held, joined to the held pieces of its stream, or passed on. */
  private boolean flaggedRecord(long lineNo, byte[] buf, int off, int len) throws IOException {
    long f = flagged(buf, off, len);
    if (f < 0) {
      return false;
    }
    boolean partial = (f & 1) == 1;
    if (!partial && !pendingFlagged[0].held() && !pendingFlagged[1].held()) {
      out.line(lineNo, buf, off, len); // a whole line: most records
      return true;
    }
    int start = (int) (f >>> 1);
    com.fasterxml.jackson.databind.JsonNode node;
    try {
      node = RECORD_JSON.readTree(buf, off + start, len - start);
    } catch (IOException e) {
      return false; // no JSON after all: read as the line it is
    }
    if (!(node instanceof com.fasterxml.jackson.databind.node.ObjectNode record)) {
      return false;
    }
    String textKey = record.path("log").isTextual() ? "log" : record.path("message").isTextual() ? "message" : null;
    if (textKey == null) {
      return false;
    }
    String piece = record.get(textKey).asText();
    FlaggedRecord p = pendingFlagged["stderr".equals(record.path("stream").asText()) ? 1 : 0];
    if (!p.held()) {
      if (!partial) {
        out.line(lineNo, buf, off, len);
        return true;
      }
      p.prefix = Arrays.copyOfRange(buf, off, off + start);
      p.record = record;
      p.textKey = textKey;
      p.flagKey = record.has("logtag") ? "logtag" : "_p";
      p.text.setLength(0);
      p.text.append(piece);
      p.firstLine = lineNo;
    } else {
      out.partial(p.lastLine);
      if ((long) p.text.length() + piece.length() + p.prefix.length > LineReader.DEFAULT_MAX_LINE_BYTES) {
        byte[] head = p.joined();
        out.tooLong(lineNo, (long) head.length + piece.length(), head, Math.min(256, head.length));
        p.firstLine = -1;
        return true;
      }
      p.text.append(piece);
    }
    p.lastLine = lineNo;
    if (!partial) {
      p.firstLine = -1;
      byte[] joined = p.joined();
      out.line(lineNo, joined, 0, joined.length);
    }
    return true;
  }

  @Override
  public void line(long lineNo, byte[] buf, int off, int len) throws IOException {
    if (len > 0 && buf[off] >= '0' && buf[off] <= '9' && gitlabLine(lineNo, buf, off, len)) {
      return;
    }
    flushGitlab(); // a line of another shape: the held one went on no further
    if (len > 0 && (buf[off] == '{' || buf[off] >= '0' && buf[off] <= '9') && flaggedRecord(lineNo, buf, off, len)) {
      return;
    }
    if (len > 0 && buf[off] == '{' && json(lineNo, buf, off, len)) {
      return;
    }
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
    flushGitlab();
    for (FlaggedRecord p : pendingFlagged) {
      if (p.held()) {
        p.firstLine = -1;
        byte[] joined = p.joined();
        out.line(p.lastLine, joined, 0, joined.length);
      }
    }
    for (Piece p : pending) {
      if (p.held()) {
        p.firstLine = -1;
        out.line(p.lastLine, p.buf, 0, p.len);
      }
    }
    for (int s = 0; s < 2; s++) {
      Piece p = pendingJson[s];
      if (p.held()) {
        p.firstLine = -1;
        p.append(jsonTail[s], 0, jsonTail[s].length);
        out.line(p.lastLine, p.buf, 0, p.len);
      }
    }
  }
}
