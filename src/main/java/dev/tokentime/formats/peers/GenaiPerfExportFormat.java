package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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
import java.util.ArrayList;
import java.util.List;

/**
 * genai-perf's raw export, {@code profile_export.json} (written by perf_analyzer): experiments,
 * each a run at a concurrency or request rate, each holding requests with their send time and
 * the time of every response. Read with a streaming parser, one request at a time, since the
 * file can be large. Counted in records, not lines: one per request, plus one for the document.
 */
public final class GenaiPerfExportFormat extends NamedFormat {

  public GenaiPerfExportFormat() {
    super("genai-perf-export",
        "runs, requests, tokens",
        "genai-perf / perf_analyzer profile_export.json: per-request send and response times");
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (!text.startsWith("{") || !text.contains("\"experiments\"")) {
      return 0;
    }
    boolean named = sample.fileName() != null && sample.fileName().contains("profile_export")
        && !sample.fileName().contains("genai_perf");
    boolean shaped = text.contains("\"response_timestamps\"") || text.contains("\"experiment\"");
    return shaped ? (named ? 95 : 85) : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    return new Reader(ctx, sink).read(in);
  }

  /** The state of one file's parse. */
  private static final class Reader {
    final ParseContext ctx;
    final RecordSink sink;
    final RunNames runs;
    final RequestRecord req = new RequestRecord();
    int clockId;
    String serviceKind;
    String endpoint;
    long units;
    int experiment;
    /** Line of a request whose unit is counted but not yet recorded or rejected, else -1. */
    long pending = -1;

    Reader(ParseContext ctx, RecordSink sink) {
      this.ctx = ctx;
      this.sink = sink;
      this.runs = new RunNames(ctx.defaultRun());
    }

    long read(InputStream in) throws IOException {
      clockId = sink.clock(new ClockSpec("client",
          "perf_analyzer system_clock, Unix epoch ns (" + ctx.sourceName() + ")", 1, null, false));
      units = 1; // the document itself
      long docLine = 1;
      try (JsonParser p = PeerJson.JSON.createParser(in)) {
        try {
          if (p.nextToken() != JsonToken.START_OBJECT) {
            sink.reject(1, "not a genai-perf profile export: expected a JSON object", null, 0, 0);
            return units;
          }
          JsonToken t;
          while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            docLine = PeerJson.line(p);
            p.nextToken();
            switch (name) {
              case "service_kind" -> serviceKind = p.getValueAsString();
              case "endpoint" -> endpoint = p.getValueAsString();
              case "experiments" -> {
                if (p.currentToken() != JsonToken.START_ARRAY) {
                  throw new PeerJson.Bad("experiments: expected an array, got " + PeerJson.describe(p));
                }
                while (p.nextToken() == JsonToken.START_OBJECT) {
                  readExperiment(p);
                }
              }
              default -> p.skipChildren();
            }
          }
          if (t != JsonToken.END_OBJECT) {
            throw new PeerJson.Bad("not a JSON object");
          }
          sink.otherLine();
          units += PeerJson.trailing(p, sink, "export object", "a profile export holds one");
        } catch (PeerJson.Bad e) {
          sink.reject(docLine, e.getMessage(), null, 0, 0);
        } catch (IOException e) {
          String reason = PeerJson.reason(e) + "; nothing after this point could be read";
          if (pending >= 0) {
            sink.reject(pending, reason, null, 0, 0); // the request it broke off in
            sink.otherLine(); // the document, whose remaining requests are unreadable
          } else {
            sink.reject(Math.max(1, PeerJson.line(p)), reason, null, 0, 0);
          }
        }
      }
      return units;
    }

    private void readExperiment(JsonParser p) throws IOException, PeerJson.Bad {
      experiment++;
      String run = runs.nth(experiment);
      int index = 0;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        switch (name) {
          case "experiment" -> level(run, PeerJson.TREE.readTree(p), PeerJson.line(p));
          case "requests" -> {
            if (p.currentToken() != JsonToken.START_ARRAY) {
              throw new PeerJson.Bad("requests: expected an array, got " + PeerJson.describe(p));
            }
            JsonToken r;
            while ((r = p.nextToken()) != JsonToken.END_ARRAY) {
              long line = PeerJson.line(p);
              units++;
              pending = line;
              if (r != JsonToken.START_OBJECT) {
                p.skipChildren();
                sink.reject(line, "requests[" + index + "]: expected an object", null, 0, 0);
              } else {
                request(run, index, line, PeerJson.TREE.readTree(p));
              }
              pending = -1;
              index++;
            }
          }
          default -> p.skipChildren();
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw new PeerJson.Bad("experiments: expected objects");
      }
    }

    private void level(String run, JsonNode e, long line) {
      String mode = e.path("mode").asText(null);
      JsonNode v = e.get("value");
      String kind = "concurrency".equals(mode) ? "concurrency"
          : "request_rate".equals(mode) ? "request_rate" : null;
      Double value = v != null && v.isNumber() ? v.asDouble() : null;
      if (kind == null || value == null || value <= 0) {
        sink.runLevel(run, null, null, null, "genai-perf experiment");
        return;
      }
      String conflict = sink.runLevel(run, kind, value, null, "genai-perf experiment");
      if (conflict != null) {
        // the experiment header is a record of its own then: rejected, its requests still read
        units++;
        sink.reject(line, "experiment: " + conflict, null, 0, 0);
      }
    }

    private void request(String run, int index, long line, JsonNode r) {
      try {
        emit(run, index, line, r);
      } catch (PeerJson.Bad e) {
        sink.reject(line, "requests[" + index + "]: " + e.getMessage(), null, 0, 0);
      }
    }

    private void emit(String run, int index, long line, JsonNode r) throws PeerJson.Bad {
      req.reset();
      req.lineNo = line;
      req.run = run;
      req.requestId = Integer.toString(index);
      req.clockId = clockId;
      req.engine = "genai-perf";
      req.arrivalNs = nonNegative(r.get("timestamp"), "timestamp");
      long[] ts = timestamps(r.get("response_timestamps"));
      JsonNode outputs = r.get("response_outputs");
      // perf_analyzer wrote no response_outputs before genai-perf needed them (its 2023 exports, the
      // decoupled-model example of its docs): each response time is then a response of unknown
      // size, as perf_analyzer's own LLM scripts of the time read them (first-token latency from
      // response_timestamps[0])
      boolean timesOnly = outputs == null || outputs.isNull();
      if (timesOnly) {
        outputs = PeerJson.TREE.createArrayNode();
      }
      if (!outputs.isArray()) {
        throw new PeerJson.Bad("response_outputs: expected an array");
      }
      if (!timesOnly && outputs.size() != ts.length) {
        throw new PeerJson.Bad("response_outputs has " + outputs.size()
            + " entries but response_timestamps has " + ts.length);
      }
      for (int i = 0; i < ts.length; i++) {
        if (ts[i] < (i == 0 ? req.arrivalNs : ts[i - 1])) {
          throw new PeerJson.Bad("timestamps decrease: response_timestamps[" + i + "] (" + ts[i]
              + ") is before " + (i == 0 ? "timestamp (" + req.arrivalNs : "response_timestamps["
              + (i - 1) + "] (" + ts[i - 1]) + ")");
        }
      }
      Chunks chunks = timesOnly ? timesOnly(ts.length) : chunks(outputs);
      inputs(r.get("request_inputs"));
      if (r.hasNonNull("sequence_id")) {
        req.extras.put("sequence_id", r.get("sequence_id").asText());
      }
      String kind = serviceKind != null ? serviceKind : chunks.kind;
      if (kind != null) {
        req.extras.put("service_kind", kind);
      }
      if (endpoint != null) {
        req.extras.put("endpoint", endpoint);
      }
      if (chunks.nonGenerative) {
        // embeddings and rankings answer without tokens: a request with a latency, never "empty"
        req.extras.put("output_kind", "none");
      }
      if (ts.length > 0) {
        req.finishedNs = ts[ts.length - 1];
      }
      req.status = "ok";
      if (chunks.error != null) {
        req.status = "error";
        req.error = chunks.error;
      } else if (ts.length == 0) {
        req.status = "error";
        req.error = "no response received";
      }
      if (chunks.outputTokens != null) {
        req.outputTokens = chunks.outputTokens;
      }
      if (chunks.promptTokens != null && req.promptTokens == null) {
        req.promptTokens = chunks.promptTokens;
      }
      String range = dev.tokentime.ingest.Checked.tokensProblem(ts, ts.length);
      if (range != null) {
        throw new PeerJson.Bad("response_timestamps: " + range); // before the request is stored
      }
      long key = sink.request(req, null, 0, 0);
      if (key < 0) {
        return;
      }
      for (int i = 0; i < ts.length; i++) {
        sink.token(key, i, ts[i], chunks.nTokens[i], chunks.kinds[i]);
      }
      sink.record();
    }

    /** The request inputs tokentime can use without a tokenizer: session, and ids when given. */
    private void inputs(JsonNode in) {
      if (in == null || !in.isObject()) {
        return;
      }
      if (in.hasNonNull("session_id")) {
        req.extras.put("session_id", in.get("session_id").asText());
      }
      JsonNode ids = in.get("input_ids");
      if (ids != null && ids.isArray()) {
        req.promptTokens = ids.size();
      }
      if (ctx.keepText()) {
        if (in.has("payload")) {
          req.extras.put("payload", in.get("payload").asText());
        } else if (in.has("text_input")) {
          req.extras.put("text_input", in.get("text_input").toString());
        }
      }
    }

    /** Responses whose outputs were not recorded: content of an unknown number of tokens each. */
    private static Chunks timesOnly(int n) {
      Chunks c = new Chunks(n);
      java.util.Arrays.fill(c.kinds, ChunkKind.CONTENT);
      return c;
    }

    /** The kinds and token counts of the responses, by the shape perf_analyzer recorded. */
    private Chunks chunks(JsonNode outputs) throws PeerJson.Bad {
      int n = outputs.size();
      Chunks c = new Chunks(n);
      List<String> sse = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        JsonNode o = outputs.get(i);
        if (o == null || !o.isObject()) {
          throw new PeerJson.Bad("response_outputs[" + i + "]: expected an object");
        }
        if (o.has("response")) {
          c.kind = "openai";
          sse.add(o.get("response").isNull() ? "" : o.get("response").asText());
        } else if (o.has("text_output")) {
          c.kind = "triton";
          String text = o.get("text_output").isNull() ? "" : o.get("text_output").asText();
          c.kinds[i] = text.isEmpty() ? ChunkKind.EMPTY : ChunkKind.CONTENT;
        } else if (o.has("output_ids")) {
          c.kind = "triton_c_api";
          JsonNode ids = o.get("output_ids");
          int k = ids.isArray() ? ids.size() : ids.isIntegralNumber() ? 1 : 0;
          c.kinds[i] = k > 0 ? ChunkKind.CONTENT : ChunkKind.EMPTY;
          c.nTokens[i] = k;
          c.outputTokens = (c.outputTokens == null ? 0 : c.outputTokens) + k;
        } else {
          c.kinds[i] = ChunkKind.EMPTY;
        }
      }
      if (!sse.isEmpty()) {
        if (sse.size() != n) {
          throw new PeerJson.Bad("response_outputs mixes response with other shapes");
        }
        SseResponses s = SseResponses.classify(sse);
        System.arraycopy(s.kinds, 0, c.kinds, 0, n);
        c.error = s.error;
        c.nonGenerative = s.nonGenerative;
        c.outputTokens = s.completionTokens;
        c.promptTokens = s.promptTokens;
      }
      return c;
    }

    private static long nonNegative(JsonNode v, String field) throws PeerJson.Bad {
      if (v == null || v.isNull()) {
        throw new PeerJson.Bad(field + " is missing");
      }
      if (!v.isIntegralNumber() || !v.canConvertToLong()) {
        throw new PeerJson.Bad(field + ": expected an integer (ns), got " + shortText(v));
      }
      if (v.asLong() < 0) {
        throw new PeerJson.Bad(field + ": negative timestamp " + v.asLong());
      }
      return v.asLong();
    }

    private static long[] timestamps(JsonNode a) throws PeerJson.Bad {
      if (a == null || a.isNull()) {
        return new long[0];
      }
      if (!a.isArray()) {
        throw new PeerJson.Bad("response_timestamps: expected an array, got " + shortText(a));
      }
      long[] out = new long[a.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = nonNegative(a.get(i), "response_timestamps[" + i + "]");
      }
      return out;
    }

    private static String shortText(JsonNode v) {
      return PeerJson.quote(v.toString());
    }
  }

  /** Kinds and token counts of one request's responses. */
  private static final class Chunks {
    final ChunkKind[] kinds;
    final int[] nTokens;
    String kind;
    String error;
    boolean nonGenerative;
    Integer outputTokens;
    Integer promptTokens;

    Chunks(int n) {
      kinds = new ChunkKind[n];
      nTokens = new int[n];
      java.util.Arrays.fill(nTokens, -1);
    }
  }
}
