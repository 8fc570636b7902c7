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
 * became 22.1 ms) with one warning. The file whose chunks repeat stored positions is refused
 * whole and says why; a stream split over two files (seqs that go on) is read as before.
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

  @Test
  void aTokensFileRepeatingARequestsFilesChunksIsRefused() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(req);
      List<List<Object>> clean = t.rows(COUNTS);
      IngestResult.FileResult f = t.ingest(tok).files().get(0);
      assertTrue(f.refused(), f.toString());
      assertTrue(f.outcome().contains("3 token positions are already stored (the first: request a of run r, seq 0, from "
          + req.toAbsolutePath()), f.outcome());
      assertEquals(clean, t.rows(COUNTS), "the figures of one reading");
    }
  }

  @Test
  void theOtherOrderAndTheSameFileAreRefusedToo() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("db2"))) {
      t.ingest(tok);
      IngestResult.FileResult f = t.ingest(req).files().get(0);
      assertTrue(f.refused() && f.outcome().contains("already stored"), f.toString());
      assertEquals(3, t.count("SELECT count(*) FROM tokens"));
    }
    Path both = Files.writeString(tmp.resolve("both.jsonl"), REQUESTS + TOKENS);
    try (TestDb t = new TestDb(tmp.resolve("db3"))) {
      IngestResult.FileResult f = t.ingest(both).files().get(0);
      assertTrue(f.refused() && f.outcome().contains("earlier in this file"), f.toString());
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
