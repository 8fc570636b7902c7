package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * _request_tokens has two makers: the stream read in seq order (TokenStreams, while the file is
 * read) and the SQL derive step (Deriver, for chunks out of order). The same chunks give the same
 * row either way, every column, including the instants the peer views read instead of the tokens.
 */
class RequestTokensPathsTest {
  @TempDir
  Path tmp;

  /** Streams with role, reasoning, content, empty, usage and done chunks, and a zero gap. */
  private static List<String> lines() {
    List<String> out = new ArrayList<>();
    String[][] streams = {
        {"role", "reasoning", "reasoning", "content", "content", "empty", "content", "usage", "done"},
        {"content", "content", "content"},
        {"role", "content"},
        {"reasoning", "reasoning"},
        {"content", "content", "content", "content"},
    };
    long[][] times = {
        {100, 120, 150, 160, 175, 180, 190, 195, 196},
        {300, 310, 330},
        {400, 410},
        {500, 520},
        {600, 610, 610, 640}, // the same instant twice: a zero gap
    };
    for (int r = 0; r < streams.length; r++) {
      out.add("{\"request_id\":\"q" + r + "\",\"arrival_ns\":" + (times[r][0] - 50) + "}");
      for (int s = 0; s < streams[r].length; s++) {
        out.add("{\"request_id\":\"q" + r + "\",\"seq\":" + s + ",\"ts_ns\":" + times[r][s] + ",\"n_tokens\":"
            + (streams[r][s].equals("content") || streams[r][s].equals("reasoning") ? 2 : 0)
            + ",\"chunk_kind\":\"" + streams[r][s] + "\"}");
      }
    }
    return out;
  }

  private static final String ROW = "SELECT r.request_id, t.* EXCLUDE (request_key) FROM _request_tokens t"
      + " JOIN requests r USING (request_key) ORDER BY r.request_id";

  @Test
  void inOrderAndOutOfOrderChunksGiveTheSameRow() throws Exception {
    List<String> ordered = lines();
    // every stream backwards: each request's chunks arrive out of seq order, so the SQL step makes its row
    List<String> shuffled = new ArrayList<>(ordered);
    Collections.reverse(shuffled);
    List<List<Object>> streamed;
    List<List<Object>> derived;
    try (TestDb t = new TestDb(tmp.resolve("a"))) {
      t.ingest(t.write("in/tokens.jsonl", String.join("\n", ordered) + "\n"));
      assertEquals(0, t.count("SELECT count(*) FROM rejects"));
      streamed = t.rows(ROW);
    }
    try (TestDb t = new TestDb(tmp.resolve("b"))) {
      t.ingest(t.write("in/tokens.jsonl", String.join("\n", shuffled) + "\n"));
      assertEquals(0, t.count("SELECT count(*) FROM rejects"));
      derived = t.rows(ROW);
    }
    assertEquals(5, streamed.size());
    assertEquals(streamed, derived);
    // the first request, by hand: 9 chunks, 7 carry choices (not usage, done), 2 reasoning; the
    // first answer at 160; second chunk 120; second content chunk (reasoning counts) 150
    List<Object> q0 = streamed.get(0);
    assertTrue(q0.containsAll(List.of(9, 7, 2, 100L, 190L, 120L, 150L, 160L)), q0.toString());
  }
}
