package dev.tokentime.testing;

import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A RecordSink that keeps everything in lists, for testing parsers on strings. */
public final class CollectingSink implements RecordSink {
  public record Req(long key, String run, String id, long lineNo, long arrivalNs, long firstTokenNs,
      Integer outputTokens, String status, Map<String, String> extras) {}

  public record Tok(long key, int seq, long tsNs, int nTokens, ChunkKind kind) {}

  public record Rej(long lineNo, String reason, String line) {}

  public final List<ClockSpec> clocks = new ArrayList<>();
  public final List<Req> requests = new ArrayList<>();
  public final List<Tok> tokens = new ArrayList<>();
  public final List<Rej> rejects = new ArrayList<>();
  public final Map<String, Object[]> levels = new LinkedHashMap<>();
  private final Map<String, Long> keys = new HashMap<>();
  public long records;
  public long other;
  private long nextKey = 1;

  @Override
  public int clock(ClockSpec spec) {
    int i = clocks.indexOf(spec);
    if (i < 0) {
      clocks.add(spec);
      i = clocks.size() - 1;
    }
    return i + 1;
  }

  @Override
  public String runLevel(String run, String kind, Double level, Integer repeat, String how) {
    Object[] prev = levels.get(run);
    if (prev != null && kind != null && prev[0] != null
        && (!prev[0].equals(kind) || !prev[1].equals(level))) {
      return "conflict";
    }
    levels.put(run, new Object[] {kind, level, repeat});
    return null;
  }

  @Override
  public long request(RequestRecord r, byte[] line, int off, int len) {
    String k = r.run + "/" + r.requestId;
    if (keys.containsKey(k)) {
      reject(r.lineNo, "duplicate", line, off, len);
      return -1;
    }
    long key = nextKey++;
    keys.put(k, key);
    requests.add(new Req(key, r.run, r.requestId, r.lineNo, r.arrivalNs, r.firstTokenNs,
        r.outputTokens, r.status, new LinkedHashMap<>(r.extras)));
    return key;
  }

  @Override
  public long requestKeyFor(String run, String requestId, int clockId, long lineNo) {
    return keys.computeIfAbsent(run + "/" + requestId, k -> nextKey++);
  }

  @Override
  public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {
    tokens.add(new Tok(requestKey, seq, tsNs, nTokens, kind));
  }

  public final List<String> steps = new ArrayList<>();
  public final List<String> stats = new ArrayList<>();
  public final List<String> events = new ArrayList<>();
  public final List<String> histograms = new ArrayList<>();
  public final List<String> reported = new ArrayList<>();
  public final List<String> anchors = new ArrayList<>();

  @Override
  public void step(dev.tokentime.ingest.StepRecord s) {
    steps.add("iter=" + s.iter + " epoch=" + s.epoch + " rank=" + s.rank + " ts=" + s.tsNs
        + " dur=" + s.durationMs + " running=" + s.running + " waiting=" + s.waiting + " ctx="
        + s.ctxRequests + "/" + s.ctxTokens + " gen=" + s.genRequests + "/" + s.genTokens
        + " paused=" + s.paused + " kv=" + s.kvUsage + " extras=" + s.extras);
  }

  @Override
  public void engineStats(dev.tokentime.ingest.EngineStatsRecord s) {
    stats.add("line=" + s.lineNo + " ts=" + s.tsNs + " running=" + s.running + " waiting=" + s.waiting
        + " swapped=" + s.swapped + " prompt=" + s.promptTokensPerS + " gen=" + s.genTokensPerS
        + " kv=" + s.kvUsage + " prefix=" + s.prefixHitRate + " preempt=" + s.preemptions
        + " extras=" + s.extras);
  }

  @Override
  public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind, String detail) {
    events.add(lineNo + " " + kind + " " + detail);
  }

  @Override
  public void histogramBucket(String metric, Map<String, String> labels, long t0Ns, long t1Ns,
      int clockId, double le, double count) {
    histograms.add(metric + labels + " " + t0Ns + ".." + t1Ns + " le=" + le + " count=" + count);
  }

  @Override
  public void reportedMetric(String run, Double level, String metric, String stat, double value, String unit) {
    reported.add(run + " " + level + " " + metric + " " + stat + " " + value + " " + unit);
  }

  @Override
  public void clockAnchor(int clockA, long nsA, int clockB, long nsB, String method) {
    anchors.add(clockA + ":" + nsA + "=" + clockB + ":" + nsB + " " + method);
  }

  @Override
  public void record() {
    records++;
  }

  @Override
  public void otherLine() {
    other++;
  }

  @Override
  public void reject(long lineNo, String reason, byte[] line, int off, int len) {
    rejects.add(new Rej(lineNo, reason, line == null ? null : new String(line, off, len, StandardCharsets.UTF_8)));
  }
}
