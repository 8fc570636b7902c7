package dev.tokentime.ingest;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One request as a parser read it: a mutable holder, reused from record to record so that a
 * parser allocates nothing per line. Unknown values stay {@code null}; nanosecond timestamps
 * use {@link #NONE} for "absent" so they need no boxing.
 */
public final class RequestRecord {
  public static final long NONE = Long.MIN_VALUE;

  public long lineNo;
  public String run;
  public String requestId;
  public String engine;
  public String instance;
  public int clockId;
  public long arrivalNs = NONE;
  public long queuedNs = NONE;
  public long scheduledNs = NONE;
  public long firstTokenNs = NONE;
  public long lastTokenNs = NONE;
  public long finishedNs = NONE;
  public Double preQueueMs;
  public Double queueMs;
  public Double prefillMs;
  public Double ttftMs;
  public Double decodeMs;
  public Double e2eMs;
  public Double tpotMs;
  public Integer promptTokens;
  public Integer outputTokens;
  public Integer cachedTokens;
  public String status;
  public String finishReason;
  public Integer httpStatus;
  public String error;
  public String phase;
  public Long firstIter;
  public Long lastIter;
  public final Map<String, String> extras = new LinkedHashMap<>();

  public void reset() {
    lineNo = 0;
    run = requestId = engine = instance = null;
    clockId = 0;
    arrivalNs = queuedNs = scheduledNs = firstTokenNs = lastTokenNs = finishedNs = NONE;
    preQueueMs = queueMs = prefillMs = ttftMs = decodeMs = e2eMs = tpotMs = null;
    promptTokens = outputTokens = cachedTokens = null;
    status = finishReason = error = phase = null;
    httpStatus = null;
    firstIter = lastIter = null;
    extras.clear();
  }
}
