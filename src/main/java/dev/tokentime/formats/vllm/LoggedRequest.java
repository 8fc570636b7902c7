package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.ingest.ChunkKind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** One request as its log lines accumulate it, until it is written. */
final class LoggedRequest {
  final String id;
  final long firstLine;
  final String instance;
  final int clockId;
  long arrivalNs = NONE;
  long queuedNs = NONE;
  long firstTokenNs = NONE;
  long lastTokenNs = NONE;
  long finishedNs = NONE;
  Integer promptTokens;
  /** Prompt tokens found in a KV cache outside vLLM's own (LMCache's hit tokens), or null. */
  Integer cachedTokens;
  /** Sum of the streamed deltas' token counts; -1 once a delta's count is unknown. */
  int streamedTokens;
  /** Token count of a complete (non-streaming or "streaming complete") response line. */
  Integer completeTokens;
  String status;
  String finishReason;
  Integer httpStatus;
  /** What the log said the request failed with ("failed (engine dead)"), or null. */
  String error;
  /** Log time since which it waits for its error response (AwaitingResponse), or NONE. */
  long awaitSince = NONE;
  /** Lifecycle lines seen: a second Received or Added line names another request with the same id. */
  boolean received;
  boolean added;
  /**
   * Token count of the DEBUG ids line just read (2026-08 on: "Generated response X details:
   * output_token_ids: [...]"), for the INFO line of the same mode that follows it; -1 when none waits.
   */
  int idsWaiting = -1;
  String idsWaitingMode;
  /** First seen on a streaming delta: the file joined it mid-stream (a log that starts later). */
  boolean midStream;
  final Map<String, String> extras = new LinkedHashMap<>();
  long[] tokenNs = new long[0];
  int[] tokenN = new int[0];
  ChunkKind[] tokenKind = new ChunkKind[0];
  int tokens;

  LoggedRequest(String id, long firstLine, String instance, int clockId) {
    this.id = id;
    this.firstLine = firstLine;
    this.instance = instance;
    this.clockId = clockId;
  }

  void token(long ts, int n, ChunkKind kind) {
    if (tokens == tokenNs.length) {
      int cap = Math.max(8, tokens * 2);
      tokenNs = Arrays.copyOf(tokenNs, cap);
      tokenN = Arrays.copyOf(tokenN, cap);
      tokenKind = Arrays.copyOf(tokenKind, cap);
    }
    tokenNs[tokens] = ts;
    tokenN[tokens] = n;
    tokenKind[tokens] = kind;
    tokens++;
    if (streamedTokens >= 0) {
      streamedTokens = n < 0 ? -1 : streamedTokens + n;
    }
  }
}
