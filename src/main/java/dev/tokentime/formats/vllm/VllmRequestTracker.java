package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.formats.spec.ErrorAccessLines;
import dev.tokentime.formats.spec.IdHashes;
import dev.tokentime.formats.spec.LogTimes;
import dev.tokentime.formats.spec.MatchedLine;
import dev.tokentime.formats.spec.SpecParser;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Request lifecycles across the lines of a vLLM log (docs/formats.md, "vllm-log"): Received /
 * Added open a request, streaming deltas add token rows, Finished / Aborted / a final Generated
 * response end it, and it is written and dropped. What stays in memory is the requests in flight
 * (at most {@link #MAX_IN_FLIGHT}; beyond that the oldest is written as it is) and one 64-bit hash
 * per written id (a repeated id is rejected: the sink keeps one row per id and file).
 *
 * <p>uvicorn access lines carry no id and no time; one is tied to a request only when it is
 * adjacent to that request's lines: right after the line that ended the request (non-streaming
 * order), right after its Received/Added line, or right before it (streaming order, vllm.md
 * §2.4); bare prints between do not part them (barePrint). A status of 400 or more right after a Received line ends that request as an error (the
 * server refused it before the engine saw it). Otherwise the access line is counted as other.
 */
final class VllmRequestTracker implements SpecParser.Handler {
  /** A request id that names no request: what a front end passes when it has none. */
  static final java.util.regex.Pattern PLACEHOLDER_ID =
      java.util.regex.Pattern.compile("(?i)n\\.?/?a\\.?|none|null|undefined|unknown|-+");

  /** Whether an id is a placeholder; every line has an id, and almost none start as one can. */
  static boolean placeholder(String id) {
    char c = id.isEmpty() ? 0 : Character.toLowerCase(id.charAt(0));
    return (c == 'n' || c == 'u' || c == '-') && PLACEHOLDER_ID.matcher(id).matches();
  }

  static final int MAX_IN_FLIGHT = 65_536;
  /** Its prompt's tokens: "prompt_token_ids: [1, 2]", 0.1-0.3's "prompt token ids: [1, 2]." */
  private static final Pattern PROMPT_IDS = Pattern.compile("prompt(?:_token_ids| token ids): \\[([^\\]]*)\\]");
  private static final Pattern MAX_TOKENS = Pattern.compile("max_tokens=(\\d+)");
  private static final Pattern PROMPT = Pattern.compile(
      "prompt: (.*?), ?(?:params|sampling_params|sampling params|prefix_pos|prompt_token_ids|prompt token ids):");
  private static final Pattern RANDOM_SUFFIX = Pattern.compile(".-[0-9a-f]{8}$");
  /**
   * The prompt preview --enable-log-request-prompts appends to the INFO Received line, after its
   * lora_request (vllm-project/vllm#38583: "…, lora_request: None, prompt: 'Hi'.", "…, prompt_token_ids:
   * [1, 2].", "…, prompt_embeds: shape=torch.Size([12, 4096]).").
   */
  private static final Pattern PREVIEW = Pattern.compile("lora_request: .*?(, prompt(?:_token_ids|_embeds)?: )");
  /**
   * What that preview holds at most where --max-log-len is not set (the logger's default caps: 512
   * ids; a string's 4096 characters are never a count).
   */
  static final int PREVIEW_IDS_CAP = 512;
  /** --max-log-len as the server's args line gives it ("'max_log_len': 100", "max_log_len=100"). */
  private static final Pattern MAX_LOG_LEN = Pattern.compile("\\bmax_log_len'?\\s*[:=]\\s*(\\d+|None)");
  /** Each server's --max-log-len, from its args line (absent: not set, or no args line seen). */
  private final Map<String, Integer> maxLogLen = new HashMap<>();

  private final ParseContext ctx;
  private final RecordSink sink;
  private final Map<String, LoggedRequest> inFlight = new LinkedHashMap<>();
  /** Requests in flight known by an engine id with its random suffix, by the id without it. */
  private final Map<String, LoggedRequest> bySuffixBase = new HashMap<>();
  /**
   * The caller's ids of the last requests written that were known by their engine id: a late
   * line naming one ("Request test-001 aborted." after its "Aborted request(s) test-001-8181cd7c.")
   * is that request's, not a new one. A few thousand: such a line follows within seconds.
   */
  private final Map<String, Boolean> writtenBases = recent(4096);
  private final IdHashes written = new IdHashes();
  private final RequestRecord rec = new RequestRecord();
  /** Requests ended without their response (a death, a "failed" line): AwaitingResponse. */
  private final AwaitingResponse awaiting = new AwaitingResponse();
  /** Requests in flight that a placeholder id started (KServe's "N.A."), by id, until they end. */
  private final Map<String, LoggedRequest> placeholders = new LinkedHashMap<>();
  /**
   * How long (log time) an ended request waits for its error response: uvicorn logs it within a
   * second of the death or the failure; a 500 minutes later is another request's.
   */
  static final long AWAIT_NS = 60_000_000_000L;
  /** A request an error access line ended as refused, until the next line settles it (settleRefused). */
  private LoggedRequest refused;
  /** That access line as a failed request of its own, for when the engine's next line takes the request. */
  private RequestRecord refusedAccess;
  /** The request ended by the last lifecycle line, held for an access line that may follow. */
  private LoggedRequest lastEnded;
  /** How many bare prints came in a row since the last line that was not one (barePrint). */
  private int printed;
  /**
   * At most this many bare prints in a row keep a request next to its access line: the real case
   * is two "None" lines; a run of prints (a progress bar, a script's echoes) is time passing, and
   * a 500 after it is no longer that request's by adjacency.
   */
  private static final int MAX_PRINTS = 3;
  /** The request whose Received/Added line was the last lifecycle line (streaming order). */
  private LoggedRequest lastStarted;
  /** An access line waiting for the Received/Added line that comes right after it. */
  private Integer pendingStatus;
  private String pendingOrigin;

  private final LogTimes times;
  /** The spec's parser: which servers' crashes its own kinds counted (a Ray worker's death). */
  private final SpecParser parser;

  VllmRequestTracker(ParseContext ctx, RecordSink sink, SpecParser parser) {
    this.ctx = ctx;
    this.sink = sink;
    this.parser = parser;
    this.times = parser.times();
  }

  @Override
  public SpecParser.Outcome line(MatchedLine m, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    String event = m.kind.event();
    if (refused != null) {
      settleRefused(event.equals("added") || event.equals("generated") || event.equals("generated_ids")
          || event.equals("finished") || event.equals("lmcache") || event.equals("details") ? m.group("id") : null);
    }
    if (event.equals("access")) {
      return access(m, ts, clock, raw, off, len);
    }
    if (event.equals("lmcache")) {
      // the cache lookup of a request already known (its Received or Added line came first); one
      // the log names nowhere else is no request of its own: it would have no time
      LoggedRequest r = find(m.group("id"));
      if (r == null) {
        return SpecParser.Outcome.OTHER;
      }
      try {
        int total = Integer.parseInt(m.group("total"));
        int hit = Integer.parseInt(m.group("hit"));
        int load = Integer.parseInt(m.group("load"));
        if (hit > total) {
          throw new SpecParser.BadLine("LMCache hit tokens " + hit + " exceed the request's " + total + " tokens");
        }
        // the prompt's cached tokens are the larger of LMCache's hit and what vLLM's own prefix cache
        // holds (LMCache's own reckoning). The 2026 line names vLLM's share; the older one only its
        // difference, "need to load", which goes below zero when vLLM holds more
        // (LMCache/LMCache#2574, #2703)
        String computed = m.group("computed");
        int engine = computed != null ? Integer.parseInt(computed) : load < 0 ? hit - load : 0;
        // under LMCache's min_retrieve ("…, but need to load: 16 < min_retrieve 256, skip retrieve …")
        // it loads nothing: vLLM's share alone is cached
        int cached = m.group("skip") != null ? engine : Math.max(hit, engine);
        if (cached > total) {
          throw new SpecParser.BadLine("vLLM's prefix cache would hold " + engine + " of the request's "
              + total + " tokens (LMCache hit tokens " + hit + ", need to load " + load + ")");
        }
        if (r.promptTokens == null) {
          r.promptTokens = total;
        }
        r.cachedTokens = cached;
        r.extras.put("lmcache_need_to_load", m.group("load"));
        // a later lookup of the same request stands whole (the last one is the one it ran with)
        if (cached != hit) {
          // the cached tokens are not LMCache's hit: keep its figure beside them
          r.extras.put("lmcache_hit_tokens", Integer.toString(hit));
        } else {
          r.extras.remove("lmcache_hit_tokens");
        }
      } catch (NumberFormatException e) {
        throw new SpecParser.BadLine("LMCache token counts: not counts");
      }
      return SpecParser.Outcome.RECORD;
    }
    if (event.equals("generated_ids")) {
      // a response's token ids on a DEBUG line of their own (2026-08 on), right before the INFO line
      // that no longer carries them: the count waits for that line. Ids of a request the log has
      // not named (it starts mid-stream) or has written are no request of their own
      LoggedRequest r = find(m.group("id"));
      if (r == null) {
        return SpecParser.Outcome.OTHER;
      }
      r.idsWaiting = Math.max(tokenCount(m.group("ids")), -1);
      r.idsWaitingMode = m.group("mode");
      return SpecParser.Outcome.RECORD;
    }
    if (event.equals("engine_dead_error")) {
      return engineDeadError(m, ts, clock);
    }
    if (event.equals("response_body")) {
      // the response logged as it is sent: it keeps the request that just ended next to its access line
      String chunks = m.group("chunks");
      if (lastEnded != null && chunks != null) {
        lastEnded.extras.put("response_chunks", chunks);
      }
      return SpecParser.Outcome.OTHER;
    }
    if (ts == NONE) {
      // a request row needs a time: a lifecycle line without one (its header cut off or missing)
      // would make a request of NULL times counted as ok
      throw new SpecParser.BadLine("no timestamp: " + dev.tokentime.formats.spec.LineSpec.aKind(m.kind.name()) + " line without a time of its own"
          + " (no vLLM header or wrapper time)");
    }
    if (event.equals("kserve_latency")) {
      return kserveLatency(m, ts, clock);
    }
    if (event.equals("ray_failure")) {
      return rayFailure(m, ts, clock, raw, off, len);
    }
    // a finished line's figures are checked before the line touches any request: a line rejected
    // for one leaves no request behind (xinference's counts, a patched engine's elapsed_s)
    // (looked up on that kind's lines only: every token line comes this way)
    Integer promptCount = null;
    Integer outputCount = null;
    long elapsed = NONE;
    if (event.equals("finished")) {
      String promptFigure = m.group("promptTokens");
      String outputFigure = m.group("outputTokens");
      String elapsedFigure = m.group("elapsed");
      promptCount = promptFigure == null ? null : count(promptFigure, "prompt tokens");
      outputCount = outputFigure == null ? null : count(outputFigure, "completion tokens");
      elapsed = elapsedFigure == null ? NONE : elapsedNs(elapsedFigure);
    }
    if (event.equals("failed_each")) {
      return failedEach(m, ts, clock);
    }
    if (event.equals("aborted_each")) {
      // one abort call's requests ("Aborted request(s) a,b."): each is cancelled as its own line would
      SpecParser.Outcome outcome = SpecParser.Outcome.OTHER;
      for (String id : m.group("ids").split(",")) {
        if (request(m, id, "aborted", ts, clock, null, null, NONE) == SpecParser.Outcome.RECORD) {
          outcome = SpecParser.Outcome.RECORD;
        }
      }
      return outcome;
    }
    if (event.equals("received") && previewCut(m.group("rest"))) {
      // a line cut inside its prompt preview ("…, prompt: 'Hello wor") may still end in ")." or "].",
      // words of the prompt: no request of it
      throw new SpecParser.BadLine("truncated: a received line whose prompt preview is cut (no closing quote"
          + " and period)");
    }
    return request(m, m.group("id"), event, ts, clock, promptCount, outputCount, elapsed);
  }

  /**
   * Whether a Received line's prompt preview (PREVIEW) is cut: a string's is Python's repr, whole
   * only where its closing quote (no backslash before it) and the line's period end the line.
   */
  static boolean previewCut(String rest) {
    if (rest == null) {
      return false;
    }
    Matcher p = PREVIEW.matcher(rest);
    if (!p.find() || !p.group(1).equals(", prompt: ")) {
      // only a string preview ends a whole line in a quote: another line that does was cut inside
      // a prompt (0.5-0.11's "prompt: 'He said \'no\'.", the prompt first)
      String end = rest.stripTrailing();
      return end.endsWith("'.") || end.endsWith("\".");
    }
    String v = rest.substring(p.end()).stripTrailing();
    if (v.length() < 3 || v.charAt(v.length() - 1) != '.') {
      return true;
    }
    char q = v.charAt(0);
    if (q != '\'' && q != '"') {
      return !v.equals("None.");
    }
    int last = v.length() - 2;
    for (int i = 1; i < last; i++) {
      char c = v.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == q) {
        return true; // the repr closed before the end: what follows is no field of the line
      }
    }
    return last < 1 || v.charAt(last) != q || escaped(v, last);
  }

  /** Whether the character at {@code at} follows an odd run of backslashes. */
  private static boolean escaped(String v, int at) {
    int n = 0;
    for (int i = at - 1; i > 0 && v.charAt(i) == '\\'; i--) {
      n++;
    }
    return n % 2 == 1;
  }

  /** The servers (wrapper identities; "" for a file of one) whose engine died and did not start again. */
  private final java.util.Set<String> dead = new java.util.HashSet<>();


  /**
   * The front end's EngineDeadError, or a line of the engine's death words that opens no traceback
   * (the spec's engine_dead_words): a crash where it is the log's first word of the engine's death
   * since its server started (a log of the API server alone), else that death told again, by the
   * output handler, by each request open when it came, by the engine core after its worker (one
   * death, not one crash a coroutine or a process).
   */
  private SpecParser.Outcome engineDeadError(MatchedLine m, long ts, int clock) {
    if (dead.contains(m.serverKey())) {
      return SpecParser.Outcome.OTHER;
    }
    if (parser.crashCounted(m)) {
      // a death a line of another kind counted since the server started (the raylet's word on its
      // worker, a traceback): told again, no second crash; the requests open at it end here, lost
      // (a raylet's word names no server of a cluster: it ends none)
      event(m, "crash", ts, clock);
      return SpecParser.Outcome.OTHER;
    }
    if (ts == NONE && times.lastNs() != NONE) {
      // a line without a time of its own is placed at the last time the log gave, as any event
      ts = times.lastNs();
      clock = times.lastNsClock();
    }
    String detail = m.group("detail");
    sink.engineEvent(m.lineNo, m.origin(), ts, clock, "crash",
        SpecParser.shortDetail(detail));
    parser.crashStored(m); // a later word of this death (a retold traceback) is no crash either
    event(m, "crash", ts, clock);
    return SpecParser.Outcome.RECORD;
  }

  /** Python's repr of a string in a set of ids: 'a' (or "a" when the id holds a quote). */
  private static final Pattern QUOTED = Pattern.compile("'([^']*)'|\"([^\"]*)\"");

  /**
   * A line that fails several requests at once (the scheduler's KV load failure: "Failing 2
   * request(s) due to KV load failure (…). Request IDs: {'a', 'b'}"): each id named is a failed
   * request, read as a "Request X failed …" line of its own would be.
   */
  private SpecParser.Outcome failedEach(MatchedLine m, long ts, int clock) throws SpecParser.BadLine {
    int n = count(m.group("n"), "failed requests");
    List<String> ids = new ArrayList<>();
    Matcher q = QUOTED.matcher(m.group("ids"));
    while (q.find()) {
      ids.add(q.group(1) != null ? q.group(1) : q.group(2));
    }
    // the count is the failed requests of both paths (sync and async), the set their union
    if (ids.isEmpty() || ids.size() > n) {
      throw new SpecParser.BadLine("the line counts " + n + " failed request(s) but names " + ids.size()
          + " request id(s)");
    }
    SpecParser.Outcome outcome = SpecParser.Outcome.OTHER;
    for (String id : ids) {
      if (request(m, id, "failed", ts, clock, null, null, NONE) == SpecParser.Outcome.RECORD) {
        outcome = SpecParser.Outcome.RECORD;
      }
    }
    return outcome;
  }

  /** A lifecycle line's event for request {@code id} (figures of a finished line checked before). */
  private SpecParser.Outcome request(MatchedLine m, String id, String event, long ts, int clock,
      Integer promptCount, Integer outputCount, long elapsed) throws SpecParser.BadLine {
    boolean starts = event.equals("received") || event.equals("added") || event.equals("details");
    String placeholder = null;
    if (placeholder(id)) {
      // a front end that passes no id (KServe's "Received request N.A.: …"): each such line
      // starts a request of its own, named by its line; a later line under the placeholder
      // cannot say which request it is about
      if (!event.equals("received")) {
        return SpecParser.Outcome.OTHER;
      }
      placeholder = id;
      id = "line-" + m.lineNo;
    }
    flushClosing(ts);
    for (LoggedRequest late : awaiting.removeWaitingSince(ts - AWAIT_NS)) {
      write(late); // no error response came for it
    }
    if (starts && closing.containsKey(id)) {
      throw new SpecParser.BadLine("request id " + id + " repeats a request already read from this"
          + " file (ids repeat across restarts); the first is kept");
    }
    LoggedRequest held = awaiting.get(id);
    if (held != null) {
      if (event.equals("failed")) {
        // the front end's word on a request the death ended: its error; its 500 is to come
        held.status = "error";
        held.error = failedWith(m);
        return SpecParser.Outcome.RECORD;
      }
      // a late line of a request that ended without its response (the API server's Added line
      // logged after the engine's death line, the processes' output interleaved)
      return SpecParser.Outcome.OTHER;
    }
    // a line about another request releases what waited for adjacency
    LoggedRequest r = find(id);
    if (lastEnded != null && lastEnded != r) {
      retire(lastEnded);
      lastEnded = null;
    }
    if (r == null && (written.contains(id) || !starts && writtenBases.containsKey(id))) {
      if (starts) {
        throw new SpecParser.BadLine("request id " + id + " repeats a request already read from this"
            + " file (ids repeat across restarts); the first is kept");
      }
      resolvePendingAccess(null);
      if (event.equals("generated") && "streaming delta".equals(m.group("mode")) && carriesOutput(m)) {
        // a chunk of output no request holds any more: never dropped without a word
        throw new SpecParser.BadLine("a streamed chunk of request " + id + " logged after the request was written"
            + " (it had ended: more than " + CLOSING_NS / 1_000_000_000L + " s of log time before, or its server"
            + " restarted, or " + CLOSING_MAX + " requests ended since): not kept");
      }
      return SpecParser.Outcome.OTHER; // a late line of a request already written
    }
    if (r != null && (event.equals("received") && r.received || event.equals("added") && r.added)) {
      throw new SpecParser.BadLine("request id " + id + " repeats a request still in flight (a second "
          + event + " line); the first is kept");
    }
    if (r == null) {
      r = new LoggedRequest(id, m.lineNo, m.origin(), clock);
      if (placeholder != null) {
        r.extras.put("logged_request_id", placeholder);
        placeholders.put(id, r);
      }
      r.midStream = event.equals("generated") && "streaming delta".equals(m.group("mode"));
      inFlight.put(id, r);
      if (randomSuffix(id)) {
        bySuffixBase.put(id.substring(0, id.length() - 9), r);
      }
      evictIfFull();
    }
    // a success logged right before a request's line is its response starting (streaming): the
    // engine's Added line follows it; a Received line never does (the handler logs it before
    // the response can start), so a success right before one is an earlier request's
    resolvePendingAccess(event.equals("added") ? r : null);
    lastStarted = starts ? r : null;
    boolean sameClock = clock == r.clockId;
    switch (event) {
      case "received" -> {
        r.received = true;
        if (sameClock && r.arrivalNs == NONE) {
          r.arrivalNs = ts;
        }
        readRequestDetails(r, m.group("rest"), m.serverKey(), true);
      }
      case "details" -> readRequestDetails(r, m.group("rest"), m.serverKey(), false);
      case "added" -> {
        r.added = true;
        if (sameClock) {
          if (r.arrivalNs == NONE) {
            r.arrivalNs = ts;
          }
          if (r.queuedNs == NONE) {
            r.queuedNs = ts;
          }
        }
      }
      case "finished" -> {
        r.status = r.status == null ? "ok" : r.status;
        // a wrapper's end line says more (xinference's reason and counts)
        String reason = m.group("reason");
        if (reason != null) {
          r.finishReason = reason;
        }
        if (promptCount != null && r.promptTokens == null) {
          r.promptTokens = promptCount;
        }
        if (outputCount != null) {
          r.completeTokens = outputCount;
        }
        // the engine's seconds since it took the request date its arrival where no line did, unless
        // that falls after a time the request already has (a token line of the same whole second)
        long from = ts - elapsed;
        if (elapsed != NONE && sameClock && r.arrivalNs == NONE
            && (r.queuedNs == NONE || r.queuedNs >= from) && (r.firstTokenNs == NONE || r.firstTokenNs >= from)) {
          r.arrivalNs = from;
        }
        end(r, ts, sameClock);
      }
      case "aborted" -> {
        r.status = "cancelled";
        r.finishReason = "abort";
        end(r, ts, sameClock);
      }
      case "failed" -> {
        // the front end's word on a request that failed ("failed (engine dead)", "failed with an
        // internal error during generation"): its error response, a 5xx access line, is to come
        r.status = "error";
        r.error = failedWith(m);
        if (sameClock && ts != NONE) {
          r.finishedNs = Math.max(ts, r.finishedNs == NONE ? ts : r.finishedNs);
        }
        inFlight.remove(r.id);
        closing.remove(r.id, r);
        if (lastEnded == r) {
          lastEnded = null;
        }
        if (lastStarted == r) {
          lastStarted = null;
        }
        if (r.httpStatus != null) {
          retire(r); // its response had started (a stream's 200): no error line answers it
        } else {
          await(r, ts);
        }
      }
      case "generated" -> generated(r, m, ts, sameClock);
      default -> throw new IllegalStateException("vllm-log.spec names an unknown event " + event);
    }
    return SpecParser.Outcome.RECORD;
  }

  private static String failedWith(MatchedLine m) {
    String why = m.group("why").strip();
    return "failed" + (why.isEmpty() ? "" : " " + why);
  }

  /** The most seconds a request's elapsed time is believed at: 30 days. */
  private static final double MAX_ELAPSED_S = 30 * 86_400;

  private static long elapsedNs(String seconds) throws SpecParser.BadLine {
    double s = Double.parseDouble(seconds); // the pattern holds digits and one point
    if (!(s <= MAX_ELAPSED_S)) {
      throw new SpecParser.BadLine("elapsed_s: " + seconds + " is out of range (0 to " + (long) MAX_ELAPSED_S + " s)");
    }
    return Math.round(s * 1e9);
  }

  private static int count(String digits, String what) throws SpecParser.BadLine {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new SpecParser.BadLine(what + ": " + digits + " is no token count");
    }
  }

  private LoggedRequest find(String id) {
    LoggedRequest r = findExact(id);
    if (r == null && randomSuffix(id)) {
      // since #27987 the engine's lines name the id with a random 8-hex suffix appended
      r = findExact(id.substring(0, id.length() - 9));
    }
    if (r == null) {
      // and the other way: a request known by its engine id (an offline engine logs no Received
      // line) aborted by its caller's ("Aborted request(s) test-001." after "Added request
      // test-001-8181cd7c.")
      LoggedRequest s = bySuffixBase.get(id);
      if (s != null && (s == lastEnded || inFlight.get(s.id) == s)) {
        r = s;
      }
    }
    return r;
  }

  /** RANDOM_SUFFIX.matcher(id).find(), without a regex for ids that end in a plain character. */
  static boolean randomSuffix(String id) {
    int n = id.length();
    if (n > 0 && lineTerminator(id.charAt(n - 1))) {
      return RANDOM_SUFFIX.matcher(id).find(); // '$' may match before it
    }
    if (n < 10 || id.charAt(n - 9) != '-' || lineTerminator(id.charAt(n - 10))) {
      return false;
    }
    for (int i = n - 8; i < n; i++) {
      char c = id.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /** What '.' does not match and '$' may precede. */
  private static boolean lineTerminator(char c) {
    return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
  }

  private LoggedRequest findExact(String id) {
    if (lastEnded != null && lastEnded.id.equals(id)) {
      return lastEnded;
    }
    LoggedRequest r = inFlight.get(id);
    return r != null ? r : closing.get(id);
  }

  // ---- ended requests, held a while for their late lines ----

  /**
   * How long (log time) an ended request waits for its late lines before it is written. V1's
   * output handler logs "Finished request X." as it hands the last output to the API server, which
   * logs that output's "Generated response X (streaming delta)" after it, other requests' lines
   * in between: those chunks are the request's, not lines of nothing.
   */
  static final long CLOSING_NS = 5_000_000_000L;
  static final int CLOSING_MAX = 4096;

  /** Ended requests, in the order they ended, written once their grace has passed. */
  private final LinkedHashMap<String, LoggedRequest> closing = new LinkedHashMap<>();

  /** An ended request no longer next to the line at hand: held for its late lines, then written. */
  private void retire(LoggedRequest r) {
    closing.put(r.id, r);
    if (closing.size() > CLOSING_MAX) {
      Iterator<LoggedRequest> it = closing.values().iterator();
      LoggedRequest eldest = it.next();
      it.remove();
      write(eldest);
    }
  }

  /** Writes the ended requests whose grace is over at log time {@code ts} (all of them for NONE). */
  private void flushClosing(long ts) {
    for (Iterator<LoggedRequest> it = closing.values().iterator(); it.hasNext(); ) {
      LoggedRequest r = it.next();
      if (ts != NONE && r.finishedNs != NONE && ts - r.finishedNs <= CLOSING_NS) {
        break; // in the order they ended: the later ones wait too
      }
      it.remove();
      write(r);
    }
  }

  private void generated(LoggedRequest r, MatchedLine m, long ts, boolean sameClock) {
    String mode = m.group("mode");
    String ids = m.group("ids");
    // the 2026-08 line names no ids: its count is the DEBUG line's right before it, if the log has it
    int n = ids != null ? tokenCount(ids)
        : r.idsWaiting >= 0 && java.util.Objects.equals(r.idsWaitingMode, mode) ? r.idsWaiting : -1;
    r.idsWaiting = -1;
    String reason = m.group("reason") != null ? m.group("reason") : m.group("infoReason");
    boolean finished = reason != null && !reason.equals("None");
    if ("streaming delta".equals(mode)) {
      String output = m.group("output");
      // a delta of unknown count is empty when its text is (the 2026-08 line without its DEBUG ids)
      ChunkKind kind = n == 0 || n < 0 && emptyText(output) ? ChunkKind.EMPTY
          : output.startsWith("'[reasoning") || output.startsWith("\"[reasoning") ? ChunkKind.REASONING
          : ChunkKind.CONTENT;
      if (sameClock) {
        r.token(ts, n, kind);
        if (kind != ChunkKind.EMPTY) {
          r.firstTokenNs = r.firstTokenNs == NONE ? ts : r.firstTokenNs;
          r.lastTokenNs = ts;
        }
      }
    } else {
      // "streaming complete" or a non-streaming response: the whole output
      r.completeTokens = n < 0 ? null : n;
      finished = true;
      if (ctx.keepText()) {
        r.extras.put("output", m.group("output"));
      }
    }
    if (finished) {
      // "streaming_complete" is the logger's word for the stream's end (0.22), not the engine's
      // finish reason (stop, length, abort…): it says nothing of why
      if (reason != null && !reason.equals("None") && !reason.equals("streaming_complete")) {
        r.finishReason = reason;
      }
      r.status = statusOf(r.finishReason, r.status);
      end(r, ts, sameClock);
    }
  }

  /** Python's repr of an empty string. */
  private static boolean emptyText(String output) {
    return output.equals("''") || output.equals("\"\"");
  }

  /** Whether a streamed delta line carries output: ids, else (2026-08 on) its text. */
  private static boolean carriesOutput(MatchedLine m) {
    String ids = m.group("ids");
    return ids != null ? tokenCount(ids) > 0 : !emptyText(m.group("output"));
  }

  private static String statusOf(String finishReason, String status) {
    if (status != null && !status.equals("ok")) {
      return status;
    }
    if (finishReason == null) {
      return "ok";
    }
    return switch (finishReason) {
      case "abort" -> "cancelled";
      case "error" -> "error";
      default -> "ok";
    };
  }

  private void end(LoggedRequest r, long ts, boolean sameClock) {
    if (sameClock && ts != NONE) {
      r.finishedNs = Math.max(ts, r.finishedNs == NONE ? ts : r.finishedNs);
    }
    inFlight.remove(r.id);
    placeholders.remove(r.id, r);
    closing.remove(r.id, r);
    if (lastEnded != null && lastEnded != r) {
      retire(lastEnded);
    }
    lastEnded = r;
  }

  private void readRequestDetails(LoggedRequest r, String rest, String server, boolean received) {
    if (rest == null) {
      return;
    }
    // a Received line's prompt preview (PREVIEW) is read apart: its text may hold any words
    // ("max_tokens=5", "prompt_token_ids: [1]"), and its ids are a capped list
    Matcher pv = received ? PREVIEW.matcher(rest) : null;
    String preview = null;
    if (pv != null && pv.find()) {
      preview = rest.substring(pv.start(1) + 2);
      rest = rest.substring(0, pv.start(1));
    }
    Integer cap = maxLogLen.get(server);
    Matcher ids = PROMPT_IDS.matcher(preview != null && preview.startsWith("prompt_token_ids: ") ? preview : rest);
    // "[]" is what --max-log-len 0 leaves (a prompt has at least one token): no count; nor a list
    // as long as --max-log-len (cut there, or whole: it cannot say), nor a preview as long as its
    // default cap
    if (ids.find() && !ids.group(1).isBlank() && !ids.group(1).contains("...") && !ids.group(1).contains("…")) {
      int n = tokenCount("[" + ids.group(1) + "]");
      boolean fromPreview = preview != null && preview.startsWith("prompt_token_ids: ");
      int limit = cap != null ? cap : fromPreview ? PREVIEW_IDS_CAP : Integer.MAX_VALUE;
      if (n < limit) {
        r.promptTokens = n;
      }
    }
    Matcher max = MAX_TOKENS.matcher(rest);
    if (max.find()) {
      r.extras.put("max_tokens", max.group(1));
    }
    if (ctx.keepText()) {
      Matcher p = PROMPT.matcher(rest);
      if (p.find()) {
        r.extras.put("prompt", p.group(1));
      } else if (preview != null && preview.startsWith("prompt: ")) {
        String text = preview.substring("prompt: ".length()).stripTrailing();
        r.extras.put("prompt", text.substring(0, text.length() - 1)); // its repr, without the line's period
      }
    }
  }

  /** Tokens in a Python list of ids ({@code [1, 2, 3]}), or -1 for None. */
  static int tokenCount(String list) {
    if (list == null || list.equals("None")) {
      return -1;
    }
    // counted in place (one per token line: no copy of the list)
    int end = list.length() - 1;
    int n = 1;
    boolean empty = true;
    for (int i = 1; i < end; i++) {
      char c = list.charAt(i);
      if (c == ',') {
        n++;
      } else if (empty && !Character.isWhitespace(c)) {
        empty = false;
      }
    }
    return empty && n == 1 ? 0 : n;
  }

  // ---- KServe ----

  /**
   * How far a placeholder request's arrival may lie from the start KServe's latency line implies
   * (its time less its steps' milliseconds): the Received line is logged as the predict begins,
   * within a few ms of it in the real excerpt; a wider window would take a neighbour's request.
   */
  static final long KSERVE_FIT_NS = 250_000_000L;
  /** Two arrivals this close to that start are a tie: neither is taken. */
  static final long KSERVE_TIE_NS = 5_000_000L;

  /**
   * KServe's latency line (vllm-log.spec, kserve_latency) after it answered a predict: it ends the
   * request a placeholder id started ("Received request N.A.") whose arrival is nearest the start
   * its figures imply (its time less preprocess, explain, predict and postprocess), on its server
   * and clock: within {@link #KSERVE_FIT_NS}, and nearer by {@link #KSERVE_TIE_NS} than any
   * other's. Else it cannot say which: counted as other (a request that hung stays in flight and
   * takes no later request's line).
   */
  private SpecParser.Outcome kserveLatency(MatchedLine m, long ts, int clock) throws SpecParser.BadLine {
    resolvePendingAccess(null);
    flushClosing(ts);
    LoggedRequest only = null;
    int n = 0;
    if (ts != NONE) {
      double ms = 0;
      for (String g : new String[] {"pre", "explain", "predict", "post"}) {
        double v = Double.parseDouble(m.group(g));
        if (!(v >= 0 && v < 1e9)) {
          throw new SpecParser.BadLine("KServe latency line: " + g + " " + m.group(g) + " ms out of range");
        }
        ms += v;
      }
      long start = ts - Math.round(ms * 1e6);
      long best = Long.MAX_VALUE;
      long second = Long.MAX_VALUE;
      for (LoggedRequest r : placeholders.values()) {
        if (r.clockId != clock || !ErrorAccessLines.sameOrigin(r.instance, m.origin()) || r.arrivalNs == NONE || r.arrivalNs > ts) {
          continue;
        }
        long d = Math.abs(r.arrivalNs - start);
        if (d < best) {
          second = best;
          best = d;
          only = r;
        } else if (d < second) {
          second = d;
        }
      }
      // the nearest, when no other lies as near (within the log's ms and the few ms between
      // the Received line and the predict's start)
      n = only != null && best <= KSERVE_FIT_NS && second - best > KSERVE_TIE_NS ? 1 : 0;
    }
    if (n != 1) {
      // about a request it cannot name: what follows is no longer next to the last request's lines
      lastStarted = null;
      if (lastEnded != null) {
        retire(lastEnded);
        lastEnded = null;
      }
      return SpecParser.Outcome.OTHER;
    }
    if (only.status == null) {
      only.status = "ok"; // KServe logs its latencies once the predict returned
    }
    only.extras.put("kserve_request_id", m.group("kid"));
    only.extras.put("kserve_predict_ms", m.group("predict"));
    lastStarted = null;
    end(only, ts, clock == only.clockId);
    return SpecParser.Outcome.RECORD;
  }

  /**
   * Settles a request an error access line right after its Received line ended as refused: the
   * next line goes on with it (its Added, Generated or Finished line, {@code continuing} its id) —
   * the engine took it, and the error was another client's, a failed request of its own — or does
   * not, and it stays refused.
   */
  private void settleRefused(String continuing) {
    if (refused == null) {
      return;
    }
    LoggedRequest r = refused;
    RequestRecord other = refusedAccess;
    refused = null;
    refusedAccess = null;
    if (continuing != null && find(continuing) == r) { // by its id, or with the engine's suffix
      r.httpStatus = null;
      r.status = null;
      r.finishedNs = NONE;
      sink.request(other, null, 0, 0);
      return;
    }
    inFlight.remove(r.id);
    write(r);
  }

  // ---- access lines ----

  private SpecParser.Outcome access(MatchedLine m, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    if (m.group("durMs") != null) {
      return rayAccess(m, ts, clock, raw, off, len);
    }
    int status = Integer.parseInt(m.group("status"));
    if (!ErrorAccessLines.inferenceRequest(m.group("method"), m.group("path"))) {
      return SpecParser.Outcome.OTHER; // /metrics, /health, /v1/models: no request of ours; a GET of an inference route (a probe)
    }
    if (lastEnded != null && lastEnded.httpStatus == null && ErrorAccessLines.sameOrigin(lastEnded.instance, m.origin())) {
      tie(lastEnded, status);
      retire(lastEnded);
      lastEnded = null;
      return SpecParser.Outcome.RECORD;
    }
    if (lastStarted != null && lastStarted.httpStatus == null && ErrorAccessLines.sameOrigin(lastStarted.instance, m.origin())
        && inFlight.get(lastStarted.id) == lastStarted) {
      LoggedRequest r = lastStarted;
      lastStarted = null;
      tie(r, status);
      if (status >= 400) {
        // refused before the engine took it (vllm.md §5, #19739): it ends here, at the last
        // time the log gave (the access line has none of its own), unless the engine's next
        // line takes it (settleRefused): then the error was another client's
        if (r.finishedNs == NONE && times.lastNs() != NONE && times.lastNsClock() == r.clockId) {
          r.finishedNs = Math.max(times.lastNs(), r.arrivalNs);
        }
        refused = r;
        refusedAccess = new RequestRecord();
        ErrorAccessLines.fill(refusedAccess, m, status, ts, clock, times, ctx.defaultRun(), "vllm", m.origin());
      }
      return SpecParser.Outcome.RECORD;
    }
    if (status >= 400) {
      resolvePendingAccess(null);
      if (times.lastNs() != NONE) {
        // an access line has no time of its own: the log's last time says what waited too long
        for (LoggedRequest late : awaiting.removeWaitingSince(times.lastNs() - AWAIT_NS)) {
          write(late);
        }
      }
      LoggedRequest d = status >= 500 ? awaiting.takeFor(m.origin()) : null;
      if (d != null) {
        // the error response of a request a death or a failure ended, not a failure of its own
        tie(d, status);
        if (d.error == null) {
          d.error = "HTTP " + status + " after the engine died (line " + d.extras.get("lost_at_line") + ")";
        }
        write(d);
        return SpecParser.Outcome.RECORD;
      }
      // an error no request line is next to (refused before admission: a 404 for an unknown
      // model, a 500 of a failing server): a failed request of its own, never tied to the
      // request that comes next, which may be another client's seconds later
      resolvePendingAccess(null);
      failedAccess(m, status, ts, clock, raw, off, len);
      return SpecParser.Outcome.RECORD;
    }
    if (pendingStatus != null) {
      sink.otherLine(); // the earlier access line found no request right after it
    }
    pendingStatus = status;
    pendingOrigin = m.origin();
    return SpecParser.Outcome.DEFERRED;
  }

  /**
   * Ray Serve's access line (vllm-log.spec, rayaccess): Ray, not uvicorn, answered the client, so
   * it is never tied to a vLLM request by adjacency (Ray's request id is not vLLM's). A call that
   * failed on an inference route is a failed request of its own, from the header's time back by
   * the duration; the proxy logging the same call after the replica is that request again.
   */
  private SpecParser.Outcome rayAccess(MatchedLine m, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    int status = Integer.parseInt(m.group("status"));
    if (m.prefixValue("rsdeployment") == null
        || status < 400 || !ErrorAccessLines.inferenceRequest(m.group("method"), m.group("path"))) {
      // without Ray's header the shape is anyone's (a logging middleware's line beside uvicorn's own)
      return SpecParser.Outcome.OTHER;
    }
    double durMs = Double.parseDouble(m.group("durMs"));
    if (!(durMs < 1e9)) { // about 11 days: no HTTP call lasts longer; the digits are garbage
      throw new SpecParser.BadLine("Ray Serve access line: duration " + m.group("durMs") + " ms out of range");
    }
    String rayId = m.prefixValue("rsid");
    if (rayId != null && rayFailed.put(rayId, Boolean.TRUE) != null) {
      return SpecParser.Outcome.OTHER; // the same call's failure, logged again by the proxy or the router
    }
    if (rayId != null) {
      SpecParser.Outcome named = failNamedRequest(rayId, r -> tie(r, status));
      if (named != null) {
        return named;
      }
    }
    rec.reset();
    ErrorAccessLines.fill(rec, m, status, ts, clock, times, ctx.defaultRun(), "vllm", m.origin());
    if (ts != NONE) {
      rec.arrivalNs = ts - Math.round(durMs * 1e6);
    }
    if (rayId != null) {
      rec.extras.put("ray_request_id", rayId);
    }
    sink.request(rec, raw, off, len);
    return SpecParser.Outcome.RECORD;
  }

  /**
   * Ray Serve LLM's failure line for a call (vllm-log.spec, rayfailure): a failed request of its
   * own at the line's time, unless the call's failure was counted already (its access line, or the
   * vLLM request Ray handed its id to); its access line after it is then the same failure.
   */
  private SpecParser.Outcome rayFailure(MatchedLine m, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    String rayId = m.group("id");
    if (m.prefixValue("rsdeployment") == null) {
      return SpecParser.Outcome.OTHER; // without Ray's header the words are anyone's
    }
    if (rayFailed.put(rayId, Boolean.TRUE) != null) {
      return SpecParser.Outcome.OTHER;
    }
    SpecParser.Outcome named = failNamedRequest(rayId, r -> {
      r.status = "error";
      r.error = "Ray Serve: failure while handling the request";
    });
    if (named != null) {
      return named;
    }
    rec.reset();
    ErrorAccessLines.failed(rec, m.lineNo, "ray-failure-line-" + m.lineNo, ts, clock, times,
        "a Ray Serve failure line", ctx.defaultRun(), "vllm", m.origin());
    String cause = ErrorAccessLines.cause(m.previousMessage(), 500);
    rec.error = "Ray Serve: failure while handling request " + rayId
        + (cause == null ? "" : "; the error logged right before it: " + cause);
    rec.extras.put("ray_request_id", rayId);
    sink.request(rec, raw, off, len);
    return SpecParser.Outcome.RECORD;
  }

  /**
   * A failed Ray call's request where the log names it: Ray Serve LLM may hand its id to vLLM,
   * whose request is then chatcmpl-&lt;id&gt; (cmpl-…), and the failure is that request's, not one
   * more. In flight: {@code fail} marks it (RECORD); already written: counted once, as that request
   * (OTHER); named nowhere: null.
   */
  private SpecParser.Outcome failNamedRequest(String rayId, java.util.function.Consumer<LoggedRequest> fail) {
    for (String id : new String[] {"chatcmpl-" + rayId, "cmpl-" + rayId, rayId}) {
      LoggedRequest r = find(id);
      if (r != null) {
        fail.accept(r);
        r.extras.put("ray_request_id", rayId);
        return SpecParser.Outcome.RECORD;
      }
      if (written.contains(id)) {
        return SpecParser.Outcome.OTHER;
      }
    }
    return null;
  }

  /** Ray request ids of the failed calls already written (a proxy's line follows within seconds). */
  private final Map<String, Boolean> rayFailed = recent(4096);

  /** The last {@code max} keys put, the eldest dropped first. */
  private static Map<String, Boolean> recent(int max) {
    return new LinkedHashMap<>(64, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
        return size() > max;
      }
    };
  }

  /** A failed request known from its access line alone (ErrorAccessLines). */
  private void failedAccess(MatchedLine m, int status, long ts, int clock, byte[] raw, int off, int len)
      throws SpecParser.BadLine {
    rec.reset();
    ErrorAccessLines.fill(rec, m, status, ts, clock, times, ctx.defaultRun(), "vllm", m.origin());
    sink.request(rec, raw, off, len);
  }

  /** Settles a waiting access line: tied to {@code starting} when given, else counted. */
  private void resolvePendingAccess(LoggedRequest starting) {
    if (pendingStatus == null) {
      return;
    }
    if (starting != null && starting.httpStatus == null && ErrorAccessLines.sameOrigin(starting.instance, pendingOrigin)) {
      tie(starting, pendingStatus);
      sink.record();
    } else {
      sink.otherLine();
    }
    pendingStatus = null;
    pendingOrigin = null;
  }

  /** Holds a request for its error response (AwaitingResponse), at most MAX_IN_FLIGHT of them. */
  private void await(LoggedRequest r, long ts) {
    awaiting.add(r, ts != NONE ? ts : times.lastNs());
    if (awaiting.size() > MAX_IN_FLIGHT) {
      LoggedRequest eldest = awaiting.eldest();
      awaiting.remove(eldest);
      write(eldest);
    }
  }


  private static void tie(LoggedRequest r, int status) {
    r.httpStatus = status;
    if (status >= 400) {
      r.status = "error";
    }
  }

  /**
   * Every line passes here first. One that is no request line (a stats line, an error, a
   * traceback frame, any other) stands between an access line and the request lines around it:
   * they are no longer adjacent, so what waited for adjacency is settled and nothing is tied across
   * it (a 200 logged seconds later, after stats lines, is another client's).
   */
  @Override
  public boolean continuation(MatchedLine m, byte[] raw, int off, int len) {
    if (m.kind == null && printed < MAX_PRINTS && barePrint(m)) {
      printed++;
      return false;
    }
    boolean afterPrint = printed > 0;
    printed = 0;
    if (afterPrint && lastEnded != null && m.kind != null && !m.kind.event().equals("access")) {
      // prints kept the ended request next to an access line, not to its own late lines, which
      // may come long after them: those find it among the ended ones, as after any other line
      retire(lastEnded);
      lastEnded = null;
    }
    if (m.kind == null || !m.kind.table().equals("requests")) {
      settleRefused(null);
      resolvePendingAccess(null);
      lastStarted = null;
      if (lastEnded != null) {
        retire(lastEnded);
        lastEnded = null;
      }
    }
    return false;
  }

  /** A logger's level opening a line with no header (uvicorn's "ERROR:    ", basicConfig's "WARNING:root:"). */
  private static final Pattern LOGGER_LEVEL = Pattern.compile("(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\\b");

  /**
   * A process's bare print ({@code print(x)} in a server's code: vLLM 0.3's two "None" lines
   * between a request's Finished line and its 500, field/91): no time, no header, no kind, not
   * indented (a traceback's frame), no logger's level, no HTTP request, short. A few of them say
   * nothing happened between the lines around them, so they part no request from the access line
   * after them (up to MAX_PRINTS in a row); a line
   * that does (any of those) still parts them, and the adjacency it keeps is the one right before it.
   */
  private static boolean barePrint(MatchedLine m) {
    String msg = m.message();
    return m.times.isEmpty() && msg != null && !msg.isEmpty() && msg.length() <= 80
        && !Character.isWhitespace(msg.charAt(0))
        && !LOGGER_LEVEL.matcher(msg).lookingAt() && !msg.contains("HTTP/");
  }

  // ---- endings ----

  @Override
  public void event(MatchedLine m, String kind, long tsNs, int clockId) {
    // a new server process, or an engine that died: what was in flight will never finish (a
    // server going down is no end of itself: uvicorn drains the open connections after its
    // "Shutting down", and their requests still finish)
    if (kind.equals("version")) {
      maxLogLen.remove(m.serverKey()); // a new process: its args line says again
    } else if (m.kind.name().equals("args")) {
      Matcher len = MAX_LOG_LEN.matcher(m.group("detail"));
      if (len.find()) {
        if (len.group(1).equals("None")) {
          maxLogLen.remove(m.serverKey());
        } else {
          String figure = len.group(1);
          maxLogLen.put(m.serverKey(), figure.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(figure));
        }
      }
      return;
    }
    boolean restart = kind.equals("start") || kind.equals("version");
    boolean died = m.kind.name().equals("engine_dead") || m.kind.name().equals("engine_dead_error")
        || m.kind.name().equals("engine_dead_words");
    if (!restart && !died) {
      return;
    }
    if (died) {
      dead.add(m.serverKey());
    } else {
      dead.remove(m.serverKey());
    }
    resolvePendingAccess(null);
    // a server's restart or death ends its own requests: in a stream of several pods (stern, a
    // shipper's export) the others' go on
    String server = m.server();
    for (Iterator<LoggedRequest> it = closing.values().iterator(); it.hasNext(); ) {
      LoggedRequest r = it.next();
      if (ofServer(r, server)) {
        it.remove();
        write(r); // no late line of an earlier process's request comes after this
      }
    }
    if (lastEnded != null) {
      write(lastEnded);
      lastEnded = null;
    }
    if (restart) {
      // a new process answers no request of the old one
      for (LoggedRequest r : awaiting.removeIf(r -> ofServer(r, server))) {
        write(r);
      }
    }
    for (Iterator<LoggedRequest> it = inFlight.values().iterator(); it.hasNext(); ) {
      LoggedRequest r = it.next();
      if (!ofServer(r, server)) {
        continue;
      }
      it.remove();
      r.status = "lost";
      r.extras.put("lost_at_line", Long.toString(m.lineNo));
      if (died && r.httpStatus == null) {
        await(r, tsNs); // its error response may follow
      } else {
        write(r);
      }
    }
  }

  private static boolean ofServer(LoggedRequest r, String server) {
    return MatchedLine.ofServer(r.instance, server);
  }

  @Override
  public void end() {
    settleRefused(null);
    resolvePendingAccess(null);
    flushClosing(NONE);
    if (lastEnded != null) {
      write(lastEnded);
      lastEnded = null;
    }
    for (LoggedRequest r : awaiting.removeIf(r -> true)) {
      write(r);
    }
    for (LoggedRequest r : inFlight.values()) {
      r.extras.put("end", "log ended while the request was in flight");
      write(r);
    }
    inFlight.clear();
  }

  private void evictIfFull() {
    if (inFlight.size() <= MAX_IN_FLIGHT) {
      return;
    }
    Iterator<LoggedRequest> it = inFlight.values().iterator();
    LoggedRequest oldest = it.next();
    it.remove();
    oldest.extras.put("end", "written early: more than " + MAX_IN_FLIGHT + " requests in flight");
    write(oldest);
  }

  private void write(LoggedRequest r) {
    written.add(r.id);
    placeholders.remove(r.id, r);
    if (randomSuffix(r.id)) {
      String base = r.id.substring(0, r.id.length() - 9);
      bySuffixBase.remove(base, r);
      writtenBases.put(base, Boolean.TRUE);
    }
    rec.reset();
    rec.lineNo = r.firstLine;
    rec.run = ctx.defaultRun();
    rec.requestId = r.id;
    rec.engine = "vllm";
    rec.instance = r.instance;
    rec.clockId = r.clockId;
    rec.arrivalNs = r.arrivalNs;
    rec.queuedNs = r.queuedNs;
    // a request the file joined mid-stream (its received or added line before the file's first,
    // as in a rotated log): its first chunk here is not its first token, nor are the chunks here
    // its output; the chunks are kept as seen
    boolean joined = r.midStream && !r.received && !r.added;
    rec.firstTokenNs = joined ? NONE : r.firstTokenNs;
    rec.lastTokenNs = r.lastTokenNs;
    rec.finishedNs = r.finishedNs;
    rec.promptTokens = r.promptTokens;
    rec.cachedTokens = r.cachedTokens;
    rec.outputTokens = r.completeTokens != null ? r.completeTokens
        : !joined && r.tokens > 0 && r.streamedTokens >= 0 ? Integer.valueOf(r.streamedTokens) : null;
    if (joined) {
      r.extras.put("joined_mid_stream", "true");
    }
    rec.status = r.status;
    rec.finishReason = r.finishReason;
    rec.httpStatus = r.httpStatus;
    rec.error = r.error;
    rec.extras.putAll(r.extras);
    long key = sink.request(rec, null, 0, 0);
    if (key < 0) {
      return;
    }
    for (int i = 0; i < r.tokens; i++) {
      sink.token(key, i, r.tokenNs[i], r.tokenN[i], r.tokenKind[i]);
    }
    if (r.tokens > 0) {
      sink.endOfStream(key);
    }
  }
}
