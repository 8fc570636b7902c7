package dev.tokentime.generate;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Writes generated requests in the canonical input formats: tokentime-jsonl per request (with a
 * tokens_ns array), tokentime-jsonl per token (a request line, then one line per token), or
 * tokentime-csv (a requests file and a tokens file).
 */
public final class CanonicalWriter implements RunGenerator.Sink, AutoCloseable {

  public enum Form { REQUESTS, TOKENS, CSV }

  private final Form form;
  private final Writer main;
  private final Writer tokens;
  private final StringBuilder sb = new StringBuilder(1 << 16);
  private long bytes;

  /**
   * @param file the JSONL file, or for CSV the requests file (tokens go beside it, named
   *     with "tokens" in place of "requests")
   */
  public CanonicalWriter(Path file, Form form, boolean gzip) throws IOException {
    this.form = form;
    this.main = open(file, gzip);
    if (form == Form.CSV) {
      Path tok = file.resolveSibling(file.getFileName().toString().replace("requests", "tokens"));
      if (tok.equals(file)) {
        throw new IllegalArgumentException("a CSV requests file name must contain 'requests'");
      }
      this.tokens = open(tok, gzip);
      main.write("request_id,run,concurrency,phase,arrival_ns,queued_ns,scheduled_ns,first_token_ns,"
          + "last_token_ns,finished_ns,prompt_tokens,output_tokens,status,finish_reason\n");
      tokens.write("request_id,run,seq,ts_ns,n_tokens\n");
    } else {
      this.tokens = null;
    }
  }

  private static Writer open(Path p, boolean gzip) throws IOException {
    OutputStream out = Files.newOutputStream(p);
    if (gzip) {
      out = new GZIPOutputStream(out, 1 << 16);
    }
    return new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 20);
  }

  @Override
  public void accept(RunGenerator.Request r) throws IOException {
    sb.setLength(0);
    if (form == Form.CSV) {
      sb.append(r.id).append(',').append(r.run).append(',').append(r.level).append(',')
          .append(r.phase).append(',').append(r.arrivalNs).append(',').append(r.queuedNs).append(',')
          .append(r.scheduledNs).append(',').append(opt(r.firstTokenNs)).append(',')
          .append(opt(r.lastTokenNs)).append(',').append(r.finishedNs).append(',')
          .append(r.promptTokens).append(',').append(r.outputTokens).append(',').append(r.status)
          .append(',').append(r.finishReason == null ? "" : r.finishReason).append('\n');
      main.write(sb.toString());
      bytes += sb.length();
      for (int k = 0; k < r.tokensNs.length; k++) {
        sb.setLength(0);
        sb.append(r.id).append(',').append(r.run).append(',').append(k).append(',')
            .append(r.tokensNs[k]).append(",1\n");
        tokens.write(sb.toString());
        bytes += sb.length();
      }
      return;
    }
    sb.append("{\"request_id\":\"").append(r.id).append("\",\"run\":\"").append(r.run)
        .append("\",\"concurrency\":").append(r.level).append(",\"phase\":\"").append(r.phase)
        .append("\",\"clock\":\"wall\",\"arrival_ns\":").append(r.arrivalNs)
        .append(",\"queued_ns\":").append(r.queuedNs).append(",\"scheduled_ns\":").append(r.scheduledNs);
    if (r.firstTokenNs > 0) {
      sb.append(",\"first_token_ns\":").append(r.firstTokenNs).append(",\"last_token_ns\":").append(r.lastTokenNs);
    }
    sb.append(",\"finished_ns\":").append(r.finishedNs).append(",\"prompt_tokens\":").append(r.promptTokens)
        .append(",\"output_tokens\":").append(r.outputTokens).append(",\"status\":\"").append(r.status).append('"');
    if (r.finishReason != null) {
      sb.append(",\"finish_reason\":\"").append(r.finishReason).append('"');
    }
    if (r.status.equals("error")) {
      sb.append(",\"error\":\"upstream timeout\"");
    }
    if (form == Form.REQUESTS) {
      sb.append(",\"tokens_ns\":[");
      for (int k = 0; k < r.tokensNs.length; k++) {
        if (k > 0) {
          sb.append(',');
        }
        sb.append(r.tokensNs[k]);
      }
      sb.append("]}\n");
    } else {
      sb.append("}\n");
      for (int k = 0; k < r.tokensNs.length; k++) {
        sb.append("{\"request_id\":\"").append(r.id).append("\",\"run\":\"").append(r.run)
            .append("\",\"seq\":").append(k).append(",\"ts_ns\":").append(r.tokensNs[k])
            .append(",\"n_tokens\":1}\n");
      }
    }
    main.write(sb.toString());
    bytes += sb.length();
  }

  private static String opt(long v) {
    return v > 0 ? Long.toString(v) : "";
  }

  /** Characters written (bytes, for this ASCII output). */
  public long bytes() {
    return bytes;
  }

  @Override
  public void close() throws IOException {
    main.close();
    if (tokens != null) {
      tokens.close();
    }
  }
}
