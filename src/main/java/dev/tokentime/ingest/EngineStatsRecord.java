package dev.tokentime.ingest;

import java.util.LinkedHashMap;
import java.util.Map;

/** One periodic stats snapshot (a row of {@code engine_stats}); reused between records. */
public final class EngineStatsRecord {
  public long lineNo;
  public String instance;
  public long tsNs = RequestRecord.NONE;
  public int clockId;
  public Double intervalS;
  public Double promptTokensPerS;
  public Double genTokensPerS;
  public Integer running;
  public Integer waiting;
  public Integer swapped;
  public Long preemptions;
  public Double kvUsage;
  public Double prefixHitRate;
  public final Map<String, Double> extras = new LinkedHashMap<>();

  public void reset() {
    lineNo = 0;
    instance = null;
    tsNs = RequestRecord.NONE;
    clockId = 0;
    intervalS = promptTokensPerS = genTokensPerS = null;
    running = waiting = swapped = null;
    preemptions = null;
    kvUsage = prefixHitRate = null;
    extras.clear();
  }
}
