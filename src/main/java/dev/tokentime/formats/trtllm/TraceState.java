package dev.tokentime.formats.trtllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.RequestRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the fragments of one Triton trace said so far (the trace file repeats an id in one fragment
 * per timestamp, plus one with its model), and how it becomes a request row: arrival at the
 * frontend's receive (else {@code REQUEST_START}), queued at {@code QUEUE_START}, scheduled at
 * {@code COMPUTE_START}, one token per {@code INFER_RESPONSE_COMPLETE}, finished when the response
 * was sent (else {@code REQUEST_END}). Child traces (an ensemble's or BLS's composing models) are
 * folded into their parent as per-model queue and compute times.
 */
final class TraceState {
  final String id;
  final long firstLine;
  String parentId;
  String modelName;
  String modelVersion;
  String clientRequestId;
  /** Its own fragments (units). */
  int fragments;
  final Map<String, Long> stamps = new LinkedHashMap<>();
  long[] responses = new long[4];
  int nResponses;
  /** Finished child traces (composing models), folded in when this trace is emitted. */
  final List<TraceState> kids = new ArrayList<>();
  boolean ended;

  TraceState(String id, long firstLine) {
    this.id = id;
    this.firstLine = firstLine;
  }

  /** The old (2019) lowercase names, as today's. */
  static String canonicalName(String name) {
    String n = name.strip().toUpperCase(Locale.ROOT).replace(' ', '_');
    return switch (n) {
      case "REQUEST_HANDLER_START" -> "REQUEST_START";
      case "REQUEST_HANDLER_END" -> "REQUEST_END";
      default -> n;
    };
  }

  void stamp(String name, long ns) {
    if (name.equals("INFER_RESPONSE_COMPLETE")) {
      if (nResponses == responses.length) {
        responses = Arrays.copyOf(responses, nResponses * 2);
      }
      responses[nResponses++] = ns;
      return;
    }
    stamps.putIfAbsent(name, ns);
    if (name.equals("REQUEST_END")) {
      ended = true;
    }
  }

  /**
   * Whether the frontend's last timestamp is in, so nothing more of this trace will come. Its
   * stamps may all come after REQUEST_END (a gRPC trace writes GRPC_WAITREAD_START … GRPC_SEND_END
   * after it), so a trace without them yet is not done: it waits its grace (or the file's end),
   * as one from Triton's in-process API, which has none, does. A composing model's trace (it has
   * a parent) never has them: it is done at its REQUEST_END, folded into its ensemble's before
   * that is sent.
   */
  boolean sent() {
    return ended && (parentId != null || stamps.containsKey("HTTP_SEND_END") || stamps.containsKey("GRPC_SEND_END"));
  }

  /** Keeps a finished child trace, to fold in when this one is emitted. */
  void adopt(TraceState child) {
    kids.add(child);
  }

  /** Units this trace accounts for: its fragments and its children's. */
  int units() {
    int n = fragments;
    for (TraceState k : kids) {
      n += k.units();
    }
    return n;
  }

  /** Per composing model (children and theirs): {executions, queue ns, compute ns}. */
  private void children(Map<String, long[]> out) {
    for (TraceState k : kids) {
      long[] c = out.computeIfAbsent(k.modelName == null ? "child" : k.modelName, x -> new long[3]);
      c[0]++;
      c[1] += span(k, "QUEUE_START", "COMPUTE_START");
      c[2] += span(k, "COMPUTE_START", "COMPUTE_END");
      k.children(out);
    }
  }

  private static long span(TraceState t, String from, String to) {
    Long a = t.stamps.get(from);
    Long b = t.stamps.get(to);
    return a != null && b != null && b >= a ? b - a : 0;
  }

  private long at(String... names) {
    for (String n : names) {
      Long v = stamps.get(n);
      if (v != null) {
        return v;
      }
    }
    return NONE;
  }

  /** Fills the request row; returns the response times in order (the tokens). */
  long[] fill(RequestRecord req) throws PeerJson.Bad {
    req.requestId = id;
    req.engine = "triton";
    req.arrivalNs = at("HTTP_RECV_START", "GRPC_WAITREAD_END", "REQUEST_START");
    req.queuedNs = at("QUEUE_START");
    req.scheduledNs = at("COMPUTE_START");
    req.finishedNs = at("HTTP_SEND_END", "GRPC_SEND_END", "REQUEST_END");
    long[] tokens = Arrays.copyOf(responses, nResponses);
    Arrays.sort(tokens);
    long prev = NONE;
    String prevName = null;
    String[] names = {"arrival", "QUEUE_START", "COMPUTE_START", "first INFER_RESPONSE_COMPLETE"};
    long[] chain = {req.arrivalNs, req.queuedNs, req.scheduledNs, tokens.length > 0 ? tokens[0] : NONE};
    for (int i = 0; i < chain.length; i++) {
      if (chain[i] == NONE) {
        continue;
      }
      if (prev != NONE && chain[i] < prev) {
        throw new PeerJson.Bad("timestamps decrease in trace " + id + ": " + names[i] + " is before "
            + prevName);
      }
      prev = chain[i];
      prevName = names[i];
    }
    if (req.finishedNs != NONE && tokens.length > 0 && tokens[tokens.length - 1] > req.finishedNs) {
      // a response completing after REQUEST_END (no send stamp): the request ends with it
      req.finishedNs = tokens[tokens.length - 1];
    }
    if (req.finishedNs != NONE && prev != NONE && req.finishedNs < prev) {
      throw new PeerJson.Bad("timestamps decrease in trace " + id + ": the end is before " + prevName);
    }
    for (var e : stamps.entrySet()) {
      req.extras.put(e.getKey().toLowerCase(Locale.ROOT) + "_ns", Long.toString(e.getValue()));
    }
    put(req, "model_name", modelName);
    put(req, "model_version", modelVersion);
    put(req, "triton_request_id", clientRequestId);
    put(req, "parent_id", parentId);
    Map<String, long[]> children = new LinkedHashMap<>();
    children(children);
    for (var e : children.entrySet()) {
      long[] c = e.getValue();
      req.extras.put(e.getKey() + ".executions", Long.toString(c[0]));
      req.extras.put(e.getKey() + ".queue_ms", Double.toString(c[1] / 1e6));
      req.extras.put(e.getKey() + ".compute_ms", Double.toString(c[2] / 1e6));
    }
    return tokens;
  }

  private static void put(RequestRecord req, String k, String v) {
    if (v != null && !v.isEmpty()) {
      req.extras.put(k, v);
    }
  }
}
