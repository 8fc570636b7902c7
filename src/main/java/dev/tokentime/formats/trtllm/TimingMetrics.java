package dev.tokentime.formats.trtllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import java.util.Map;

/**
 * One server's {@code timing_metrics} of a request (C++ {@code TimingMetrics}), as ns on the
 * server's steady clock: the executor's arrival, first scheduling, first and last token, the HTTP
 * server's own arrival and first-token times, and the KV-cache transfer of a disaggregated
 * generation server.
 */
final class TimingMetrics {
  long serverArrival = NONE;
  long arrival = NONE;
  long firstScheduled = NONE;
  long firstToken = NONE;
  long serverFirstToken = NONE;
  long lastToken = NONE;
  long kvTransferStart = NONE;
  long kvTransferEnd = NONE;
  Long kvCacheSize;

  /** Reads {@code timing_metrics} (seconds); {@code path} prefixes field names in reasons. */
  static TimingMetrics seconds(JsonNode t, String path) throws PeerJson.Bad {
    TimingMetrics m = new TimingMetrics();
    m.serverArrival = Fields.seconds(t, "server_arrival_time", path);
    m.arrival = Fields.seconds(t, "arrival_time", path);
    m.firstScheduled = Fields.seconds(t, "first_scheduled_time", path);
    m.firstToken = Fields.seconds(t, "first_token_time", path);
    m.serverFirstToken = Fields.seconds(t, "server_first_token_time", path);
    m.lastToken = Fields.seconds(t, "last_token_time", path);
    m.kvTransferStart = Fields.seconds(t, "kv_cache_transfer_start", path);
    m.kvTransferEnd = Fields.seconds(t, "kv_cache_transfer_end", path);
    m.kvCacheSize = Fields.integer(t, "kv_cache_size", path);
    m.checkOrder(path);
    return m;
  }

  /**
   * The executor's own times never decrease: arrival, first scheduled, first token, last token
   * (TensorRT-LLM's tests assert it); the KV transfer ends after it starts.
   */
  void checkOrder(String path) throws PeerJson.Bad {
    String[] names = {"arrival_time", "first_scheduled_time", "first_token_time", "last_token_time"};
    long[] ts = {arrival, firstScheduled, firstToken, lastToken};
    int prev = -1;
    for (int i = 0; i < ts.length; i++) {
      if (ts[i] == NONE) {
        continue;
      }
      if (prev >= 0 && ts[i] < ts[prev]) {
        throw new PeerJson.Bad("timestamps decrease: " + path + names[i] + " is before " + path
            + names[prev]);
      }
      prev = i;
    }
    if (kvTransferStart != NONE && kvTransferEnd != NONE && kvTransferEnd < kvTransferStart) {
      throw new PeerJson.Bad("timestamps decrease: " + path + "kv_cache_transfer_end is before "
          + path + "kv_cache_transfer_start");
    }
  }

  /** The times without a canonical column, as extras (ns as text), keys prefixed. */
  void extras(String prefix, Map<String, String> extras) {
    put(extras, prefix + "server_arrival_ns", serverArrival);
    put(extras, prefix + "server_first_token_ns", serverFirstToken);
    put(extras, prefix + "kv_cache_transfer_start_ns", kvTransferStart);
    put(extras, prefix + "kv_cache_transfer_end_ns", kvTransferEnd);
    if (kvCacheSize != null) {
      extras.put(prefix + "kv_cache_size", Long.toString(kvCacheSize));
    }
  }

  /** All times, as extras (the other server of a disaggregated request). */
  void allExtras(String prefix, Map<String, String> extras) {
    put(extras, prefix + "arrival_ns", arrival);
    put(extras, prefix + "first_scheduled_ns", firstScheduled);
    put(extras, prefix + "first_token_ns", firstToken);
    put(extras, prefix + "last_token_ns", lastToken);
    extras(prefix, extras);
  }

  static void put(Map<String, String> extras, String key, long ns) {
    if (ns != NONE) {
      extras.put(key, Long.toString(ns));
    }
  }
}
