package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;

/**
 * TensorRT-LLM's per-request perf metrics ({@code RequestPerfMetrics}), in every shape it leaves:
 * {@code trtllm-serve}'s {@code /perf_metrics} array (drained on read, so polls are often appended
 * to one file), the disaggregated server's records, a worker's JSONL dump, the LLM API's
 * {@code request_perf_metrics} dumped as JSON, and the Triton TensorRT-LLM backend's
 * {@code *_time_ns} output tensors. Each object is a request on the server's steady clock;
 * per-step token times, when present, become its tokens. Counted in records (objects).
 */
public final class PerfMetricsFormat extends NamedFormat {

  public PerfMetricsFormat() {
    super("trtllm-perf-metrics",
        "requests, tokens",
        "TensorRT-LLM /perf_metrics, disaggregated records, request_perf_metrics, Triton *_time_ns outputs");
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    if (!text.startsWith("[") && !text.startsWith("{")) {
      return 0;
    }
    if (text.contains("\"ctx_perf_metrics\"") || text.contains("\"gen_perf_metrics\"")
        || text.contains("\"disagg_server_arrival_time\"")) {
      return 95;
    }
    if (text.contains("\"timing_metrics\"") && (text.contains("\"arrival_time\"")
        || text.contains("\"first_token_time\"") || text.contains("\"last_token_time\""))) {
      return 95;
    }
    if (text.contains("\"arrival_time_ns\"") && text.contains("\"first_token_time_ns\"")) {
      return 90;
    }
    return 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    Reader r = new Reader(ctx, sink);
    return new JsonRecordReader("expected a perf-metrics object").read(in, sink, r::object);
  }

  /** The state of one file's parse. */
  private static final class Reader {
    final ParseContext ctx;
    final RecordSink sink;
    final RequestRecord req = new RequestRecord();
    int serverClock;
    int disaggClock;
    int tritonClock;
    long objects;

    Reader(ParseContext ctx, RecordSink sink) {
      this.ctx = ctx;
      this.sink = sink;
    }

    void object(JsonNode node, long lineNo, byte[] raw, int off, int len) {
      long index = objects++;
      req.reset();
      req.lineNo = lineNo;
      req.run = ctx.defaultRun();
      req.engine = "trtllm";
      req.status = "ok";
      long[] tokens;
      boolean oneTokenEach = true;
      try {
        if (DisaggPerf.is(node)) {
          tokens = DisaggPerf.fill(node, req);
          req.clockId = disaggClock();
          oneTokenEach = !req.extras.containsKey("gen.spec_decoding.total_draft_tokens")
              || "0".equals(req.extras.get("gen.spec_decoding.total_draft_tokens"));
        } else if (TritonPerfOutputs.is(node)) {
          TritonPerfOutputs.fill(node, req, ctx.keepText());
          req.engine = "triton-trtllm";
          req.clockId = tritonClock();
          tokens = new long[0];
        } else {
          JsonNode perf = node;
          String path = "";
          if (node.has("request_perf_metrics")) { // an LLM API output dumped with its id
            perf = Fields.object(node, "request_perf_metrics", "");
            path = "request_perf_metrics.";
          } else if (!node.has("perf_metrics") && !node.has("timing_metrics")) {
            throw new PeerJson.Bad("not a perf-metrics record: no perf_metrics, timing_metrics,"
                + " ctx_perf_metrics or *_time_ns field");
          }
          WorkerPerf w = WorkerPerf.read(perf, path, "", req.extras);
          String id = perf == node ? w.requestId : Fields.id(node, "request_id", "");
          req.requestId = id != null ? id : w.requestId;
          TimingMetrics t = w.timing;
          req.arrivalNs = t.arrival;
          req.queuedNs = t.arrival; // the executor queues a request as it arrives
          req.scheduledNs = t.firstScheduled;
          req.firstTokenNs = t.firstToken;
          req.lastTokenNs = t.lastToken;
          req.firstIter = w.firstIter;
          req.lastIter = w.lastIter;
          req.clockId = serverClock();
          tokens = w.stepTokens.length > 0 ? w.tokenTimes() : new long[0];
          oneTokenEach = !w.speculative;
        }
        status(req);
      } catch (PeerJson.Bad e) {
        sink.reject(lineNo, e.getMessage(), raw, off, len);
        return;
      }
      if (req.requestId == null) {
        req.requestId = "#" + index; // its place in the file
      }
      String range = dev.tokentime.ingest.Checked.tokensProblem(tokens, tokens.length);
      if (range != null) {
        sink.reject(lineNo, range, raw, off, len); // before the request is stored
        return;
      }
      long key = sink.request(req, raw, off, len);
      if (key < 0) {
        return; // a duplicate id: rejected by the sink, naming the first
      }
      for (int i = 0; i < tokens.length; i++) {
        sink.token(key, i, tokens[i], oneTokenEach ? 1 : -1, ChunkKind.CONTENT);
      }
      if (tokens.length > 0) {
        sink.endOfStream(key);
      }
      sink.record();
    }

    /** A record's status field (newer dumps): error and cancellation words map to the canonical ones. */
    private static void status(RequestRecord req) {
      String s = req.extras.getOrDefault("status", req.extras.get("disagg.status"));
      if (s == null) {
        return;
      }
      String l = s.toLowerCase(java.util.Locale.ROOT);
      if (l.contains("cancel") || l.contains("abort")) {
        req.status = "cancelled";
      } else if (l.contains("error") || l.contains("fail")) {
        req.status = "error";
        req.error = s;
      }
    }

    int serverClock() {
      if (serverClock == 0) {
        serverClock = sink.clock(new ClockSpec("steady", "TensorRT-LLM server steady_clock"
            + " (CLOCK_MONOTONIC, seconds since boot) (" + ctx.sourceName() + ")", 1_000, null, false));
      }
      return serverClock;
    }

    int disaggClock() {
      if (disaggClock == 0) {
        disaggClock = sink.clock(new ClockSpec("steady", "TensorRT-LLM disaggregated servers'"
            + " steady_clock, aligned by /steady_clock_offset (" + ctx.sourceName() + ")", 1_000,
            null, false));
      }
      return disaggClock;
    }

    int tritonClock() {
      if (tritonClock == 0) {
        tritonClock = sink.clock(new ClockSpec("steady", "Triton TensorRT-LLM backend steady_clock"
            + " (ns since boot) (" + ctx.sourceName() + ")", 1, null, false));
      }
      return tritonClock;
    }
  }
}
