package dev.tokentime.formats.spec;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.StepRecord;
import java.util.HashMap;
import java.util.Map;

/**
 * Epochs of iteration counters, per lane (instance and rank): a counter restarts with the server,
 * so when a lane's iteration goes back the epoch is bumped, keeping {@code (rank, epoch, iter)}
 * unique; where asked, the restart is recorded as an engine event. One parse holds one instance.
 */
public final class IterationLanes {
  private final Map<String, long[]> lanes = new HashMap<>(); // lane -> {last iter, epoch}

  /**
   * Sets the step's epoch from its lane's history; call before sink.step.
   *
   * @param record whether a counter going back is recorded as an engine event of kind restart
   */
  public void assign(StepRecord s, RecordSink sink, boolean record) {
    if (s.iter == null) {
      return;
    }
    String lane = s.instance + "/" + s.rank;
    long[] st = lanes.get(lane);
    if (st == null) {
      lanes.put(lane, new long[] {s.iter, 0});
      s.epoch = 0;
      return;
    }
    if (s.iter < st[0]) {
      st[1]++;
      if (record) {
        sink.engineEvent(s.lineNo, s.instance, s.tsNs, s.tsNs == NONE ? 0 : s.clockId, "restart",
            "iteration counter went back from " + st[0] + " to " + s.iter
            + (s.rank == null ? "" : " (rank " + s.rank + ")") + ": epoch " + st[1]);
      }
    }
    st[0] = s.iter;
    s.epoch = (int) st[1];
  }
}
