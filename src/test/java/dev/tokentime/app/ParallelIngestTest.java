package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.testing.Generated;
import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files ingested in one go, each in its own transaction, end in the same state as one file read
 * alone: a run's request lines and token lines cut into pieces (tokens before their request, a
 * stream split across files) give the same request_latency rows, one derived row per request, no
 * stub left beside its request row, and no broken invariant. (The pieces of one run are read one
 * after the other, in order; other runs' files at once: FolderRunsTest.)
 */
class ParallelIngestTest {
  @TempDir
  Path tmp;

  @Test
  void piecesIngestedInParallelEqualTheWholeFile() throws Exception {
    Generated.into(tmp.resolve("gen"), "--form", "tokens", "--levels", "4",
            "--requests", "60", "--mean-output", "40", "--error-every", "7", "--seed", "5");
    Path whole = tmp.resolve("gen/c4.jsonl");
    List<String> lines = Files.readAllLines(whole);
    // deal the lines round-robin into 5 pieces, in reverse order in every other piece, so token
    // lines reach a file before their request line and a stream spans files and arrives backwards
    int pieces = 5;
    List<List<String>> split = new ArrayList<>();
    for (int i = 0; i < pieces; i++) {
      split.add(new ArrayList<>());
    }
    for (int i = 0; i < lines.size(); i++) {
      split.get(i % pieces).add(lines.get(i));
    }
    Path dir = Files.createDirectories(tmp.resolve("pieces/c4"));
    for (int i = 0; i < pieces; i++) {
      List<String> piece = split.get(i);
      if (i % 2 == 1) {
        java.util.Collections.reverse(piece);
      }
      Files.write(dir.resolve("part" + i + ".jsonl"), piece);
    }
    String latency = "SELECT * EXCLUDE (request_key, source_id, clock_id) FROM request_latency ORDER BY request_id";
    List<List<Object>> expected;
    try (TestDb t = new TestDb(tmp.resolve("whole"))) {
      t.ingest(whole);
      expected = t.rows(latency);
    }
    try (TestDb t = new TestDb(tmp.resolve("parallel"))) {
      var r = t.ingest(IngestOptions.of(List.of(dir.toString())));
      assertEquals(pieces, r.ingestedFiles());
      assertEquals(expected, t.rows(latency));
      assertEquals(60, t.count("SELECT count(*) FROM requests"));
      assertEquals(0, t.count("SELECT count(*) FROM (SELECT request_key FROM _request_tokens GROUP BY 1 HAVING count(*) > 1)"));
      assertEquals(0, t.count("SELECT count(*) FROM requests WHERE list_contains(map_keys(extras), 'tokentime.stub')"));
      assertEquals(0, t.count("SELECT sum(violations) FROM checks"));
      assertEquals(0, t.count("SELECT count(*) FROM _dirty_requests"));
    }
  }
}
