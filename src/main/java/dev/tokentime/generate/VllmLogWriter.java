package dev.tokentime.generate;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.PriorityQueue;
import java.util.zip.GZIPOutputStream;

/**
 * Writes generated requests as a vLLM server log (0.10+ with --enable-log-requests and
 * --enable-log-outputs, behind {@code kubectl logs --timestamps}): per request a Received line,
 * the access line, Added when the engine takes it (after the frontend's input processing: vLLM
 * logs it in AsyncLLM.add_request, before the request waits for a batch slot, so no line marks
 * its scheduling), one "Generated response ... (streaming delta)" line per token and Finished;
 * every 10 s an engine stats line, whose Waiting counts the requests added but not yet scheduled. Lines are in time order across concurrent
 * requests: events wait in a queue until no later request can precede them. The line shapes are
 * those of the real samples (sample-logs/vllm/server.log).
 */
public final class VllmLogWriter implements RunGenerator.Sink, AutoCloseable {
  private static final DateTimeFormatter RFC3339 =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter VLLM = DateTimeFormatter.ofPattern("MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final long STATS_EVERY_NS = 10_000_000_000L;

  private enum Kind { RECEIVED, ACCESS, ADDED, SCHEDULED, TOKEN, FINISHED }

  private record Event(long ts, long order, Kind kind, RunGenerator.Request r, int k) {}

  private final Writer out;
  private final PriorityQueue<Event> pending = new PriorityQueue<>((a, b) ->
      a.ts != b.ts ? Long.compare(a.ts, b.ts) : Long.compare(a.order, b.order));
  private final StringBuilder sb = new StringBuilder(256);
  private long order;
  private long nextStatsNs = -1;
  private int running;
  private int waiting;
  private long promptTokensSinceStats;
  private long genTokensSinceStats;
  private long lines;

  public VllmLogWriter(Path file, boolean gzip) throws IOException {
    OutputStream os = Files.newOutputStream(file);
    if (gzip) {
      os = new GZIPOutputStream(os, 1 << 16);
    }
    this.out = new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), 1 << 20);
  }

  @Override
  public void accept(RunGenerator.Request r) throws IOException {
    // requests come in arrival order: nothing later can precede this arrival
    flushBefore(r.arrivalNs);
    add(r.arrivalNs, Kind.RECEIVED, r, 0);
    add(r.arrivalNs + 50_000, Kind.ACCESS, r, 0);
    add(r.queuedNs, Kind.ADDED, r, 0);
    add(r.scheduledNs, Kind.SCHEDULED, r, 0);
    for (int k = 0; k < r.tokensNs.length; k++) {
      add(r.tokensNs[k], Kind.TOKEN, r, k);
    }
    add(r.finishedNs, Kind.FINISHED, r, 0);
  }

  private void add(long ts, Kind kind, RunGenerator.Request r, int k) {
    pending.add(new Event(ts, order++, kind, r, k));
  }

  private void flushBefore(long ts) throws IOException {
    while (!pending.isEmpty() && pending.peek().ts < ts) {
      write(pending.poll());
    }
  }

  private void write(Event e) throws IOException {
    if (nextStatsNs < 0) {
      nextStatsNs = (e.ts / STATS_EVERY_NS + 1) * STATS_EVERY_NS;
    }
    while (e.ts >= nextStatsNs) {
      stats(nextStatsNs);
      nextStatsNs += STATS_EVERY_NS;
    }
    RunGenerator.Request r = e.r;
    String id = "cmpl-" + r.id;
    switch (e.kind) {
      case RECEIVED -> header(e.ts, "logger.py:43").append("Received request ").append(id)
          .append(": params: SamplingParams(n=1, temperature=0.7, max_tokens=")
          .append(Math.max(1, r.tokensNs.length)).append("), lora_request: None.");
      case ACCESS -> prefix(e.ts).append("INFO:     10.0.0.7:").append(40000 + (int) (r.arrivalNs / 1000 % 20000))
          .append(" - \"POST /v1/completions HTTP/1.1\" ").append(r.status.equals("ok") ? "200 OK" : "500 Internal Server Error");
      case ADDED -> {
        waiting++;
        header(e.ts, "async_llm.py:346").append("Added request ").append(id).append('.');
      }
      case SCHEDULED -> {
        // the scheduler takes it into the batch: vLLM logs no line for this
        waiting--;
        running++;
        promptTokensSinceStats += r.promptTokens;
        return;
      }
      case TOKEN -> {
        genTokensSinceStats++;
        boolean last = e.k == r.tokensNs.length - 1;
        header(e.ts, "logger.py:71").append("Generated response ").append(id)
            .append(" (streaming delta): output: 'tok").append(e.k).append("', output_token_ids: [")
            .append(1000 + e.k).append("], finish_reason: ")
            .append(last && r.finishReason != null ? r.finishReason : "None");
      }
      case FINISHED -> {
        running--;
        header(e.ts, "async_llm.py:408").append("Finished request ").append(id).append('.');
      }
      default -> throw new IllegalStateException();
    }
    line();
  }

  private void stats(long ts) throws IOException {
    double seconds = STATS_EVERY_NS / 1e9;
    header(ts, "loggers.py:123").append("Engine 000: Avg prompt throughput: ")
        .append(String.format("%.1f", promptTokensSinceStats / seconds))
        .append(" tokens/s, Avg generation throughput: ")
        .append(String.format("%.1f", genTokensSinceStats / seconds))
        .append(" tokens/s, Running: ").append(running).append(" reqs, Waiting: ").append(waiting)
        .append(" reqs, GPU KV cache usage: ").append(String.format("%.1f", Math.min(100.0, running * 1.7)))
        .append("%, Prefix cache hit rate: 0.0%");
    line();
    promptTokensSinceStats = 0;
    genTokensSinceStats = 0;
  }

  private StringBuilder prefix(long ts) {
    sb.setLength(0);
    return sb.append(RFC3339.format(Instant.ofEpochSecond(0, ts))).append(" (APIServer pid=1) ");
  }

  private StringBuilder header(long ts, String where) {
    return prefix(ts).append("INFO ").append(VLLM.format(Instant.ofEpochSecond(0, ts)))
        .append(" [").append(where).append("] ");
  }

  private void line() throws IOException {
    sb.append('\n');
    out.append(sb);
    lines++;
  }

  /** Lines written so far. */
  public long lines() {
    return lines;
  }

  @Override
  public void close() throws IOException {
    flushBefore(Long.MAX_VALUE);
    out.close();
  }
}
