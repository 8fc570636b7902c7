package dev.tokentime.ingest;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One engine iteration as a parser read it (a row of {@code steps}); reused between records.
 * Unknown values stay null; {@code tsNs} uses {@link RequestRecord#NONE} for "absent".
 */
public final class StepRecord {
  public long lineNo;
  public String instance;
  public Integer rank;
  /** Bumped by the parser when the iteration counter goes back (a restart); 0 for the first. */
  public int epoch;
  public Long iter;
  public long tsNs = RequestRecord.NONE;
  public int clockId;
  public Double durationMs;
  public Integer running;
  public Integer waiting;
  public Integer ctxRequests;
  public Integer ctxTokens;
  public Integer genRequests;
  public Integer genTokens;
  public Integer paused;
  public Double kvUsage;
  public final Map<String, Double> extras = new LinkedHashMap<>();

  public void reset() {
    lineNo = 0;
    instance = null;
    rank = null;
    epoch = 0;
    iter = null;
    tsNs = RequestRecord.NONE;
    clockId = 0;
    durationMs = null;
    running = waiting = ctxRequests = ctxTokens = genRequests = genTokens = paused = null;
    kvUsage = null;
    extras.clear();
  }
}
