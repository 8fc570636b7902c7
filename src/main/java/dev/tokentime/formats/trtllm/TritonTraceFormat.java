package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
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
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The trace file of Triton Inference Server ({@code --trace-config triton,file=...}, level
 * TIMESTAMPS): a JSON array of fragments, several per trace id — its model, then one per
 * timestamp ({@code REQUEST_START}, {@code QUEUE_START}, {@code COMPUTE_START},
 * {@code COMPUTE_END}, {@code REQUEST_END}, one {@code INFER_RESPONSE_COMPLETE} per streamed
 * response, the frontend's {@code HTTP_*}/{@code GRPC_*}) — also the 2019 format with every
 * timestamp inline and lowercase names. Steady-clock ns.
 *
 * <p>Fragments are merged by id with bounded memory: a trace is emitted as a request once its
 * {@code REQUEST_END} is in and its frontend has sent the response (or {@value #GRACE} fragments
 * later, for stamps written after {@code REQUEST_END}); at most {@value #MAX_OPEN} traces are held
 * open. The array may lack its closing bracket (Triton closes it at shutdown). Counted in
 * records: one per fragment; {@code TENSORS}-level activity fragments are other lines.
 */
public final class TritonTraceFormat extends NamedFormat {
  static final int GRACE = 1024;
  static final int MAX_OPEN = 100_000;

  private final int maxOpen;

  public TritonTraceFormat() {
    this(MAX_OPEN);
  }

  /** With another cap on open traces (tests). */
  TritonTraceFormat(int maxOpen) {
    super("triton-trace",
        "requests, tokens",
        "Triton Inference Server trace file (--trace-config triton): per-request timestamps, per-response completions");
    this.maxOpen = maxOpen;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (!text.startsWith("[")) {
      return 0;
    }
    boolean fragments = text.contains("\"timestamps\"") && text.contains("\"ns\"");
    boolean names = text.contains("REQUEST_START") || text.contains("QUEUE_START")
        || text.contains("COMPUTE_START") || text.contains("HTTP_RECV_START")
        || text.contains("GRPC_WAITREAD_START") || text.contains("\"queue start\"")
        || text.contains("\"compute start\"");
    return fragments && names ? 92 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    return new Assembler(ctx, sink, maxOpen).read(in);
  }

  /** The open traces of one file's parse. */
  private static final class Assembler {
    final ParseContext ctx;
    final RecordSink sink;
    final RequestRecord req = new RequestRecord();
    final Map<String, TraceState> open = new LinkedHashMap<>();
    /** Ended traces waiting for late stamps: {trace, fragment count when it ended}. */
    final ArrayDeque<Object[]> closing = new ArrayDeque<>();
    /** Ids emitted lately: a fragment for one of them came too late to be merged. */
    final Map<String, Boolean> emitted = new LinkedHashMap<>(16, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Boolean> e) {
        return size() > 4 * GRACE;
      }
    };
    final int maxOpen;
    int clockId;
    long units;

    Assembler(ParseContext ctx, RecordSink sink, int maxOpen) {
      this.ctx = ctx;
      this.sink = sink;
      this.maxOpen = maxOpen;
    }

    long read(InputStream in) throws IOException {
      clockId = sink.clock(new ClockSpec("steady", "Triton trace steady clock (ns) ("
          + ctx.sourceName() + ")", 1, null, false));
      long line = 1;
      boolean pending = false;
      try (JsonParser p = PeerJson.JSON.createParser(in)) {
        try {
          JsonToken t;
          while ((t = p.nextToken()) != null) {
            line = PeerJson.line(p);
            if (t != JsonToken.START_ARRAY) {
              units++;
              p.skipChildren();
              sink.reject(line, "expected an array of trace fragments", null, 0, 0);
              continue;
            }
            while ((t = nextInArray(p)) != JsonToken.END_ARRAY && t != null) {
              line = PeerJson.line(p);
              units++;
              pending = true;
              JsonNode f = PeerJson.TREE.readTree(p);
              pending = false;
              fragment(f, line);
            }
            if (t == null) {
              break; // the array was never closed: Triton closes it at shutdown
            }
          }
        } catch (IOException e) {
          if (!pending) {
            units++;
          }
          sink.reject(Math.max(line, PeerJson.line(p)), PeerJson.reason(e)
              + "; nothing after this point could be read", null, 0, 0);
        }
      }
      finish();
      return units;
    }

    /** The next element's first token, or null at the end of input between elements. */
    private static JsonToken nextInArray(JsonParser p) throws IOException {
      try {
        return p.nextToken();
      } catch (JsonEOFException e) {
        return null;
      } catch (com.fasterxml.jackson.core.JsonParseException e) {
        String m = e.getOriginalMessage();
        if (m != null && m.startsWith("Unexpected end-of-input")) {
          return null; // after an element's comma
        }
        throw e;
      }
    }

    private void fragment(JsonNode f, long line) {
      if (f == null || !f.isObject()) {
        sink.reject(line, "expected a trace fragment object", null, 0, 0);
        return;
      }
      String id;
      try {
        id = Fields.id(f, "id", "");
      } catch (PeerJson.Bad e) {
        sink.reject(line, e.getMessage(), null, 0, 0);
        return;
      }
      if (id == null) {
        sink.reject(line, "trace fragment without an id", null, 0, 0);
        return;
      }
      JsonNode stamps = f.get("timestamps");
      boolean meta = f.has("model_name") || f.has("parent_id") || f.has("request_id");
      if (stamps == null && !meta) {
        sink.otherLine(); // a TENSORS activity record: nothing tokentime keeps
        return;
      }
      TraceState t = open.get(id);
      if (t == null && emitted.containsKey(id)) {
        sink.reject(line, "trace " + id + ": fragment after the trace was emitted (more than "
            + GRACE + " fragments after its REQUEST_END)", null, 0, 0);
        return;
      }
      if (t == null) {
        if (open.size() >= maxOpen) {
          evictOldest();
        }
        t = new TraceState(id, line);
        open.put(id, t);
      }
      t.fragments++;
      try {
        read(f, stamps, t);
      } catch (PeerJson.Bad e) {
        t.fragments--;
        sink.reject(line, "trace " + id + ": " + e.getMessage(), null, 0, 0);
        return;
      }
      if (t.ended && t.sent()) {
        complete(t);
      } else if (t.ended && !closingContains(t)) {
        closing.add(new Object[] {t, units});
      }
      drainClosing();
    }

    private void read(JsonNode f, JsonNode stamps, TraceState t) throws PeerJson.Bad {
      String v;
      if ((v = Fields.id(f, "model_name", "")) != null) {
        t.modelName = v;
      }
      if ((v = Fields.id(f, "model_version", "")) != null) {
        t.modelVersion = v;
      }
      if ((v = Fields.id(f, "request_id", "")) != null) {
        t.clientRequestId = v;
      }
      if ((v = Fields.id(f, "parent_id", "")) != null && !v.equals("0")) {
        t.parentId = v;
      }
      if (stamps == null) {
        return;
      }
      if (!stamps.isArray()) {
        throw new PeerJson.Bad("timestamps: expected an array");
      }
      for (JsonNode s : stamps) {
        String name = Fields.id(s, "name", "timestamps.");
        long ns = Fields.nanos(s, "ns", "timestamps.");
        if (name == null || ns == RequestRecord.NONE) {
          throw new PeerJson.Bad("timestamps: an entry without name or ns");
        }
        t.stamp(TraceState.canonicalName(name), ns);
      }
    }

    private boolean closingContains(TraceState t) {
      for (Object[] c : closing) {
        if (c[0] == t) {
          return true;
        }
      }
      return false;
    }

    private void drainClosing() {
      while (!closing.isEmpty()) {
        Object[] head = closing.peekFirst();
        TraceState t = (TraceState) head[0];
        if (open.get(t.id) != t) {
          closing.pollFirst(); // emitted already
        } else if (units - (long) head[1] > GRACE) {
          closing.pollFirst();
          complete(t);
        } else {
          return;
        }
      }
    }

    /** A trace is done: a child is folded into its open parent, anything else is emitted. */
    private void complete(TraceState t) {
      open.remove(t.id);
      if (t.parentId != null) {
        TraceState parent = open.get(t.parentId);
        if (parent == null) {
          if (open.size() >= maxOpen) {
            evictOldest();
          }
          parent = new TraceState(t.parentId, t.firstLine); // its fragments may follow
          open.put(t.parentId, parent);
        }
        parent.adopt(t);
        return;
      }
      emit(t);
    }

    private void emit(TraceState t) {
      emitted.put(t.id, Boolean.TRUE);
      req.reset();
      req.lineNo = t.firstLine;
      req.run = ctx.defaultRun();
      req.clockId = clockId;
      long[] tokens;
      try {
        tokens = t.fill(req);
      } catch (PeerJson.Bad e) {
        rejectAll(t, e.getMessage());
        return;
      }
      String range = dev.tokentime.ingest.Checked.tokensProblem(tokens, tokens.length);
      if (range != null) {
        rejectAll(t, range); // before the request is stored
        return;
      }
      long key = sink.request(req, null, 0, 0);
      int units = t.units();
      if (key < 0) { // the sink rejected one unit, naming the first trace of the id
        for (int i = 1; i < units; i++) {
          sink.reject(t.firstLine, "trace " + t.id + ": duplicate trace id (fragment " + (i + 1)
              + " of " + units + ")", null, 0, 0);
        }
        return;
      }
      for (int i = 0; i < tokens.length; i++) {
        sink.token(key, i, tokens[i], -1, ChunkKind.CONTENT);
      }
      if (tokens.length > 0) {
        sink.endOfStream(key);
      }
      for (int i = 0; i < units; i++) {
        sink.record();
      }
    }

    private void rejectAll(TraceState t, String reason) {
      int units = t.units();
      for (int i = 0; i < units; i++) {
        sink.reject(t.firstLine, reason + (units > 1 ? " (fragment " + (i + 1) + " of "
            + units + ")" : ""), null, 0, 0);
      }
    }

    private void evictOldest() {
      Iterator<TraceState> it = open.values().iterator();
      TraceState oldest = it.next();
      it.remove();
      rejectAll(oldest, "trace " + oldest.id + ": more than " + maxOpen
          + " traces open at once; dropped before its REQUEST_END");
    }

    /**
     * At the end: ended traces are emitted (or folded into their parent); a parent known only from
     * its children (its own fragments never came) lets them stand as requests of their own; a
     * trace without REQUEST_END is rejected (the file was cut, or Triton was still running).
     */
    private void finish() {
      // children first, so each is folded into its ensemble before that is emitted
      for (boolean children : new boolean[] {true, false}) {
        for (TraceState t : open.values().toArray(new TraceState[0])) {
          if (open.get(t.id) == t && t.ended && (t.parentId != null) == children) {
            complete(t);
          }
        }
      }
      for (TraceState t : open.values().toArray(new TraceState[0])) {
        open.remove(t.id);
        if (t.fragments == 0) {
          for (TraceState orphan : t.kids) {
            emit(orphan);
          }
        } else {
          rejectAll(t, "trace " + t.id + ": no REQUEST_END before the end of the file");
        }
      }
    }
  }
}
