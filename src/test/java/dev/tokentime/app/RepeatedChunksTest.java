package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same tokens in two files (a requests file with tokens_ns and a tokens file of the same
 * requests): before, both were stored, every ITL counted twice (241 gaps became 490, P99 75.7 ms
 * became 22.1 ms) with one warning. Positions another file stored keep that file's chunk; the
 * later file's chunks there are not stored and its report says so, its request rows are kept
 * (in either order). Positions repeated within one file refuse it. A stream split over two files
 * (seqs that go on) is read as before.
 */
class RepeatedChunksTest {
  @TempDir
  Path tmp;

  static final String REQUESTS = "{\"request_id\":\"a\",\"run\":\"r\",\"arrival_ns\":1000,\"tokens_ns\":[1100,1200,1300]}\n"
      + "{\"request_id\":\"b\",\"run\":\"r\",\"arrival_ns\":2000,\"tokens_ns\":[2100,2200]}\n";
  static final String TOKENS = "{\"request_id\":\"a\",\"run\":\"r\",\"seq\":0,\"ts_ns\":1100}\n"
      + "{\"request_id\":\"a\",\"run\":\"r\",\"seq\":1,\"ts_ns\":1200}\n"
      + "{\"request_id\":\"a\",\"run\":\"r\",\"seq\":2,\"ts_ns\":1300}\n";

  private static final String COUNTS = "SELECT (SELECT count(*) FROM tokens), (SELECT count(*) FROM token_gaps WHERE gap_ns IS NOT NULL),"
      + " (SELECT count(*) FROM sources)";

  private Path req;
  private Path tok;

  @org.junit.jupiter.api.BeforeEach
  void writeBoth() throws Exception {
    req = Files.writeString(tmp.resolve("requests.jsonl"), REQUESTS);
    tok = Files.writeString(tmp.resolve("tokens.jsonl"), TOKENS);
  }

  /** The counts of the requests file read alone. */
  private List<List<Object>> cleanCounts() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("clean"))) {
      t.ingest(req);
      return t.rows(COUNTS);
    }
  }

  @Test
  void aTokensFileRepeatingARequestsFilesChunksStoresThemOnce() throws Exception {
    List<List<Object>> clean = cleanCounts();
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(req);
      IngestResult.FileResult f = t.ingest(tok).files().get(0);
      assertTrue(f.ingested(), f.toString());
      assertEquals(0, f.tokens());
      assertEquals(List.of("3 token positions were already stored from " + req.toAbsolutePath() + " (the first: request a"
          + " of run r, seq 0): the same tokens read twice, kept once; this file's chunks there were not stored"), f.notes());
      assertEquals(List.of(List.of(clean.get(0).get(0), clean.get(0).get(1), 2L)), t.rows(COUNTS), "one reading's chunks");
    }
  }

  @Test
  void theOtherOrderKeepsTheRequestRowsAndOneFileRepeatingItselfIsRefused() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db2"))) {
      t.ingest(tok);
      IngestResult.FileResult f = t.ingest(req).files().get(0);
      assertTrue(f.ingested() && f.notes().get(0).startsWith("3 token positions were already stored"), f.toString());
      assertEquals(2, f.tokens(), "b's two chunks are new");
      assertEquals(5, t.count("SELECT count(*) FROM tokens"));
      assertEquals(1000L, t.rows("SELECT arrival_ns FROM requests WHERE request_id = 'a' AND arrival_ns IS NOT NULL").get(0).get(0),
          "the request row is kept");
    }
    Path both = Files.writeString(tmp.resolve("both.jsonl"), REQUESTS + TOKENS);
    try (TestDb t = new TestDb(tmp.resolve("db3"))) {
      IngestResult.FileResult f = t.ingest(both).files().get(0);
      assertTrue(f.refused() && f.outcome().contains("twice in this file"), f.toString());
    }
  }

  /**
   * The two files in one folder, read in parallel (each file's transaction may miss the other's
   * rows): the derive step keeps each position once, the first file's, as a sequential read does.
   */
  @Test
  void readAtOnceTheRepeatsAreKeptOnceToo() throws Exception {
    List<List<Object>> clean = cleanCounts();
    Path dir = Files.createDirectories(tmp.resolve("folder/r"));
    Files.writeString(dir.resolve("a-requests.jsonl"), REQUESTS);
    Files.writeString(dir.resolve("b-tokens.jsonl"), TOKENS);
    try (TestDb t = new TestDb(tmp.resolve("par"))) {
      t.ingest(IngestOptions.of(List.of(dir.toString())));
      assertEquals(List.of(List.of(clean.get(0).get(0), clean.get(0).get(1), 2L)), t.rows(COUNTS));
      assertEquals(0, t.count("SELECT count(*) FROM check_token_seq_unique"));
    }
  }

  @Test
  void aStreamSplitOverTwoFilesIsReadWhole() throws Exception {
    Path first = Files.writeString(tmp.resolve("part1.jsonl"),
        "{\"request_id\":\"a\",\"run\":\"r\",\"seq\":0,\"ts_ns\":1100}\n{\"request_id\":\"a\",\"run\":\"r\",\"seq\":1,\"ts_ns\":1200}\n");
    Path second = Files.writeString(tmp.resolve("part2.jsonl"),
        "{\"request_id\":\"a\",\"run\":\"r\",\"seq\":2,\"ts_ns\":1300}\n{\"request_id\":\"a\",\"run\":\"r\",\"seq\":3,\"ts_ns\":1450}\n");
    try (TestDb t = new TestDb(tmp.resolve("db4"))) {
      t.ingest(first);
      IngestResult r = t.ingest(second);
      assertTrue(r.files().get(0).ingested(), r.files().toString());
      assertEquals(List.of(List.of(4L, 3L, 2L)), t.rows(COUNTS));
    }
  }
}
