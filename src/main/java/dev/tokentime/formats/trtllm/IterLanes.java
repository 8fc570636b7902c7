package dev.tokentime.formats.trtllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.StepRecord;
import java.util.HashMap;
import java.util.Map;

/**
 * Epochs of iteration counters, per lane (instance and rank): the counter restarts with the server,
 * so when a lane's iteration goes back the epoch is bumped (and a restart event recorded), keeping
 * {@code (rank, epoch, iter)} unique. One parse holds one instance.
 */
final class IterLanes {
  private final Map<String, long[]> lanes = new HashMap<>(); // lane -> {last iter, epoch}

  /** Sets the step's epoch from its lane's history; call before sink.step. */
  void assign(StepRecord s, RecordSink sink) {
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
      sink.engineEvent(s.lineNo, s.instance, s.tsNs, s.tsNs == NONE ? 0 : s.clockId, "restart",
          "iteration counter went back from " + st[0] + " to " + s.iter
          + (s.rank == null ? "" : " (rank " + s.rank + ")") + ": epoch " + st[1]);
    }
    st[0] = s.iter;
    s.epoch = (int) st[1];
  }
}
