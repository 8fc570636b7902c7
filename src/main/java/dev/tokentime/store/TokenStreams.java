package dev.tokentime.store;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.ingest.ChunkKind;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The derive step done while reading, for streams that arrive in order: as a file hands over a
 * request's chunks, the gap to the previous content chunk and the request's aggregates
 * (_request_tokens) are computed on the fly, so the common case needs no window function over
 * millions of rows afterwards. A request whose chunks arrive out of seq order, repeat a seq, or
 * already had chunks from another file or an earlier part of this one is marked dirty instead:
 * its gaps are left NULL and the SQL derive step (Deriver) recomputes it from the tokens table.
 */
final class TokenStreams {

  /** A request's stream, as far as this file has read it. */
  static final class Stream {
    final long key;
    int nextSeq;
    boolean dirty;
    long lastTs = NONE;
    long lastContentTs = NONE;
    int chunks;
    int contentChunks;
    long contentTokens;
    boolean contentTokensUnknown;
    long firstContentNs = NONE;
    long lastContentNs = NONE;
    long firstChunkNs = NONE;
    long lastChunkNs = NONE;
    long maxGapNs = NONE;
    long minGapNs = NONE;
    boolean decreases;
    int choiceChunks;
    long firstChoiceNs = NONE;
    long lastChoiceNs = NONE;
    long secondChunkNs = NONE;
    long secondContentNs = NONE;
    int reasoningChunks;
    long firstAnswerNs = NONE;

    Stream(long key) {
      this.key = key;
    }
  }

  /**
   * Whether a request already has chunks from another file or an earlier stretch of this one.
   * The writer passes one instance for every chunk: a lambda capturing the chunk's values was an
   * allocation per token on the parse thread's hottest path.
   */
  interface History {
    boolean hadTokensBefore(long key);
  }

  private final Map<Long, Stream> open = new HashMap<>();
  /** The stream of the previous chunk: consecutive chunks usually belong to one request. */
  private Stream last;
  private final Set<Long> dirty = new LinkedHashSet<>();

  /**
   * Accounts one chunk and returns its gap to the previous content chunk, or NONE when it has
   * none (the first content chunk, a non-content chunk, or a dirty stream).
   *
   * @param hadTokensBefore asked when this file starts the request's stream: whether the request
   *     already has chunks from another file or an earlier stretch of this one
   */
  long token(long key, int seq, long tsNs, int nTokens, ChunkKind kind, History hadTokensBefore) {
    Stream s = last != null && last.key == key ? last : open.get(key);
    if (s == null) {
      s = new Stream(key);
      // chunks stored before (by another file, or an earlier stretch of this one): recompute
      s.dirty = hadTokensBefore.hadTokensBefore(key);
      open.put(key, s);
    }
    last = s;
    if (s.dirty) {
      dirty.add(key);
      return NONE;
    }
    if (seq != s.nextSeq) {
      markDirty(s);
      return NONE;
    }
    s.nextSeq++;
    s.chunks++;
    if (s.lastTs != NONE && tsNs < s.lastTs) {
      s.decreases = true;
    }
    s.lastTs = tsNs;
    if (s.firstChunkNs == NONE) {
      s.firstChunkNs = tsNs;
    }
    s.lastChunkNs = tsNs;
    if (seq == 1) {
      s.secondChunkNs = tsNs;
    }
    boolean content = kind == ChunkKind.CONTENT || kind == ChunkKind.REASONING;
    if (content || kind == ChunkKind.ROLE || kind == ChunkKind.EMPTY) {
      s.choiceChunks++;
      if (s.firstChoiceNs == NONE) {
        s.firstChoiceNs = tsNs;
      }
      s.lastChoiceNs = tsNs;
    }
    if (!content) {
      return NONE;
    }
    if (kind == ChunkKind.REASONING) {
      s.reasoningChunks++;
    } else if (s.firstAnswerNs == NONE || tsNs < s.firstAnswerNs) {
      s.firstAnswerNs = tsNs;
    }
    s.contentChunks++;
    if (nTokens < 0) {
      s.contentTokensUnknown = true;
    } else {
      s.contentTokens += nTokens;
    }
    if (s.firstContentNs == NONE) {
      s.firstContentNs = tsNs;
    }
    s.lastContentNs = tsNs;
    long gap = NONE;
    if (s.lastContentTs != NONE) {
      gap = tsNs - s.lastContentTs;
      if (s.maxGapNs == NONE || gap > s.maxGapNs) {
        s.maxGapNs = gap;
      }
      if (s.minGapNs == NONE || gap < s.minGapNs) {
        s.minGapNs = gap;
      }
      if (s.secondContentNs == NONE) {
        s.secondContentNs = tsNs;
      }
    }
    s.lastContentTs = tsNs;
    return gap;
  }

  private void markDirty(Stream s) {
    s.dirty = true;
    dirty.add(s.key);
  }

  /** The request's stream is complete in this file: its aggregates go to {@code emit}. */
  void end(long key, BiConsumer<Stream, Boolean> emit) {
    Stream s = open.remove(key);
    if (last == s) {
      last = null;
    }
    if (s != null && !s.dirty) {
      emit.accept(s, Boolean.TRUE);
    }
  }

  /** The file is read: every stream still open is complete. */
  void endAll(BiConsumer<Stream, Boolean> emit) {
    for (Stream s : open.values()) {
      if (!s.dirty) {
        emit.accept(s, Boolean.TRUE);
      }
    }
    open.clear();
    last = null;
  }

  /** Requests the SQL derive step must recompute. */
  Set<Long> dirty() {
    return dirty;
  }
}
