package dev.tokentime.formats.sglang;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.formats.spec.ErrorAccessLines;
import dev.tokentime.formats.spec.IdHashes;
import dev.tokentime.formats.spec.LogTimes;
import dev.tokentime.formats.spec.MatchedLine;
import dev.tokentime.formats.spec.SpecParser;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import java.io.IOException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Requests of an SGLang log started with {@code --log-requests} (docs/formats.md, "sglang-log"):
 * a {@code Receive: obj=GenerateReqInput(… rid='…' …)} line opens a request, its {@code Finish:
 * obj=…, out={… 'meta_info': {…}}} line carries everything SGLang measured and ends it. The
 * meta_info's epoch timestamps (0.5: {@code request_received_ts}, {@code request_finished_ts};
 * builds of late 2025 {@code prefill_finished_ts} and {@code decode_finished_ts} instead of the
 * latter) are a wall clock of 1 µs; without them the request's times are the log lines' (1 s).
 *
 * <p>uvicorn access lines carry no id; one is tied to a request only when it comes right after
 * that request's Finish line (a non-streaming response is logged before it is sent), or, with a
 * status of 400 or more, right after its Receive line (refused: it ends there as an error). An
 * error access line tied to no request is a failed request of its own (as in vllm-log).
 */
final class SglangRequests implements SpecParser.Handler {
  static final int MAX_IN_FLIGHT = 65_536;
  /**
   * Finish lines whose two times (the log line's, meta_info's request_finished_ts) are written to
   * clock_anchors: a few, so that a late line cannot move the median offset the report reads.
   */
  static final int ANCHORS = 16;
  private static final Pattern RID = Pattern.compile("(?:\\(|, )rid=\\[?'([^']+)'");
  /** The diffusion runtime's request, a dict ("obj={'request_id': '6ef3fb55-…', 'sampling_params': …"). */
  private static final Pattern DICT_ID = Pattern.compile("^\\{'request_id': '([^']+)'");
  /** A batch's rids: "rid=['a', 'b', …]" (one Receive line for the batch, a Finish line per request). */
  private static final Pattern RID_LIST = Pattern.compile("(?:\\(|, )rid=\\[([^\\]]*)\\]");
  private static final Pattern QUOTED = Pattern.compile("'([^']+)'");
  private static final Pattern DECODE_LOG_INTERVAL = Pattern.compile("\\bdecode_log_interval=(\\d+)");
  /** meta_info keys read into columns (the rest of its scalars land in extras). */
  private static final Set<String> KNOWN = Set.of("id", "finish_reason", "prompt_tokens",
      "completion_tokens", "cached_tokens", "e2e_latency", "queue_time", "request_received_ts",
      "request_finished_ts", "prefill_finished_ts", "decode_finished_ts", "output_token_logprobs",
      "input_token_logprobs", "cached_tokens_details");

  private final ParseContext ctx;
  private final RecordSink sink;
  /** The parse's times: the last line with a time dates an access line that has none. */
  private final LogTimes times;
  private final SglangSteps steps;
  private final RequestRecord rec = new RequestRecord();
  /** Receive lines waiting for their Finish line: id → {line, ts, clock}. */
  private final Map<String, Opened> inFlight = new LinkedHashMap<>();
  /** Hashes of the ids written from this file (a repeated id is rejected, the first kept). */
  private final IdHashes written = new IdHashes();
  private int metaClock = -1;
  private int anchors;
  /** The request written by the last request line, held for an access line right after it. */
  private RequestRecord lastFinished;
  /**
   * lastFinished is a failed PD transfer: only an error access line is its response (a success
   * right after it is another request's, and must not give the failure its status).
   */
  private boolean lastFailed;
  /** The bootstrap rooms (or rids) of PD failures recorded, oldest first. */
  private final Set<String> pdFailures = new java.util.LinkedHashSet<>();
  private Opened lastReceived;
  /** Time stats lines of requests opened by a Receive line, for their Finish line: rid → stats. */
  private final Map<String, TimeStats> pendingStats = new LinkedHashMap<>();
  /** Hashes of the ids whose time stats were read (every rank may log a request's line: one kept). */
  private final IdHashes statsSeen = new IdHashes();
  /** Time stats lines of requests no other line has named yet, for a Finish line after them: rid → line. */
  private final Map<String, HeldStats> statsOnly = new LinkedHashMap<>();
  /** Held at most: a Finish line follows its scheduler's line within moments. */
  static final int STATS_HELD = 4096;
  private int statsWallClock = -1;
  private int statsSteadyClock = -1;

  /** A received request; headers are the client's request headers SGLang logged (null: none). */
  private record Opened(String id, long line, long ts, int clock, String instance, Map<String, String> headers) {}

  SglangRequests(ParseContext ctx, RecordSink sink, SglangSteps steps, LogTimes times) {
    this.ctx = ctx;
    this.sink = sink;
    this.times = times;
    this.steps = steps;
  }

  @Override
  public SpecParser.Outcome line(MatchedLine m, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    String event = m.kind.event();
    if (event.startsWith("router_")) {
      // the router's lines name its own requests: an engine's request and its access line
      // between them stay tied to each other
      return router(m, event, ts, clock);
    }
    if (event.equals("access")) {
      return access(m, ts, clock, raw, off, len);
    }
    if (event.equals("pd_failed")) {
      return pdFailed(m, ts, clock);
    }
    if (event.equals("time_stats")) {
      return timeStats(m, ts, clock);
    }
    flushFinished();
    lastReceived = null;
    if (m.group("json") != null) {
      return jsonLine(m, event, ts, clock);
    }
    String rest = m.group("rest");
    if (event.equals("receive")) {
      Matcher list = RID_LIST.matcher(rest);
      if (list.find()) {
        return receiveBatch(m, list.group(1), textHeaders(rest), ts, clock);
      }
      Matcher id = RID.matcher(rest);
      if (!id.find() && !(id = DICT_ID.matcher(rest)).find()) {
        return SpecParser.Outcome.OTHER; // an input without rid (embedding batches of old versions)
      }
      return receive(m, id.group(1), textHeaders(rest), ts, clock);
    }
    return finish(m, rest, ts, clock);
  }

  /**
   * A batch's Receive line: a request for each rid of its list, all received at the line's time
   * (sglang#8089: six rids; only the first was opened). The line is rejected whole when one rid
   * repeats a request already read (a batch sent again).
   */
  private SpecParser.Outcome receiveBatch(MatchedLine m, String list, Map<String, String> headers, long ts, int clock)
      throws SpecParser.BadLine {
    java.util.List<String> quoted = new java.util.ArrayList<>();
    Matcher q = QUOTED.matcher(list);
    while (q.find()) {
      quoted.add(q.group(1));
    }
    return receiveBatch(m, quoted, headers, ts, clock);
  }

  /** A batch's Receive line (either format) by its rids. */
  private SpecParser.Outcome receiveBatch(MatchedLine m, java.util.List<String> batch, Map<String, String> headers,
      long ts, int clock) throws SpecParser.BadLine {
    java.util.List<String> rids = new java.util.ArrayList<>();
    for (String rid : batch) {
      if (inFlight.containsKey(rid) || written.contains(rid) || rids.contains(rid)) {
        throw new SpecParser.BadLine("request id " + rid + " of the batch repeats a request already read from this"
            + " file; the first is kept");
      }
      rids.add(rid);
    }
    if (rids.isEmpty()) {
      return SpecParser.Outcome.OTHER;
    }
    String instance = SglangSteps.splitRanks(m.origin())[0];
    for (String rid : rids) {
      inFlight.put(rid, new Opened(rid, m.lineNo, ts, clock, instance, headers));
      evictIfFull();
    }
    lastReceived = rids.size() == 1 ? inFlight.get(rids.get(0)) : null; // an access line is one request's
    return SpecParser.Outcome.RECORD;
  }

  /**
   * SGLang's own health probe: /health_generate sends a 1-token request of its own, rid
   * "HEALTH_CHECK_" and the time (http_server.py), every few seconds under a Kubernetes probe. No
   * client's request: its lines are other lines, out of the requests, their counts and latencies.
   */
  static boolean healthProbe(String rid) {
    return rid != null && rid.startsWith("HEALTH_CHECK_");
  }

  /** A request opened by its Receive line (either format). */
  private SpecParser.Outcome receive(MatchedLine m, String rid, Map<String, String> headers, long ts, int clock)
      throws SpecParser.BadLine {
    if (healthProbe(rid)) {
      return SpecParser.Outcome.OTHER;
    }
    if (inFlight.containsKey(rid) || written.contains(rid)) {
      throw new SpecParser.BadLine("request id " + rid + " repeats a request already read from this file;"
          + " the first is kept");
    }
    Opened o = new Opened(rid, m.lineNo, ts, clock, SglangSteps.splitRanks(m.origin())[0], headers);
    inFlight.put(rid, o);
    lastReceived = o;
    evictIfFull();
    return SpecParser.Outcome.RECORD;
  }

  /**
   * A --log-requests-format json line: {"timestamp", "event", "rid", "obj"[, "out"]}. Its
   * meta_info is read as the text format's is (its values as text: null is None, an object or a
   * list its JSON), so both formats give the same request.
   */
  private SpecParser.Outcome jsonLine(MatchedLine m, String event, long ts, int clock) throws SpecParser.BadLine {
    JsonNode node;
    try {
      node = PeerJson.TREE.readTree(m.group("json"));
    } catch (IOException e) {
      throw new SpecParser.BadLine("request event: " + PeerJson.reason(e));
    }
    if (node == null || !node.isObject()) {
      throw new SpecParser.BadLine("request event: not a JSON object");
    }
    JsonNode ridList = node.get("rid") != null ? node.get("rid") : node.path("obj").get("rid");
    if (event.equals("receive") && ridList != null && ridList.isArray()) {
      // a batch, "rid": ["a", "b"], as the text format's rid=['a', 'b']: a request for each rid
      java.util.List<String> rids = new java.util.ArrayList<>();
      for (JsonNode r : ridList) {
        if (text(r) != null && !text(r).isEmpty()) {
          rids.add(text(r));
        }
      }
      return receiveBatch(m, rids, jsonHeaders(node), ts, clock);
    }
    String rid = text(node.get("rid"));
    if (rid == null) {
      rid = text(node.path("obj").get("rid"));
    }
    if (rid == null) {
      rid = text(node.path("obj").get("request_id"));
    }
    if (event.equals("receive")) {
      if (rid == null || rid.isEmpty()) {
        return SpecParser.Outcome.OTHER; // as a text Receive line without rid
      }
      return receive(m, rid, jsonHeaders(node), ts, clock);
    }
    JsonNode out = node.get("out");
    if (out == null && rid != null && !rid.isEmpty()) {
      // as the text format's Finish line without out= (a model that generates images)
      if (healthProbe(rid)) {
        return SpecParser.Outcome.OTHER;
      }
      finishRecord(m, rid, Map.of(), jsonHeaders(node), null, FinishReason.NONE, ts, clock);
      return SpecParser.Outcome.RECORD;
    }
    if (out == null || !out.isObject()) {
      throw new SpecParser.BadLine("request.finished event's out is no object");
    }
    JsonNode metaNode = out.get("meta_info");
    if (metaNode == null || !metaNode.isObject()) {
      throw new SpecParser.BadLine("request.finished event's out has no meta_info object");
    }
    Map<String, String> meta = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = metaNode.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      meta.put(e.getKey(), v.isNull() ? "None" : v.isBoolean() ? (v.asBoolean() ? "True" : "False")
          : v.isValueNode() ? v.asText() : v.toString());
    }
    String id = meta.get("id");
    if (id == null || id.isEmpty() || id.equals("None") || id.startsWith("[")) {
      id = rid;
    }
    if (id == null || id.isEmpty()) {
      throw new SpecParser.BadLine("request.finished event without a request id (meta_info id or rid)");
    }
    JsonNode fr = metaNode.get("finish_reason");
    FinishReason reason = fr == null || fr.isNull() ? FinishReason.NONE
        : fr.isObject() ? new FinishReason(text(fr.get("type")), statusCode(fr.get("status_code")), text(fr.get("message")))
        : new FinishReason(fr.asText(), null, null);
    if (healthProbe(id)) {
      return SpecParser.Outcome.OTHER;
    }
    finishRecord(m, id, meta, jsonHeaders(node), text(out.get("text")), reason, ts, clock);
    return SpecParser.Outcome.RECORD;
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() || n.isContainerNode() ? null : n.asText();
  }

  private static Integer statusCode(JsonNode n) {
    return n != null && n.canConvertToInt() && n.isIntegralNumber() ? n.asInt() : null;
  }

  /**
   * A Finish line without out= (request_logger.py writes none for a model that generates images,
   * is_multimodal_gen): the request named by its rid ends at the line's time, nothing measured.
   */
  private SpecParser.Outcome finishWithoutOut(MatchedLine m, String rest, long ts, int clock)
      throws SpecParser.BadLine {
    Matcher r = RID.matcher(rest);
    if (!r.find() && !(r = DICT_ID.matcher(rest)).find()) {
      throw new SpecParser.BadLine("Finish line without out={…} nor a request id");
    }
    String id = r.group(1);
    if (healthProbe(id)) {
      return SpecParser.Outcome.OTHER;
    }
    finishRecord(m, id, Map.of(), textHeaders(rest), null, FinishReason.NONE, ts, clock);
    return SpecParser.Outcome.RECORD;
  }

  private SpecParser.Outcome finish(MatchedLine m, String rest, long ts, int clock) throws SpecParser.BadLine {
    Map<String, String> meta;
    String text;
    try {
      int out = outStart(rest);
      if (out < 0) {
        // a model that generates images (is_multimodal_gen) is logged without its output: the
        // request ended at this line, how is not said; only when its obj closes at the line's
        // end, for a line cut inside obj= (its last character may close a nested value) has no
        // out= either
        if (!objClosesTheLine(rest)) {
          throw new SpecParser.BadLine("truncated: a Finish line without out={…} whose obj=… does not close"
              + " at the line's end");
        }
        return finishWithoutOut(m, rest, ts, clock);
      }
      Map<String, String> outDict = PyRepr.dict(rest, out);
      text = outDict.get("text");
      String metaText = outDict.get("meta_info");
      if (metaText == null || !metaText.startsWith("{")) {
        throw new SpecParser.BadLine("Finish line's out has no meta_info dict");
      }
      meta = PyRepr.dict(metaText, 0);
    } catch (PyRepr.BadRepr e) {
      throw new SpecParser.BadLine("Finish line: " + e.getMessage());
    }
    String id = meta.get("id");
    if (id == null || id.isEmpty() || id.startsWith("[")) {
      Matcher r = RID.matcher(rest);
      if (!r.find() && !(r = DICT_ID.matcher(rest)).find()) {
        throw new SpecParser.BadLine("Finish line without a request id (meta_info id, rid or request_id)");
      }
      id = r.group(1);
    }
    if (healthProbe(id)) {
      return SpecParser.Outcome.OTHER;
    }
    finishRecord(m, id, meta, textHeaders(rest), text, FinishReason.of(meta.get("finish_reason")), ts, clock);
    return SpecParser.Outcome.RECORD;
  }

  /** A request's end as both formats give it: its id, meta_info (values as text), output and finish reason. */
  private void finishRecord(MatchedLine m, String id, Map<String, String> meta, Map<String, String> headers,
      String text, FinishReason reason, long ts, int clock) throws SpecParser.BadLine {
    // taken out of flight only once the line is read whole: a Finish line rejected for a value
    // leaves its request as its Receive line opened it (it was lost with the reject)
    Opened opened = inFlight.get(id);
    if (opened == null && written.contains(id)) {
      throw new SpecParser.BadLine("request id " + id + " repeats a request already read from this file;"
          + " the first is kept");
    }
    RequestRecord r = new RequestRecord();
    r.lineNo = opened != null ? opened.line : m.lineNo;
    r.run = ctx.defaultRun();
    r.requestId = id;
    r.engine = "sglang";
    r.instance = opened != null ? opened.instance : SglangSteps.splitRanks(m.origin())[0];
    r.promptTokens = count(meta, "prompt_tokens");
    r.outputTokens = count(meta, "completion_tokens");
    r.cachedTokens = count(meta, "cached_tokens");
    r.e2eMs = seconds(meta, "e2e_latency");
    r.queueMs = queueSeconds(meta, r);
    Double received = epoch(meta, "request_received_ts");
    Double finished = epoch(meta, "request_finished_ts");
    // builds of late 2025 (tokenizer_manager's _calculate_timing_metrics, sglang#14860) name the
    // end decode_finished_ts and write the first token's time as prefill_finished_ts
    String finishedKey = "request_finished_ts";
    if (finished == null && meta.containsKey("decode_finished_ts")) {
      finished = epoch(meta, "decode_finished_ts");
      finishedKey = "decode_finished_ts";
    }
    Double firstToken = epoch(meta, "prefill_finished_ts");
    if (received != null || finished != null) {
      if (metaClock < 0) {
        metaClock = sink.clock(new ClockSpec("wall", "sglang-log meta_info "
            + dev.tokentime.formats.spec.LineSpec.rotationBase(ctx.sourceName()), 1_000, null, false));
      }
      r.clockId = metaClock;
      r.arrivalNs = received == null ? NONE : micros(received);
      r.finishedNs = finished == null ? NONE : micros(finished);
      if (r.arrivalNs != NONE && r.finishedNs != NONE && r.finishedNs < r.arrivalNs) {
        throw new SpecParser.BadLine("request " + id + ": " + finishedKey + " is before request_received_ts");
      }
      if (firstToken != null) {
        r.firstTokenNs = micros(firstToken);
        if (r.arrivalNs != NONE && r.firstTokenNs < r.arrivalNs) {
          throw new SpecParser.BadLine("request " + id + ": prefill_finished_ts is before request_received_ts");
        }
        if (r.finishedNs != NONE && r.firstTokenNs > r.finishedNs) {
          throw new SpecParser.BadLine("request " + id + ": prefill_finished_ts is after " + finishedKey);
        }
      }
    } else {
      // the log lines' own times: the Receive line and this one, on one clock
      r.clockId = clock;
      r.finishedNs = ts;
      if (opened != null && opened.clock == clock) {
        r.arrivalNs = opened.ts;
      }
    }
    reason.apply(r);
    TimeStats stats = pendingStats.remove(id);
    HeldStats held = statsOnly.remove(id);
    if (stats == null && held != null) {
      stats = held.t();
    }
    if (stats != null) {
      stats.fill(r, false);
    }
    for (Map.Entry<String, String> e : meta.entrySet()) {
      String v = e.getValue();
      if (!KNOWN.contains(e.getKey()) && v != null && !v.equals("None") && !v.startsWith("{")
          && !v.startsWith("[") && v.length() <= 100) {
        r.extras.put(e.getKey(), v);
      }
    }
    putHeaders(r, headers != null ? headers : opened != null ? opened.headers : null);
    if (ctx.keepText() && text != null) {
      r.extras.put("output", text);
    }
    // the scheduler's batch lines are on the log's clock, requests with meta_info times on their
    // own: the Finish line is written as its request finishes, so its two times relate the clocks
    if (r.clockId == metaClock && anchors < ANCHORS && ts != NONE && r.finishedNs != NONE) {
      anchors++;
      sink.clockAnchor(clock, ts, metaClock, r.finishedNs,
          "Finish line: its log time and meta_info's " + finishedKey + " (to the log's resolution)");
    }
    inFlight.remove(id);
    written.add(id);
    lastFinished = r;
    lastFailed = false;
  }

  // ---- the client's request headers ----

  /** Longest header value kept (a routing key or a request id; a longer one is cut). */
  private static final int HEADER_VALUE_MAX = 200;

  /**
   * The request headers SGLang logs after the obj when its whitelist names them (request_logger.py,
   * 2026: "x-smg-routing-key", and those of SGLANG_LOG_REQUEST_HEADERS, e.g. "x-request-id"):
   * "Receive: obj=GenerateReqInput(…), headers={'x-request-id': 'abc'}", "Finish: obj=…,
   * headers={…}, out={…}". Null when the line has none or they do not read (the request stays as
   * its other parts give it).
   */
  static Map<String, String> textHeaders(String rest) {
    int mark = rest.indexOf(", headers={");
    if (mark < 0) {
      return null;
    }
    try {
      int start = rest.startsWith("{") ? 0 : rest.indexOf('(');
      if (start < 0 || start > mark) {
        return null;
      }
      int end = PyRepr.endOfValue(rest, start);
      if (!rest.startsWith(", headers={", end)) {
        return null; // the marker was inside the obj (a prompt's text)
      }
      return PyRepr.dict(rest, end + ", headers=".length());
    } catch (PyRepr.BadRepr e) {
      return null;
    }
  }

  /** The JSON format's "headers" object (values as text), or null. */
  private static Map<String, String> jsonHeaders(JsonNode node) {
    JsonNode h = node.get("headers");
    if (h == null || !h.isObject() || h.isEmpty()) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = h.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String v = text(e.getValue());
      if (v != null) {
        out.put(e.getKey(), v);
      }
    }
    return out;
  }

  /**
   * A client's headers are attributes of its request, never its id: the rid joins its Receive,
   * Finish and time stats lines, and one x-request-id may stand for several rids (n > 1, a batch,
   * the prefill and decode servers of PD). Extras by the header's name in snake case
   * ("x-request-id" → x_request_id, the name load generators' records use), after meta_info's.
   */
  private static void putHeaders(RequestRecord r, Map<String, String> headers) {
    if (headers == null) {
      return;
    }
    for (Map.Entry<String, String> e : headers.entrySet()) {
      String v = e.getValue();
      if (v == null || v.isEmpty()) {
        continue;
      }
      String key = e.getKey().toLowerCase(java.util.Locale.ROOT).replace('-', '_');
      r.extras.putIfAbsent(key, v.length() > HEADER_VALUE_MAX ? v.substring(0, HEADER_VALUE_MAX) + "…" : v);
    }
  }

  /** Whether the line's obj=Name(…) is whole and nothing but blanks follows it. */
  private static boolean objClosesTheLine(String rest) {
    int open = rest.indexOf('(');
    if (open <= 0) {
      return false;
    }
    try {
      return rest.substring(PyRepr.endOfValue(rest, open)).isBlank();
    } catch (PyRepr.BadRepr e) {
      return false;
    }
  }

  /** Where the out dict starts: after the obj's balanced parentheses (and optional headers). */
  private static int outStart(String rest) {
    int open = rest.indexOf('(');
    if (open > 0) {
      try {
        int end = PyRepr.endOfValue(rest, open);
        int out = rest.indexOf(", out={", end);
        if (out >= 0) {
          return out + ", out=".length();
        }
      } catch (PyRepr.BadRepr e) {
        // an obj cut by --log-requests-level truncation: fall back to the first marker
      }
    }
    int out = rest.indexOf(", out={");
    return out < 0 ? -1 : out + ", out=".length();
  }

  /** A finish_reason: its type (stop, length, abort…), and an abort's HTTP status and message. */
  private record FinishReason(String type, Integer statusCode, String message) {
    static final FinishReason NONE = new FinishReason(null, null, null);

    /** The text format's: None, 'stop', or a dict {'type': 'abort', 'status_code': 400, 'message': …}. */
    static FinishReason of(String fr) throws SpecParser.BadLine {
      if (fr == null || fr.equals("None")) {
        return NONE;
      }
      if (!fr.startsWith("{")) {
        return new FinishReason(fr, null, null);
      }
      try {
        Map<String, String> d = PyRepr.dict(fr, 0);
        String sc = d.get("status_code");
        return new FinishReason(d.get("type"), sc != null && sc.matches("\\d{3}") ? Integer.valueOf(sc) : null,
            d.get("message"));
      } catch (PyRepr.BadRepr e) {
        throw new SpecParser.BadLine("finish_reason: " + e.getMessage());
      }
    }

    void apply(RequestRecord r) {
      if (this == NONE) {
        r.status = "ok";
        return;
      }
      r.finishReason = type;
      if ("abort".equals(type)) {
        boolean failed = statusCode != null && statusCode >= 400 && statusCode != 499;
        r.status = failed ? "error" : "cancelled";
        r.httpStatus = statusCode;
        if (message != null && !message.equals("None")) {
          r.error = message.length() > 200 ? message.substring(0, 200) + "…" : message;
        }
      } else {
        r.status = "ok";
      }
    }
  }

  private static Integer count(Map<String, String> meta, String key) throws SpecParser.BadLine {
    String v = meta.get(key);
    if (v == null || v.equals("None")) {
      return null;
    }
    try {
      long n = Long.parseLong(v);
      if (n < 0 || n > Integer.MAX_VALUE) {
        throw new NumberFormatException();
      }
      return (int) n;
    } catch (NumberFormatException e) {
      throw new SpecParser.BadLine("meta_info " + key + ": expected a token count, got " + shorten(v));
    }
  }

  private static Double seconds(Map<String, String> meta, String key) throws SpecParser.BadLine {
    Double s = number(meta, key);
    return s == null ? null : s * 1000.0;
  }

  /**
   * meta_info's queue_time. Builds before sglang#39312 (merged 2026-09) report a retracted
   * request's (one the scheduler put back in the queue, or paused with retract) as negative: that
   * figure is no queue time, so the column stays empty and the value is kept as
   * extras.queue_time_negative; the rest of the line is the request's as usual (rejecting it lost
   * the whole request's end).
   */
  private static Double queueSeconds(Map<String, String> meta, RequestRecord r) throws SpecParser.BadLine {
    String v = meta.get("queue_time");
    if (v != null && v.startsWith("-")) {
      try {
        double d = Double.parseDouble(v);
        if (Double.isFinite(d)) {
          r.extras.put("queue_time_negative", v);
          return null;
        }
      } catch (NumberFormatException e) {
        // not a number: rejected below, naming the field
      }
    }
    return seconds(meta, "queue_time");
  }

  private static Double epoch(Map<String, String> meta, String key) throws SpecParser.BadLine {
    Double s = number(meta, key);
    if (s != null && (s < 946_684_800 || s > 4_102_444_800.0)) {
      throw new SpecParser.BadLine("meta_info " + key + ": " + s + " is not Unix seconds of 2000-2100");
    }
    return s;
  }

  private static Double number(Map<String, String> meta, String key) throws SpecParser.BadLine {
    String v = meta.get(key);
    if (v == null || v.equals("None")) {
      return null;
    }
    double s;
    try {
      s = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new SpecParser.BadLine("meta_info " + key + ": expected seconds, got " + shorten(v));
    }
    if (Double.isNaN(s) || Double.isInfinite(s) || s < 0) {
      throw new SpecParser.BadLine("meta_info " + key + ": expected non-negative seconds, got " + shorten(v));
    }
    return s;
  }

  private static long micros(double epochSeconds) {
    return Math.round(epochSeconds * 1e6) * 1_000L;
  }

  private static String shorten(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "…" : s;
  }

  // ---- PD disaggregation failures ----

  /**
   * A request aborted by a failed KV transfer, bootstrap or handshake between the prefill and
   * decode servers. Every TP rank logs it, and a transcript may hold both servers' lines (each
   * names its own rid, both the same bootstrap room): one failed request per room (per rid where
   * the line has none). The request stays held for the 500 access line that follows it.
   */
  private SpecParser.Outcome pdFailed(MatchedLine m, long ts, int clock) throws SpecParser.BadLine {
    String id = m.group("id");
    String room = m.group("room");
    String key = room != null ? "room " + room : "rid " + id;
    if (pdFailures.contains(key) || (!inFlight.containsKey(id) && written.contains(id))) {
      return SpecParser.Outcome.RECORD; // another rank's line of a failure already recorded
    }
    flushFinished();
    lastReceived = null;
    Opened o = inFlight.remove(id);
    String error = m.group("error");
    boolean aborted = error != null && error.contains("Aborted by AbortReq"); // the client went away
    RequestRecord r;
    if (o != null) {
      r = opened(o, aborted ? "cancelled" : "error");
    } else {
      ErrorAccessLines.Dated at = ErrorAccessLines.dated(ts, clock, times, "a failed PD transfer line");
      ts = at.ns();
      clock = at.clock();
      written.add(id);
      r = new RequestRecord();
      r.lineNo = m.lineNo;
      r.run = ctx.defaultRun();
      r.requestId = id;
      r.engine = "sglang";
      r.instance = SglangSteps.splitRanks(m.origin())[0];
      r.clockId = clock;
      r.arrivalNs = ts; // the failure's line is all the log says of it
      r.status = aborted ? "cancelled" : "error";
      r.extras.put("time_from", at.from());
    }
    if (ts != RequestRecord.NONE && (o == null || o.clock() == clock)) {
      r.finishedNs = Math.max(ts, r.arrivalNs);
    }
    String what = m.group("stage") + " " + m.group("step") + " failed"
        + (error == null || error.isEmpty() ? "" : ": " + error);
    r.error = what.length() > 200 ? what.substring(0, 200) + "…" : what;
    if (room != null) {
      r.extras.put("bootstrap_room", room);
    }
    r.extras.put("pd_stage", m.group("stage").toLowerCase(java.util.Locale.ROOT));
    if (pdFailures.size() >= MAX_IN_FLIGHT) {
      pdFailures.remove(pdFailures.iterator().next());
    }
    pdFailures.add(key);
    lastFinished = r;
    lastFailed = true;
    return SpecParser.Outcome.RECORD;
  }

  // ---- request time stats (--enable-request-time-stats-logging) ----

  /** Longest duration a line may state: a week (older builds wrote an epoch time where the forward entry was unset). */
  private static final double MAX_DURATION_MS = 7 * 86_400_000.0;

  /**
   * One {@code ReqTimeStats(…): …} line: the durations the scheduler measured for a request, by
   * disaggregation mode (unified, prefill, decode), and when it entered the first queue: entry_time
   * (Unix seconds, 1 ms), or before it start_time (time.perf_counter(), a steady clock of the
   * process). Every TP rank may log it: the first line of a rid is kept.
   */
  private record TimeStats(String mode, Map<String, String> head, Map<String, Double> ms, Double entry,
      boolean entryIsWall, Map<String, String> more) {

    /**
     * The request's figures from the durations; times only where the row has none of its own
     * (a request also read from Receive/Finish lines keeps those), with its own clock.
     */
    void fill(RequestRecord r, boolean own) {
      double pre = preQueueMs();
      Double queue = ms.get("queue_duration");
      Double forward = ms.get("forward_duration");
      boolean decodeServer = mode.equals("decode");
      // the decode server's forward is the decode, after its own queue: no first token there
      Double prefill = decodeServer ? null : ms.get("initial_prefill_elapsed");
      Double decode = decodeServer ? forward : ms.get("post_prefill_elapsed");
      if (r.promptTokens == null) {
        r.promptTokens = count("input_len");
      }
      if (r.outputTokens == null) {
        r.outputTokens = count("output_len");
      }
      if (r.cachedTokens == null) {
        r.cachedTokens = count("cached_input_len");
      }
      if (r.queueMs == null) {
        r.queueMs = queue;
      }
      if (r.prefillMs == null) {
        r.prefillMs = prefill;
      }
      if (r.decodeMs == null) {
        r.decodeMs = decode;
      }
      if (own) {
        // a request known from this line alone: its TTFT and E2E as the scheduler saw them
        if (!mode.equals("unified")) {
          r.preQueueMs = pre;
        }
        if (queue != null && prefill != null) {
          r.ttftMs = pre + queue + prefill;
        }
        if (queue != null && forward != null) {
          r.e2eMs = pre + queue + forward;
        }
      }
      r.extras.put("time_stats", mode);
      for (Map.Entry<String, Double> e : ms.entrySet()) {
        if (!e.getKey().equals("queue_duration") && !e.getKey().equals("initial_prefill_elapsed")
            && !e.getKey().equals("post_prefill_elapsed")) {
          r.extras.put(e.getKey().replace("_duration", "") + "_ms", fmt(e.getValue()));
        }
      }
      r.extras.putAll(more);
      String room = head.get("bootstrap_room");
      if (room != null) {
        r.extras.put("bootstrap_room", room);
      }
      String attempts = head.get("attempts");
      if (attempts != null) {
        r.extras.put("attempts", attempts);
      }
      if (!own || entry == null) {
        return;
      }
      // entry_time is the first queue's entry: the scheduler's wait queue (unified), the
      // prefill server's bootstrap queue, the decode server's pre-allocation queue
      long at = Math.round(entry * 1e3) * 1_000_000L;
      r.arrivalNs = at;
      long queued = at + ns(pre);
      r.queuedNs = queued;
      if (queue != null) {
        long scheduled = queued + ns(queue);
        r.scheduledNs = scheduled;
        if (prefill != null) {
          r.firstTokenNs = scheduled + ns(prefill);
        }
        if (forward != null) {
          r.finishedNs = scheduled + ns(forward);
        }
      }
    }

    /** Before the queue the line names: the prefill server's bootstrap, the decode server's pre-allocation and transfer. */
    double preQueueMs() {
      double pre = 0;
      for (String k : List.of("bootstrap_queue_duration", "prealloc_queue_duration", "bootstrap_duration",
          "alloc_wait_duration", "transfer_duration")) {
        Double v = ms.get(k);
        if (v != null && !(mode.equals("prefill") && k.equals("transfer_duration"))) {
          pre += v;
        }
      }
      return pre;
    }

    Integer count(String key) {
      String v = head.get(key);
      return v == null ? null : Integer.valueOf(v);
    }

    static long ns(double ms) {
      return Math.round(ms * 1e6);
    }

    /** Plain decimal text (no exponent), for extras. */
    static String fmt(double v) {
      return new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }
  }

  private SpecParser.Outcome timeStats(MatchedLine m, long ts, int clock) throws SpecParser.BadLine {
    TimeStats t = parseTimeStats(m.group("head"), m.group("rest"));
    if (t == null) {
      return SpecParser.Outcome.OTHER; // "Unknown Time Stats": a mode this build did not know
    }
    String rid = t.head().get("rid");
    if (healthProbe(rid)) {
      return SpecParser.Outcome.OTHER;
    }
    if (!statsSeen.add(rid)) {
      return SpecParser.Outcome.RECORD; // another rank's line of a request already read
    }
    if (inFlight.containsKey(rid)) {
      // its Receive line was read: the figures join the request its Finish line ends
      if (pendingStats.size() >= MAX_IN_FLIGHT) {
        pendingStats.remove(pendingStats.keySet().iterator().next());
      }
      pendingStats.put(rid, t);
      return SpecParser.Outcome.RECORD;
    }
    if (lastFinished != null && rid.equals(lastFinished.requestId)) {
      t.fill(lastFinished, false); // its Finish line came first
      return SpecParser.Outcome.RECORD;
    }
    if (written.contains(rid)) {
      return SpecParser.Outcome.OTHER; // its request was already written from its Finish line
    }
    if (t.entry() == null) {
      throw new SpecParser.BadLine("time stats of " + rid + " without a time: start_time 0.0 (this build did not"
          + " record when the request was queued) and no line of the request that has one");
    }
    // a request known from this line so far: held, for the Finish line that may follow it (the
    // tokenizer logs it after the scheduler's line), else written at the end
    if (statsOnly.size() >= STATS_HELD) {
      writeStatsOnly(statsOnly.remove(statsOnly.keySet().iterator().next()));
    }
    statsOnly.put(rid, new HeldStats(t, m.lineNo, SglangSteps.splitRanks(m.origin())[0], ts, clock));
    return SpecParser.Outcome.RECORD;
  }

  /** A time stats line held for its Finish line: the figures, and where and when it was logged. */
  private record HeldStats(TimeStats t, long line, String instance, long ts, int clock) {}

  /** A request known from its time stats line alone. */
  private void writeStatsOnly(HeldStats h) {
    TimeStats t = h.t();
    String rid = t.head().get("rid");
    RequestRecord r = new RequestRecord();
    r.lineNo = h.line();
    r.run = ctx.defaultRun();
    r.requestId = rid;
    r.engine = "sglang";
    r.instance = h.instance();
    r.status = "ok";
    r.clockId = statsClock(t.entryIsWall());
    t.fill(r, true);
    // logged as the request ends: its log time and its end relate the log's clock to entry_time's
    if (t.entryIsWall() && anchors < ANCHORS && h.ts() != NONE && r.finishedNs != NONE) {
      anchors++;
      sink.clockAnchor(h.clock(), h.ts(), r.clockId, r.finishedNs,
          "time stats line: its log time and entry_time + its durations (to the log's resolution)");
    }
    written.add(rid);
    write(r);
  }

  private int statsClock(boolean wall) {
    String base = dev.tokentime.formats.spec.LineSpec.rotationBase(ctx.sourceName());
    if (wall) {
      if (statsWallClock < 0) {
        statsWallClock = sink.clock(new ClockSpec("wall", "sglang-log time stats " + base, 1_000_000, null, false));
      }
      return statsWallClock;
    }
    if (statsSteadyClock < 0) {
      statsSteadyClock = sink.clock(new ClockSpec("steady", "sglang-log time stats perf_counter " + base, 1_000_000,
          null, false));
    }
    return statsSteadyClock;
  }

  /** The line's head (rid, lengths, mode) and its durations; null for a mode without figures. */
  static TimeStats parseTimeStats(String headText, String rest) throws SpecParser.BadLine {
    Map<String, String> head = new LinkedHashMap<>();
    for (String[] kv : items(headText)) {
      head.putIfAbsent(kv[0].replace(' ', '_'), kv[1]);
    }
    String rid = head.get("rid");
    if (rid == null || rid.isEmpty() || rid.equals("None")) {
      throw new SpecParser.BadLine("time stats line without a request id (rid=)");
    }
    for (String k : List.of("input_len", "cached_input_len", "output_len", "attempts")) {
      String v = head.get(k);
      if (v != null && !v.matches("\\d{1,9}")) {
        throw new SpecParser.BadLine("time stats " + k.replace('_', ' ') + ": expected a count, got " + shorten(v));
      }
    }
    String mode = head.getOrDefault("type", "unified");
    if (!mode.equals("unified") && !mode.equals("prefill") && !mode.equals("decode")) {
      return null;
    }
    Map<String, Double> ms = new LinkedHashMap<>();
    Map<String, String> more = new LinkedHashMap<>();
    Double entry = null;
    boolean wall = false;
    for (String[] kv : items(rest)) {
      String key = kv[0];
      String v = kv[1];
      if (key.equals("entry_time") || key.equals("start_time")) {
        double s = nonNegative(key, v);
        if (key.equals("entry_time") && (s < 946_684_800 || s > 4_102_444_800.0)) {
          throw new SpecParser.BadLine("time stats entry_time: " + v + " is not Unix seconds of 2000-2100");
        }
        // start_time 0.0: this build had not set the queue's entry (its durations then run from 0)
        if (key.equals("entry_time") || s > 0) {
          entry = s;
          wall = key.equals("entry_time");
        }
      } else if (v.endsWith("ms")) {
        double d = nonNegative(key, v.substring(0, v.length() - 2));
        if (d > MAX_DURATION_MS) {
          throw new SpecParser.BadLine("time stats " + key + ": " + v + " is no duration (over a week: this build"
              + " measured it from an unset time)");
        }
        ms.putIfAbsent(key, d);
      } else if (key.equals("transfer_speed") && v.endsWith(" GB/s")) {
        more.put("transfer_gb_per_s", Double.toString(nonNegative(key, v.substring(0, v.length() - 5))));
      } else if (key.equals("transfer_total") && v.endsWith(" MB")) {
        more.put("transfer_mb", Double.toString(nonNegative(key, v.substring(0, v.length() - 3))));
      } else if (key.equals("#retries") && v.matches("\\d{1,9}")) {
        more.put("retries", v);
      }
    }
    if (!ms.containsKey("queue_duration") && !ms.containsKey("forward_duration")) {
      throw new SpecParser.BadLine("time stats line without queue_duration or forward_duration");
    }
    return new TimeStats(mode, head, ms, entry, wall, more);
  }

  /**
   * The line's "key=value" items, split at ", " (no value of these lines holds one; a key is a
   * name, words with spaces in 0.4's "input len", or "#retries"); an item without "=" is skipped.
   * A split, not a regex: a long line of one word must cost one pass.
   */
  /** A key of these lines: a name (0.4's two words "input len"), or "#retries"; nothing else is kept. */
  private static final Pattern KEY = Pattern.compile("#?[A-Za-z_]\\w{0,40}(?: [a-z]\\w{0,20})?");

  private static List<String[]> items(String text) {
    List<String[]> out = new java.util.ArrayList<>();
    int from = 0;
    while (from <= text.length()) {
      int to = text.indexOf(", ", from);
      String item = text.substring(from, to < 0 ? text.length() : to);
      int eq = item.indexOf('=');
      String key = eq > 0 ? item.substring(0, eq).trim() : "";
      if (KEY.matcher(key).matches()) {
        out.add(new String[] {key, item.substring(eq + 1).trim()});
      }
      if (to < 0) {
        break;
      }
      from = to + 2;
    }
    return out;
  }

  /** A time stats value: a non-negative finite number (seconds, ms, GB/s or MB, as its key says). */
  private static double nonNegative(String key, String v) throws SpecParser.BadLine {
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new SpecParser.BadLine("time stats " + key + ": expected a number, got " + shorten(v));
    }
    if (Double.isNaN(d) || Double.isInfinite(d) || d < 0) {
      throw new SpecParser.BadLine("time stats " + key + ": expected a non-negative number, got " + shorten(v));
    }
    return d;
  }

  // ---- the router's lines (sgl-router, the model gateway) ----

  /** A field of a tracing span, {@code name=value} or {@code name="quoted value"}. */
  private static final Pattern SPAN_FIELD = Pattern.compile("(?:^|\\s)(\\w+)=(\"(?:[^\"\\\\]|\\\\.)*\"|\\S+)");
  /** Rust's Duration as Debug prints it ("1.254651s", "850µs"), the router's latency before 2026. */
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(s|ms|µs|us|ns)");

  /** A request the router started: its line, time and origin. */
  private record RouterOpen(String id, long line, long ts, int clock, String instance) {}

  /** Requests the router logged the start of and not yet the answer: id → start. */
  private final Map<String, RouterOpen> routerOpen = new LinkedHashMap<>();
  /** The last WARN or ERROR line the router logged inside a request's span: id → its message. */
  private final Map<String, String> routerNotes = new LinkedHashMap<>();

  private SpecParser.Outcome router(MatchedLine m, String event, long ts, int clock) throws SpecParser.BadLine {
    Map<String, String> span;
    String detail;
    if (event.equals("router_json")) {
      JsonLine j = routerJson(m.group("json"));
      if (j == null) {
        return SpecParser.Outcome.OTHER; // no request's line: workers, policies, start-up
      }
      event = j.event();
      span = j.span();
      detail = j.detail();
    } else {
      span = spanFields(m.group("span"));
      detail = m.group("detail");
    }
    String id = span.get("request_id");
    if (id == null || !ErrorAccessLines.inferenceRequest(span.get("method"), span.get("uri"))) {
      // a probe, /metrics, a worker's registration: no client's inference request
      return SpecParser.Outcome.OTHER;
    }
    switch (event) {
      case "router_started" -> {
        if (routerOpen.containsKey(id) || written.contains(ROUTER_ID + id)) {
          throw new SpecParser.BadLine("request id " + id + " repeats a request already read from this file;"
              + " the first is kept");
        }
        if (ts == NONE) {
          throw new SpecParser.BadLine("no timestamp: a router's request line without a time");
        }
        routerOpen.put(id, new RouterOpen(id, m.lineNo, ts, clock, m.origin()));
        if (routerOpen.size() > MAX_IN_FLIGHT) {
          Iterator<RouterOpen> it = routerOpen.values().iterator();
          RouterOpen oldest = it.next();
          it.remove();
          RequestRecord r = routerRecord(oldest.id(), oldest, null);
          r.extras.put("end", "written early: more than " + MAX_IN_FLIGHT + " requests in flight");
          write(r);
        }
        return SpecParser.Outcome.RECORD;
      }
      case "router_note" -> {
        String level = m.prefixValue("level");
        if (written.contains(ROUTER_ID + id) || !("ERROR".equals(level) || "WARN".equals(level))) {
          return SpecParser.Outcome.OTHER;
        }
        // also of a request whose start the file lacks (a paste, a rotated log): its answer may follow
        routerNotes.remove(id);
        routerNotes.put(id, SpecParser.shortDetail(detail.strip()));
        if (routerNotes.size() > STATS_HELD) {
          Iterator<String> it = routerNotes.keySet().iterator();
          it.next();
          it.remove();
        }
        return SpecParser.Outcome.RECORD;
      }
      default -> {
        return routerResponse(m, id, span, ts, clock);
      }
    }
  }

  /** A --log-json line of the router read as a text line's kind: its event, request span and words. */
  private record JsonLine(String event, Map<String, String> span, String detail) {}

  /** The JSON object's keys that are no field of the event (tracing-subscriber's own). */
  private static final Set<String> JSON_META = Set.of("timestamp", "level", "message", "target", "filename",
      "line_number", "span", "spans", "threadName", "threadId");

  /**
   * A line of the router's --log-json output, its start (timestamp and level) peeled by the spec's
   * prefix: {@code "message":"…","target":"smg::response",…,"span":{…},"spans":[…]}. The request
   * span is the {@code http_request} one of {@code spans} (else {@code span}); a line with none is
   * no request's (null). The target and message tell the kind the text line would be.
   */
  private static JsonLine routerJson(String rest) throws SpecParser.BadLine {
    JsonNode node;
    try {
      node = PeerJson.TREE.readTree("{" + rest);
    } catch (IOException e) {
      throw new SpecParser.BadLine("router JSON line: " + PeerJson.reason(e));
    }
    if (node == null || !node.isObject()) {
      throw new SpecParser.BadLine("router JSON line: not a JSON object");
    }
    JsonNode spanNode = null;
    for (JsonNode s : node.path("spans")) {
      if ("http_request".equals(s.path("name").asText(null))) {
        spanNode = s;
      }
    }
    if (spanNode == null && "http_request".equals(node.path("span").path("name").asText(null))) {
      spanNode = node.get("span");
    }
    if (spanNode == null || !spanNode.isObject()) {
      return null;
    }
    Map<String, String> span = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = spanNode.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      span.put(e.getKey(), v.isTextual() ? v.asText() : v.toString());
    }
    String target = node.path("target").asText("");
    String message = node.path("message").asText("");
    String event;
    if (target.endsWith("::request") && message.equals("started processing request")) {
      event = "router_started";
    } else if (target.endsWith("::response")
        && ROUTER_ANSWER.matcher(message).matches()) {
      event = "router_response";
    } else if (target.endsWith("::request") || target.endsWith("::response")) {
      return null; // another word of the middleware (a stream failed after its head): no answer of its own
    } else {
      event = "router_note";
    }
    // the event's own fields after its message, as the text line writes them ("… decode_url=… status=500 …")
    StringBuilder detail = new StringBuilder(message);
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!JSON_META.contains(e.getKey())) {
        JsonNode v = e.getValue();
        detail.append(' ').append(e.getKey()).append('=').append(v.isTextual() ? v.asText() : v.toString());
      }
    }
    return new JsonLine(event, span, detail.toString());
  }

  /**
   * The router's answer to a request: its HTTP status, and the latency the router measured from
   * the request's arrival to its response's head (µs as an integer since 2026, Rust's Duration
   * text before). The router logs the answer when the head is ready (tower-http's on_response):
   * for a whole response that is its end, for a streamed one its start, and the line does not say
   * which. So an answered request keeps the latency as {@code router_head_ms} and no end; an error
   * answer (4xx, 5xx: a body of one piece) ends at the line, its latency its end to end.
   */
  private SpecParser.Outcome routerResponse(MatchedLine m, String id, Map<String, String> span, long ts, int clock)
      throws SpecParser.BadLine {
    String statusText = span.get("status_code");
    if (statusText == null || !HTTP_STATUS.matcher(statusText).matches()) {
      throw new SpecParser.BadLine("router response line: status_code "
          + (statusText == null ? "missing" : "is no HTTP status: " + shorten(statusText)));
    }
    String latencyText = span.get("latency");
    Double latencyMs = latencyText == null ? null : latencyMs(latencyText);
    String latencyProblem = Checked.durationProblem("router response line: latency", latencyMs);
    if (latencyProblem != null) {
      throw new SpecParser.BadLine(latencyProblem);
    }
    if (ts == NONE) {
      throw new SpecParser.BadLine("no timestamp: a router's response line without a time");
    }
    RouterOpen open = routerOpen.remove(id);
    if (open == null && written.contains(ROUTER_ID + id)) {
      throw new SpecParser.BadLine("request id " + id + " repeats a request already read from this file;"
          + " the first is kept");
    }
    int status = Integer.parseInt(statusText);
    if (open == null) {
      open = new RouterOpen(id, m.lineNo, NONE, clock, m.origin());
    }
    RequestRecord r = routerRecord(id, open, status >= 400 ? "error" : "ok");
    if (open.clock() != clock) {
      // the start on another clock (a wrapper's time on one line only): the answer's time alone
      r.arrivalNs = NONE;
      r.clockId = clock;
    }
    r.httpStatus = status;
    if (latencyMs != null) {
      r.extras.put("router_head_ms", TimeStats.fmt(latencyMs));
    }
    if (status >= 400) {
      r.finishedNs = ts;
      r.e2eMs = latencyMs;
      String note = routerNotes.remove(id);
      r.error = "HTTP " + status + " " + span.get("method") + " " + span.get("uri") + " (the router's answer)"
          + (note == null ? "" : "; the router logged: " + note);
    }
    write(r);
    return SpecParser.Outcome.RECORD;
  }

  /**
   * The router's rows are named by its request id after this prefix: a server behind it may log
   * the same id as its rid (the gateway passes its id on, or a client sends one to both), and the
   * two rows of one request, one per source, must not take each other's id.
   */
  static final String ROUTER_ID = "router:";
  /** The router's answer line's message ({@code --log-json} gives it apart from the target). */
  private static final Pattern ROUTER_ANSWER =
      Pattern.compile("finished processing request|request failed with (?:client|server) error");
  private static final Pattern HTTP_STATUS = Pattern.compile("[1-5]\\d\\d");
  /** The router's latency since 2026: whole µs. */
  private static final Pattern MICROS = Pattern.compile("\\d{1,15}");

  private RequestRecord routerRecord(String id, RouterOpen o, String status) {
    written.add(ROUTER_ID + id);
    RequestRecord r = new RequestRecord();
    r.lineNo = o.line();
    r.run = ctx.defaultRun();
    r.requestId = ROUTER_ID + id;
    r.extras.put("router_request_id", id);
    r.engine = "sglang";
    r.instance = o.instance();
    r.clockId = o.clock();
    r.arrivalNs = o.ts();
    r.status = status;
    r.extras.put("source", "router");
    String note = status == null || status.equals("lost") ? routerNotes.remove(id) : null;
    if (note != null) {
      r.extras.put("router_note", note);
    }
    return r;
  }

  /** The latency field of a router's span in ms: an integer is µs, else Rust's Duration text. */
  static Double latencyMs(String v) throws SpecParser.BadLine {
    String t = v.startsWith("\"") && v.endsWith("\"") && v.length() >= 2 ? v.substring(1, v.length() - 1) : v;
    if (MICROS.matcher(t).matches()) {
      return Long.parseLong(t) / 1000.0;
    }
    Matcher d = DURATION.matcher(t);
    if (!d.matches()) {
      throw new SpecParser.BadLine("router response line: latency is no duration: " + shorten(v));
    }
    double n = Double.parseDouble(d.group(1));
    return switch (d.group(2)) {
      case "s" -> n * 1000.0;
      case "ms" -> n;
      case "ns" -> n / 1_000_000.0;
      default -> n / 1000.0;
    };
  }

  /** The fields of a tracing span's text ({@code method=POST uri=/v1/… request_id="…"}), quotes removed from ids. */
  static Map<String, String> spanFields(String span) {
    Map<String, String> out = new LinkedHashMap<>();
    if (span == null) {
      return out;
    }
    Matcher f = SPAN_FIELD.matcher(span);
    while (f.find()) {
      String v = f.group(2);
      if (!f.group(1).equals("latency") && v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
        v = v.substring(1, v.length() - 1);
      }
      out.putIfAbsent(f.group(1), v);
    }
    return out;
  }

  // ---- access lines ----

  private SpecParser.Outcome access(MatchedLine m, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    int status = Integer.parseInt(m.group("status"));
    if (!ErrorAccessLines.inferenceRequest(m.group("method"), m.group("path"))) {
      return SpecParser.Outcome.OTHER; // /metrics, /health, /get_model_info: no request; a GET of an inference route (a probe)
    }
    if (lastFinished != null && lastFinished.httpStatus == null && !(lastFailed && status < 400)) {
      lastFinished.httpStatus = status;
      if (status >= 400) {
        lastFinished.status = "error";
      }
      flushFinished();
      return SpecParser.Outcome.RECORD;
    }
    if (lastReceived != null && status >= 400 && inFlight.get(lastReceived.id) == lastReceived) {
      // refused before the scheduler took it: it ends here
      Opened o = inFlight.remove(lastReceived.id);
      lastReceived = null;
      RequestRecord r = opened(o, "error");
      r.httpStatus = status;
      write(r);
      return SpecParser.Outcome.RECORD;
    }
    flushFinished();
    if (status >= 400) {
      // an error no request line is next to (also any error of a server started without
      // --log-requests): a failed request of its own
      lastReceived = null;
      failedAccess(m, status, ts, clock, raw, off, len);
      return SpecParser.Outcome.RECORD;
    }
    return SpecParser.Outcome.OTHER;
  }

  /** A failed request known from its access line alone (ErrorAccessLines). */
  private void failedAccess(MatchedLine m, int status, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    RequestRecord r = new RequestRecord();
    ErrorAccessLines.fill(r, m, status, ts, clock, times, ctx.defaultRun(), "sglang",
        SglangSteps.splitRanks(m.origin())[0]);
    written.add(r.requestId);
    sink.request(r, raw, off, len);
  }

  private RequestRecord opened(Opened o, String status) {
    written.add(o.id);
    RequestRecord r = new RequestRecord();
    r.lineNo = o.line;
    r.run = ctx.defaultRun();
    r.requestId = o.id;
    r.engine = "sglang";
    r.instance = o.instance;
    r.clockId = o.clock;
    r.arrivalNs = o.ts;
    r.status = status;
    putHeaders(r, o.headers);
    TimeStats stats = pendingStats.remove(o.id);
    if (stats != null) {
      stats.fill(r, false);
    }
    return r;
  }

  private void flushFinished() {
    if (lastFinished != null) {
      write(lastFinished);
      lastFinished = null;
    }
  }

  private void write(RequestRecord r) {
    sink.request(r, null, 0, 0);
  }

  // ---- endings ----

  @Override
  public void event(MatchedLine m, String kind, long tsNs, int clockId) {
    if (m.kind.name().equals("server_args")) {
      Matcher d = DECODE_LOG_INTERVAL.matcher(m.message());
      if (d.find()) {
        steps.decodeLogInterval = Integer.valueOf(d.group(1));
      }
    }
    // a start or a death ends the requests of its own server only (the line's wrapper identity: a
    // pod, a compose service, a host); in a stream of several (stern, a shipper's export) the
    // others' go on. A file of one server names none: every request is its own.
    String server = m.server();
    if (m.kind.name().startsWith("router_start")) {
      // the router started again: the requests it had in flight got no answer from it
      for (Iterator<RouterOpen> it = routerOpen.values().iterator(); it.hasNext(); ) {
        RouterOpen o = it.next();
        if (!MatchedLine.ofServer(o.instance(), server)) {
          continue;
        }
        it.remove();
        RequestRecord r = routerRecord(o.id(), o, "lost");
        r.extras.put("lost_at_line", Long.toString(m.lineNo));
        write(r);
      }
      if (server == null) {
        routerNotes.clear();
      }
      return;
    }
    boolean restart = kind.equals("start") || m.kind.name().equals("server_args");
    // SGLang's own words of its death, not any traceback (a request's error has one too) nor the
    // supervisor's word (systemd, the kernel, Ray: docs/formats.md, "The supervisor's word")
    if (!restart && !DEATHS.contains(m.kind.name())) {
      return;
    }
    flushFinished();
    lastReceived = null;
    for (Iterator<Opened> it = inFlight.values().iterator(); it.hasNext(); ) {
      Opened o = it.next();
      if (!MatchedLine.ofServer(o.instance(), server)) {
        continue;
      }
      it.remove();
      RequestRecord r = opened(o, "lost");
      r.extras.put("lost_at_line", Long.toString(m.lineNo));
      write(r);
    }
  }

  /**
   * The kinds in which SGLang tells of its server's death: a process's exception, the launcher's
   * SIGQUIT handler, its subprocess watchdog's line of a child's exit, a hard watchdog's timeout, the
   * launcher's word of a scheduler dead before it was ready.
   * Each kills the server's process tree: the requests in flight get no answer.
   */
  private static final Set<String> DEATHS = Set.of("crash", "sigquit", "subprocess_crash", "watchdog",
      "scheduler_dead");

  @Override
  public void end() {
    flushFinished();
    for (Opened o : inFlight.values()) {
      RequestRecord r = opened(o, null);
      r.extras.put("end", "log ended while the request was in flight");
      write(r);
    }
    inFlight.clear();
    for (RouterOpen o : routerOpen.values()) {
      RequestRecord r = routerRecord(o.id(), o, null);
      r.extras.put("end", "log ended while the request was in flight");
      write(r);
    }
    routerOpen.clear();
    for (HeldStats h : statsOnly.values()) {
      writeStatsOnly(h);
    }
    statsOnly.clear();
  }

  private void evictIfFull() {
    if (inFlight.size() <= MAX_IN_FLIGHT) {
      return;
    }
    Iterator<Opened> it = inFlight.values().iterator();
    Opened oldest = it.next();
    it.remove();
    RequestRecord r = opened(oldest, null);
    r.extras.put("end", "written early: more than " + MAX_IN_FLIGHT + " requests in flight");
    write(r);
  }

}
