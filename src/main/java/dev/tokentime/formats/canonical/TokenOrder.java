package dev.tokentime.formats.canonical;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Checks token lines of one file as they arrive: a seq seen twice for a request, or a timestamp
 * earlier than that of a lower seq already seen. Lines may arrive out of order; in-order streams
 * (the common case) cost two numbers per request, a BitSet is kept only once a request's lines
 * arrive out of order. What a file-local check cannot see (a request split over files) is caught
 * by the invariant views after ingest.
 */
final class TokenOrder {
  private static final class State {
    int maxSeq = -1;
    long tsAtMaxSeq;
    BitSet seen; // null while seqs arrived as 0,1,2,... without gaps
  }

  private final Map<Long, State> states = new HashMap<>();
  /** The state of the previous line's request: consecutive lines are mostly of one request. */
  private long lastKey;
  private State last;

  /** Returns null when the token is acceptable, else the reject reason. */
  String accept(long requestKey, int seq, long tsNs) {
    State s = last != null && lastKey == requestKey ? last : states.computeIfAbsent(requestKey, k -> new State());
    last = s;
    lastKey = requestKey;
    if (seq > s.maxSeq) {
      if (s.maxSeq >= 0 && tsNs < s.tsAtMaxSeq) {
        return "timestamps decrease: seq " + seq + " (ts_ns " + tsNs + ") is before seq " + s.maxSeq
            + " (ts_ns " + s.tsAtMaxSeq + ")";
      }
      if (s.seen == null && seq != s.maxSeq + 1) {
        s.seen = new BitSet();
        s.seen.set(0, s.maxSeq + 1);
      }
      if (s.seen != null) {
        s.seen.set(seq);
      }
      s.maxSeq = seq;
      s.tsAtMaxSeq = tsNs;
      return null;
    }
    if (s.seen == null || s.seen.get(seq)) {
      return "duplicate token: seq " + seq + " of this request was already read";
    }
    s.seen.set(seq);
    return null;
  }
}
