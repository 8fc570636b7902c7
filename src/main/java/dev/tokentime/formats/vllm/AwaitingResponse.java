package dev.tokentime.formats.vllm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Requests that ended without their response: an engine's death ended them ("lost"), or the front
 * end said they failed ("Request … failed (engine dead)."). uvicorn logs each one's error
 * response (a 5xx access line) later, after the death's traceback and its "already dead" lines,
 * one per client, with no id: each such line answers the first request still waiting of its
 * origin, in the order they ended. Kept by id (the caller's id and the engine's with its 8-hex
 * suffix both find it) and, per origin, in that order: a stream of many pods finds its own
 * without a scan of every request waiting.
 */
final class AwaitingResponse {
  private final LinkedHashMap<String, LoggedRequest> byId = new LinkedHashMap<>();
  /** A request known by its engine id (suffixed), by its caller's id. */
  private final Map<String, LoggedRequest> byBase = new HashMap<>();
  /** Per origin ("" for none), in the order added; an entry leaves with its request. */
  private final Map<String, LinkedHashMap<String, LoggedRequest>> byOrigin = new HashMap<>();
  private final Map<LoggedRequest, Long> order = new HashMap<>();
  private long seq;

  /** Adds a request that waits for its error response (one already answered never waits). */
  void add(LoggedRequest r, long since) {
    if (byId.containsKey(r.id)) {
      return;
    }
    r.awaitSince = since;
    byId.put(r.id, r);
    order.put(r, ++seq);
    if (VllmRequestTracker.randomSuffix(r.id)) {
      byBase.put(r.id.substring(0, r.id.length() - 9), r);
    }
    byOrigin.computeIfAbsent(key(r.instance), k -> new LinkedHashMap<>()).put(r.id, r);
  }

  /** The waiting request this id names (its own, its caller's id, or its engine's suffixed id), or null. */
  LoggedRequest get(String id) {
    LoggedRequest r = byId.get(id);
    if (r == null && VllmRequestTracker.randomSuffix(id)) {
      r = byId.get(id.substring(0, id.length() - 9));
    }
    return r != null ? r : byBase.get(id);
  }

  /**
   * Takes the first request waiting that an error line of {@code origin} answers: of that origin
   * or of none; any, for a line of no origin.
   */
  LoggedRequest takeFor(String origin) {
    LoggedRequest r;
    if (origin == null) {
      r = byId.isEmpty() ? null : byId.values().iterator().next();
    } else {
      LoggedRequest own = head(byOrigin.get(origin));
      LoggedRequest none = head(byOrigin.get(""));
      r = own == null ? none : none == null ? own : order.get(own) < order.get(none) ? own : none;
    }
    if (r != null) {
      remove(r);
    }
    return r;
  }

  /** Removes and returns the requests {@code which} selects, in order. */
  List<LoggedRequest> removeIf(Predicate<LoggedRequest> which) {
    List<LoggedRequest> out = new ArrayList<>();
    for (LoggedRequest r : new ArrayList<>(byId.values())) {
      if (which.test(r)) {
        remove(r);
        out.add(r);
      }
    }
    return out;
  }

  /** Removes and returns those waiting since before {@code ns} (log time), in order. */
  List<LoggedRequest> removeWaitingSince(long ns) {
    if (byId.isEmpty()) {
      return List.of(); // every line of a log passes here: no allocation when nothing waits
    }
    List<LoggedRequest> out = new ArrayList<>();
    for (Iterator<LoggedRequest> it = byId.values().iterator(); it.hasNext(); ) {
      LoggedRequest r = it.next();
      if (r.awaitSince == dev.tokentime.ingest.RequestRecord.NONE || r.awaitSince >= ns) {
        break; // in the order they ended: the later ones wait too
      }
      out.add(r);
    }
    out.forEach(this::remove);
    return out;
  }

  int size() {
    return byId.size();
  }

  LoggedRequest eldest() {
    return byId.isEmpty() ? null : byId.values().iterator().next();
  }

  void remove(LoggedRequest r) {
    if (byId.remove(r.id, r)) {
      order.remove(r);
      LinkedHashMap<String, LoggedRequest> own = byOrigin.get(key(r.instance));
      if (own != null) {
        own.remove(r.id, r);
        if (own.isEmpty()) {
          byOrigin.remove(key(r.instance));
        }
      }
      if (VllmRequestTracker.randomSuffix(r.id)) {
        byBase.remove(r.id.substring(0, r.id.length() - 9), r);
      }
    }
  }

  private static LoggedRequest head(LinkedHashMap<String, LoggedRequest> q) {
    return q == null || q.isEmpty() ? null : q.values().iterator().next();
  }

  private static String key(String instance) {
    return instance == null ? "" : instance;
  }
}
