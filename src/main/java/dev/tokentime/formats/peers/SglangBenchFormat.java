package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tokentime.formats.json.JsonText;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * SGLang {@code bench_serving --output-file x.jsonl}: one result object per line (it appends a
 * line per run), with {@code --output-details} per-request arrays. Counted in units: one per line,
 * plus one per request entry of its arrays. {@code bench_one_batch_server}'s result lines (one
 * batch of {@code batch_size} requests at once: its latency, TTFT and throughputs) are read the
 * same way, a run each at concurrency batch_size.
 */
public final class SglangBenchFormat extends NamedFormat {

  public SglangBenchFormat() {
    super("sglang-bench-jsonl",
        "runs, requests, tokens, reported_metrics",
        "SGLang bench_serving --output-file JSONL: one run per line (--output-details arrays); bench_one_batch_server result lines");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    // the first record: a script that runs bench_serving may write its own text lines between
    // the runs it appends (sgl-project/sglang#12389: "max_prefill:8192,max_running_requests:64")
    String first = sample.firstLines(8).stream().filter(l -> l.startsWith("{")).findFirst().orElse(null);
    if (first == null) {
      return 0;
    }
    // (lines of late 2024 have no request_throughput: their e2e and retokenized keys are SGLang's)
    boolean sglang = first.startsWith("{") && first.contains("\"backend\"")
        && (first.contains("_e2e_latency_ms\"") || first.contains("\"total_output_tokens_retokenized\""));
    // bench_one_batch_server's result line: {"run_name", "batch_size", "input_len", "output_len", "latency", …}
    boolean oneBatch = first.startsWith("{") && first.contains("\"run_name\"") && first.contains("\"batch_size\"")
        && first.contains("\"input_len\"") && first.contains("\"output_len\"") && first.contains("\"latency\"");
    return sglang ? 90 : oneBatch ? 88 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    RunNames runs = new RunNames(ctx.defaultRun());
    BenchResult result = new BenchResult(BenchResult.Tool.SGLANG, ctx, sink);
    long[] units = {0};
    new LineReader(in).forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) throws IOException {
        if (JsonText.isBlank(buf, off, len)) {
          units[0]++;
          sink.otherLine();
          return;
        }
        int first = off;
        while (first < off + len && (buf[first] == ' ' || buf[first] == '\t')) {
          first++;
        }
        if (buf[first] != '{' && buf[first] != '[' && buf[first] != '"') {
          units[0]++;
          sink.reject(lineNo, "not a JSON record: a line of text among the runs (written by the script"
              + " that ran the benchmark?)", buf, off, len);
          return;
        }
        try (JsonParser p = PeerJson.JSON.createParser(buf, off, len)) {
          try {
            if (p.nextToken() != JsonToken.START_OBJECT) {
              units[0]++;
              sink.reject(lineNo, "not a JSON object", buf, off, len);
              return;
            }
            validate(buf, off, len); // a broken line fails before any of it reaches the sink
            // named only once it is a run: a rejected line before it takes no number
            units[0] += result.read(p, runs.next(), lineNo);
          } catch (IOException e) {
            units[0]++;
            String reason = PeerJson.reason(e);
            sink.reject(lineNo, reason.startsWith("truncated") ? "truncated JSON: the line ends"
                + " inside the record" : reason, buf, off, len);
          }
        }
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {
        units[0]++;
        sink.reject(lineNo, "line of " + length + " bytes is longer than the limit of "
            + LineReader.DEFAULT_MAX_LINE_BYTES + " bytes; skipped", head, 0, headLen);
      }
    });
    return units[0];
  }

  private static void validate(byte[] buf, int off, int len) throws IOException {
    try (JsonParser v = PeerJson.JSON.createParser(buf, off, len)) {
      v.nextToken();
      v.skipChildren();
      if (v.nextToken() != null) {
        throw new com.fasterxml.jackson.core.JsonParseException(v, "more than one JSON value on the line");
      }
    }
  }
}
