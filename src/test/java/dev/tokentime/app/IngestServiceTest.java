package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStream;
import dev.tokentime.BadInputException;
import dev.tokentime.testing.TestDb;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ingest into a real file database: accounting, rejects, identity across files, re-ingest. */
class IngestServiceTest {
  @TempDir
  Path tmp;

  static final String R1 = "{\"request_id\":\"r1\",\"arrival_ns\":1000,\"output_tokens\":2,\"tokens_ns\":[2000,3000]}";
  static final String R2 = "{\"request_id\":\"r2\",\"arrival_ns\":1500,\"output_tokens\":2,\"tokens_ns\":[2500,4500]}";
  static final String R3 = "{\"request_id\":\"r3\",\"arrival_ns\":1600,\"output_tokens\":1,\"tokens_ns\":[2600]}";

  @Test
  void threeCorruptedLinesAmongValidOnesLandInRejects() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path f = t.write("c8/run.jsonl", String.join("\n", R1,
          "{\"request_id\":\"bad1\",\"arrival_ns\":\"yesterday\"}",
          R2,
          "garbage {",
          R3,
          "{\"request_id\":\"bad2\",\"arrival_ns\":") + "\n");
      var r = t.ingest(f);
      assertEquals(1, r.files().size());
      assertEquals(3, t.count("SELECT count(*) FROM requests"));
      assertEquals(List.of(List.of(2L), List.of(4L), List.of(6L)),
          t.rows("SELECT line_no FROM rejects ORDER BY line_no"));
      assertEquals(List.of(List.of(6L, 3L, 0L, 3L)),
          t.rows("SELECT lines, records, other_lines, rejected FROM sources"));
      assertEquals(0, t.count("SELECT count(*) FROM sources WHERE lines <> records + other_lines + rejected"));
      assertEquals("{\"request_id\":\"bad1\",\"arrival_ns\":\"yesterday\"}",
          t.value("SELECT excerpt FROM rejects WHERE line_no = 2"));
      assertEquals("c8", t.value("SELECT run FROM sources"));
    }
  }

  @Test
  void theIngestCheckpointsItselfSoClosingHasNothingLeftToWrite() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("c8/run.jsonl", String.join("\n", R1, R2, R3) + "\n"));
      // the checkpoint ran inside the ingest, under the lean memory limit, with the connection
      // still open: the write-ahead log holds nothing, and the limit is the general one again
      Path wal = tmp.resolve("test.duckdb.wal");
      assertTrue(!java.nio.file.Files.exists(wal) || java.nio.file.Files.size(wal) == 0,
          "the WAL still holds " + (java.nio.file.Files.exists(wal) ? java.nio.file.Files.size(wal) : 0) + " bytes");
      assertEquals("476.8 MiB", t.value("SELECT current_setting('memory_limit')"));
      assertEquals(3, t.count("SELECT count(*) FROM requests"));
    }
  }

  @Test
  void filesLoadUnderTheLoadMemoryLimitAndTheGeneralOneComesBack() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      String general = (String) t.value("SELECT current_setting('memory_limit')");
      List<String> during = new java.util.ArrayList<>();
      new IngestService(dev.tokentime.ingest.FormatRegistry.standard()).ingest(t.db,
          IngestOptions.of(List.of(t.write("c8/run.jsonl", R1 + "\n").toString())),
          new IngestService.Listener() {
            @Override
            public void fileDone(IngestResult.FileResult r) {
              try {
                during.add((String) t.value("SELECT current_setting('memory_limit')"));
              } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
              }
            }
          });
      // DuckDB shows limits in MiB: 150 MB and 500 MB
      assertEquals(List.of("143.0 MiB"), during);
      assertEquals("476.8 MiB", general);
      assertEquals(general, t.value("SELECT current_setting('memory_limit')"));
      // and after a failed ingest too
      assertThrows(BadInputException.class, () -> t.ingest(tmp.resolve("no-such-file.jsonl")));
      assertEquals(general, t.value("SELECT current_setting('memory_limit')"));
    }
  }

  @Test
  void strictRollsBackTheFileWithRejects() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path good = t.write("a/good.jsonl", R1 + "\n");
      Path bad = t.write("b/bad.jsonl", R2 + "\nnot json\n");
      var o = new IngestOptions(List.of(good.toString(), bad.toString()), null, null, false, true, false, null, null);
      var r = t.ingest(o);
      assertTrue(r.strictFailure());
      assertEquals("rolled back (--strict)", r.files().get(1).outcome());
      assertEquals(2, r.files().get(1).firstRejects().get(0).lineNo());
      assertEquals(List.of(List.of("a")), t.rows("SELECT run FROM sources"));
      assertEquals(1, t.count("SELECT count(*) FROM requests"));
      assertEquals(0, t.count("SELECT count(*) FROM rejects"));
    }
  }

  @Test
  void theSameFileAgainIsANoOpAndReplaceReingestsIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path f = t.write("c1/run.jsonl", R1 + "\n" + R2 + "\n");
      t.ingest(f);
      var again = t.ingest(f);
      assertTrue(again.files().get(0).outcome().startsWith("already ingested as source 1"),
          again.files().get(0).outcome());
      assertEquals(1, t.count("SELECT count(*) FROM sources"));
      // named as another format, it says what it was read as and what --replace does
      var asCsv = t.ingest(new IngestOptions(List.of(f.toString()), "tokentime-csv", null, false, false, false, null, null));
      assertEquals("already ingested as source 1, read as tokentime-jsonl (same sha256); --replace reads it again"
          + " as tokentime-csv, in place of that reading", asCsv.files().get(0).outcome());
      var o = new IngestOptions(List.of(f.toString()), null, null, true, false, false, null, null);
      var replaced = t.ingest(o);
      assertTrue(replaced.files().get(0).ingested());
      assertEquals(List.of(List.of(2)), t.rows("SELECT source_id FROM sources"));
      assertEquals(2, t.count("SELECT count(*) FROM requests"));
      assertEquals(4, t.count("SELECT count(*) FROM tokens"));
      assertEquals(2, t.count("SELECT count(*) FROM token_gaps"));
    }
  }

  @Test
  void replaceKeepsTheRunsTheRecordsName() throws Exception {
    // records naming their run (c7) in a folder of another name (gen): --replace made a run of
    // the folder's name beside it
    try (TestDb t = new TestDb(tmp)) {
      String named = R1.replace("{", "{\"run\":\"c7\",") + "\n" + R2.replace("{", "{\"run\":\"c7\",") + "\n";
      Path f = t.write("gen/run.jsonl", named);
      t.ingest(f);
      assertEquals(List.of(List.of("c7")), t.rows("SELECT run FROM runs"));
      t.ingest(new IngestOptions(List.of(f.toString()), null, null, true, false, false, null, null));
      assertEquals(List.of(List.of("c7")), t.rows("SELECT run FROM runs"));
      assertEquals(2, t.count("SELECT count(*) FROM requests WHERE run = 'c7'"));
    }
  }

  @Test
  void tokensFileFirstThenRequestsFileMeetInOneRequest() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path tokens = t.write("c2/tokens.jsonl", "{\"request_id\":\"r1\",\"seq\":0,\"ts_ns\":2000}\n"
          + "{\"request_id\":\"r1\",\"seq\":1,\"ts_ns\":3000}\n");
      t.ingest(tokens);
      assertEquals(1, t.count("SELECT count(*) FROM requests WHERE list_contains(map_keys(extras), 'tokentime.stub')"),
          "a stub stands for the request until its row arrives");
      Path requests = t.write("c2/requests.jsonl", "{\"request_id\":\"r1\",\"arrival_ns\":1000,\"output_tokens\":2}\n");
      t.ingest(requests);
      assertEquals(1, t.count("SELECT count(*) FROM requests"));
      assertEquals(List.of(List.of("r1", 1.0, 2.0, 2)),
          t.rows("SELECT request_id, ttft_ms * 1000, e2e_ms * 1000, output_tokens FROM request_latency"));
      assertEquals(0, t.count("SELECT count(*) FROM tokens t ANTI JOIN requests r USING (request_key)"));
    }
  }

  @Test
  void interleavedTokenLinesOfRequestsAndRunsKeepTheirOwnKeys() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      // the same id in two runs, and requests whose lines interleave: each line must find its
      // own request, whichever request the line before it was of (SourceWriter and TokenOrder
      // remember the last one)
      Path tokens = t.write("c2/tokens.jsonl", String.join("\n",
          "{\"request_id\":\"a\",\"run\":\"x\",\"seq\":0,\"ts_ns\":1000}",
          "{\"request_id\":\"a\",\"run\":\"x\",\"seq\":1,\"ts_ns\":2000}",
          "{\"request_id\":\"a\",\"run\":\"y\",\"seq\":0,\"ts_ns\":1500}",
          "{\"request_id\":\"b\",\"run\":\"x\",\"seq\":0,\"ts_ns\":1100}",
          "{\"request_id\":\"a\",\"run\":\"x\",\"seq\":2,\"ts_ns\":3500}",
          "{\"request_id\":\"a\",\"run\":\"y\",\"seq\":1,\"ts_ns\":2500}",
          "{\"request_id\":\"a\",\"run\":\"y\",\"seq\":1,\"ts_ns\":2600}",
          "{\"request_id\":\"b\",\"run\":\"x\",\"seq\":1,\"ts_ns\":1000}") + "\n");
      var r = t.ingest(tokens);
      assertEquals(List.of(List.of("x", "a", 3L, 1.5), java.util.Arrays.asList("x", "b", 1L, null), List.of("y", "a", 2L, 1.0)),
          t.rows("SELECT r.run, r.request_id, count(*), max(t.gap_ns) / 1000.0 FROM tokens t "
              + "JOIN requests r USING (request_key) GROUP BY ALL ORDER BY ALL"));
      assertEquals(List.of(7L, 8L), List.of(r.files().get(0).firstRejects().get(0).lineNo(),
          r.files().get(0).firstRejects().get(1).lineNo()),
          "a repeated seq of y/a and b's timestamp going back are rejected");
    }
  }

  @Test
  void requestsFirstThenTokensAttachAndReplacingTheRequestsKeepsTheTokens() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path requests = t.write("c2/requests.jsonl", "{\"request_id\":\"r1\",\"arrival_ns\":1000}\n");
      Path tokens = t.write("c2/tokens.jsonl", "{\"request_id\":\"r1\",\"seq\":1,\"ts_ns\":3000}\n"
          + "{\"request_id\":\"r1\",\"seq\":0,\"ts_ns\":2000}\n");
      t.ingest(requests, tokens);
      assertEquals(List.of(List.of(1L, 2L, 0.001)),
          t.rows("SELECT count(DISTINCT request_key), count(*), max(gap_ms) FROM token_gaps g "
              + "RIGHT JOIN tokens USING (request_key, seq) WHERE chunk_kind = 'content'"));
      t.write("c2/requests.jsonl", "{\"request_id\":\"r1\",\"arrival_ns\":500}\n");
      t.ingest(new IngestOptions(List.of(requests.toString()), null, null, true, false, false, null, null));
      assertEquals(1, t.count("SELECT count(*) FROM requests"));
      assertEquals(2, t.count("SELECT count(*) FROM tokens"));
      assertEquals(1.5, ((Number) t.value("SELECT ttft_ms * 1000 FROM request_latency")).doubleValue(), 1e-9,
          "the new arrival (500 ns) is used with the old tokens");
    }
  }

  @Test
  void readInParallelTheCopyReadFirstIsKeptAndTheOtherRejectedNamingIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path a = t.write("c4/a.jsonl", R1 + "\n");
      Path b = t.write("c4/b.jsonl", R2 + "\n" + R1.replace("1000", "1001") + "\n");
      t.ingest(a, b);
      assertEquals(2, t.count("SELECT count(*) FROM requests"));
      List<List<Object>> r = t.rows("SELECT s.path, j.line_no, j.reason FROM rejects j JOIN sources s USING (source_id)");
      assertEquals(1, r.size());
      boolean bLost = r.get(0).get(0).toString().endsWith("b.jsonl");
      Path kept = bLost ? a : b;
      assertEquals(bLost ? 2L : 1L, r.get(0).get(1));
      assertEquals("duplicate request_id \"r1\" in run \"c4\" (first at " + kept.toAbsolutePath()
          + ":" + (bLost ? 1 : 2) + ")", r.get(0).get(2));
    }
  }

  @Test
  void aDuplicateIdInAnotherFileOfTheRunIsRejectedNamingTheFirst() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path a = t.write("c4/a.jsonl", R1 + "\n");
      Path b = t.write("c4/b.jsonl", R2 + "\n" + R1.replace("1000", "1001") + "\n");
      // one file after the other: the earlier file's copy is kept
      t.ingest(IngestOptions.of(List.of(a.toString(), b.toString())).withJobs(1));
      String reason = (String) t.value("SELECT reason FROM rejects");
      assertEquals("duplicate request_id \"r1\" in run \"c4\" (first at " + a.toAbsolutePath() + ":1)", reason);
      assertEquals(2L, t.value("SELECT line_no FROM rejects"));
      // the same id in another run is another request
      Path c = t.write("c8/a.jsonl", R1 + "\n\n");
      t.ingest(c);
      assertEquals(3, t.count("SELECT count(*) FROM requests"));
    }
  }

  @Test
  void readsGzipAndZstdAndKeepsWhatPrecedesATruncation() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      byte[] content = (R1 + "\n" + R2 + "\n" + R3 + "\n").getBytes(StandardCharsets.UTF_8);
      Path gz = t.writeBytes("g/run.jsonl.gz", gzip(content));
      Path zst = t.writeBytes("z/run.jsonl.zst", zstd(content));
      byte[] whole = gzip(repeatLines(2000));
      Path cut = t.writeBytes("cut/run.jsonl.gz", Arrays.copyOf(whole, whole.length / 2));
      var r = t.ingest(gz, zst, cut);
      assertEquals(List.of("gzip", "zstd", "gzip"), r.files().stream().map(IngestResult.FileResult::compression).toList());
      assertEquals(List.of(List.of("g", 3L), List.of("z", 3L)),
          t.rows("SELECT run, count(*) FROM requests WHERE run IN ('g', 'z') GROUP BY run ORDER BY run"));
      IngestResult.FileResult truncated = r.files().get(2);
      assertTrue(truncated.damage().contains("truncated"), truncated.damage());
      assertTrue(truncated.records() > 100, "lines before the cut are kept: " + truncated.records());
      assertEquals(truncated.lines(), truncated.records() + truncated.rejected());
    }
  }

  @Test
  void aDirectoryTakesWhatItRecognisesAndListsTheRest() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.write("logs/c1/run.jsonl", R1 + "\n");
      t.write("logs/c1/notes.txt", "hello\n");
      t.write("logs/c1/expected/summary.json", "{\"request_id\":\"x\",\"tokens_ns\":[1]}\n");
      t.write("logs/.hidden.jsonl", R2 + "\n");
      t.write("logs/c1/copy.jsonl", R1 + "\n");
      t.write("logs/c1/empty.jsonl", "");
      // --strict stores nothing where a file it finds cannot be read
      var strict = new IngestOptions(List.of(tmp.resolve("logs").toString()), null, null, false, true, false, null, null);
      var e = assertThrows(BadInputException.class, () -> t.ingest(strict));
      assertTrue(e.getMessage().startsWith("cannot tell the format of " + tmp.resolve("logs/c1/notes.txt")), e.getMessage());
      assertEquals(0, t.count("SELECT count(*) FROM sources"));
      var r = t.ingest(IngestOptions.of(List.of(tmp.resolve("logs").toString())));
      assertEquals(1, r.ingestedFiles());
      // each with its reason: a copy is no unknown format
      assertEquals(List.of("empty.jsonl empty", "notes.txt format not recognised",
              "run.jsonl same content as " + tmp.resolve("logs/c1/copy.jsonl")),
          r.skipped().stream().map(s -> Path.of(s.path()).getFileName() + " " + s.reason()).sorted().toList());
      var empty = assertThrows(BadInputException.class, () -> t.ingest(tmp.resolve("logs/c1/empty.jsonl")));
      assertTrue(empty.getMessage().endsWith("empty.jsonl is empty: nothing to ingest"), empty.getMessage());
    }
  }

  /** A file of a folder that cannot be opened at all (a gzip header alone) is skipped with why; the rest is read. */
  @Test
  void anUnreadableFileInAFolderSpoilsNoOther() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.write("logs/c1/run.jsonl", R1 + "\n");
      Path gz = tmp.resolve("logs/c1/cut.jsonl.gz");
      java.nio.file.Files.write(gz, new byte[] {0x1f, (byte) 0x8b, 8}); // the header cut off
      var r = t.ingest(IngestOptions.of(List.of(tmp.resolve("logs").toString())));
      assertEquals(1, r.ingestedFiles());
      assertEquals(List.of(gz + " cannot read: Unexpected end of gzip stream"),
          r.skipped().stream().map(s -> s.path() + " " + s.reason()).toList());
      var named = assertThrows(BadInputException.class, () -> t.ingest(gz));
      assertTrue(named.getMessage().startsWith("cannot read " + gz), named.getMessage());
    }
  }

  @Test
  void anExplicitFileOfUnknownFormatOrAMissingFileIsBadInput() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path notes = t.write("notes.txt", "hello\n");
      var e = assertThrows(BadInputException.class, () -> t.ingest(notes));
      assertTrue(e.getMessage().startsWith("cannot tell the format of " + notes), e.getMessage());
      e = assertThrows(BadInputException.class, () -> t.ingest(tmp.resolve("missing.jsonl")));
      assertTrue(e.getMessage().startsWith("file not found"), e.getMessage());
      e = assertThrows(BadInputException.class,
          () -> t.ingest(new IngestOptions(List.of(notes.toString()), "vllm-nope", null, false, false, false, null, null)));
      assertTrue(e.getMessage().startsWith("unknown format vllm-nope"), e.getMessage());
      assertEquals(0, t.count("SELECT count(*) FROM sources"));
    }
  }

  @Test
  void invalidUtf8AndPromptTextNeverReachTheExcerpt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      b.writeBytes((R1 + "\n").getBytes(StandardCharsets.UTF_8));
      b.writeBytes("{\"request_id\":\"x\uFFFD".getBytes(StandardCharsets.UTF_8));
      b.write(0xff);
      b.writeBytes("\"}\n".getBytes(StandardCharsets.UTF_8));
      b.writeBytes("{\"request_id\":\"y\",\"arrival_ns\":\"nope\",\"prompt\":\"my password is hunter2\"}\n"
          .getBytes(StandardCharsets.UTF_8));
      Path f = t.writeBytes("u/run.jsonl", b.toByteArray());
      t.ingest(f);
      List<List<Object>> rejects = t.rows("SELECT line_no, reason, excerpt FROM rejects ORDER BY line_no");
      assertEquals(2L, rejects.get(0).get(0));
      assertTrue(((String) rejects.get(0).get(1)).startsWith("invalid UTF-8"), rejects.get(0).get(1).toString());
      assertEquals("{\"request_id\":\"y\",\"arrival_ns\":\"nope\",[text cut]", rejects.get(1).get(2));
      assertFalse(t.rows("SELECT * FROM rejects").toString().contains("hunter2"));
      assertNull(t.value("SELECT extras FROM requests WHERE request_id = 'r1'"));
    }
  }

  @Test
  void aRequestWhoseTokensSpanTwoFilesDerivesAsOne() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path first = t.write("rot/tokens.jsonl.1", "{\"request_id\":\"r\",\"seq\":2,\"ts_ns\":6000}\n"
          + "{\"request_id\":\"r\",\"seq\":3,\"ts_ns\":7000}\n");
      Path second = t.write("rot/tokens.jsonl", "{\"request_id\":\"r\",\"arrival_ns\":1000}\n"
          + "{\"request_id\":\"r\",\"seq\":0,\"ts_ns\":2000}\n{\"request_id\":\"r\",\"seq\":1,\"ts_ns\":4000}\n");
      t.ingest(first, second);
      assertEquals(List.of(List.of(1, 2000L), List.of(2, 2000L), List.of(3, 1000L)),
          t.rows("SELECT seq, gap_ns FROM tokens WHERE gap_ns IS NOT NULL ORDER BY seq"));
      assertEquals(0, t.count("SELECT count(*) FROM _dirty_requests"), "the derive step clears its work list");
      assertEquals(List.of(List.of(0.001, 0.006, 4)),
          t.rows("SELECT ttft_ms, e2e_ms, content_chunks FROM request_latency"));
    }
  }

  /**
   * UTF-16 with its byte order mark (PowerShell's '>'), plain or compressed, reads as the UTF-8
   * it holds: the same records, and the same content, so a UTF-16 copy of a stored UTF-8 file is
   * that source. A vLLM log too (its sniff sees the decoded text).
   */
  @Test
  void utf16FilesReadAsTheTextTheyHold() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      String text = R1 + "\r\n" + R2 + "\r\n" + R3 + "\r\n";
      byte[] bom16le = {(byte) 0xff, (byte) 0xfe};
      byte[] le = concat(bom16le, text.getBytes(StandardCharsets.UTF_16LE));
      // (another text: the same one would be the same source, read once)
      byte[] be = concat(new byte[] {(byte) 0xfe, (byte) 0xff}, (R1 + "\n" + R2 + "\n").getBytes(StandardCharsets.UTF_16BE));
      Path a = t.writeBytes("le/run.jsonl", le);
      Path b = t.writeBytes("be/run.jsonl", be);
      Path c = t.writeBytes("gz/run.jsonl.gz", gzip(concat(bom16le, (R2 + "\n" + R3 + "\n").getBytes(StandardCharsets.UTF_16LE))));
      String log = java.nio.file.Files.readString(Path.of("sample-logs/vllm/server.log"));
      Path v = t.writeBytes("v/server.log", concat(bom16le, log.getBytes(StandardCharsets.UTF_16LE)));
      var r = t.ingest(a, b, c, v);
      assertEquals(List.of("utf-16le", "utf-16be", "gzip, utf-16le", "utf-16le"),
          r.files().stream().map(IngestResult.FileResult::compression).toList());
      assertEquals(List.of("tokentime-jsonl", "tokentime-jsonl", "tokentime-jsonl", "vllm-log"),
          r.files().stream().map(IngestResult.FileResult::format).toList());
      assertEquals(List.of(List.of("be", 2L, 4L), List.of("gz", 2L, 3L), List.of("le", 3L, 5L)),
          t.rows("SELECT run, count(*), CAST(sum(output_tokens) AS BIGINT) FROM requests WHERE run IN ('le', 'be', 'gz')"
              + " GROUP BY run ORDER BY run"));
      assertEquals(0, t.count("SELECT count(*) FROM rejects"));
      assertEquals(6, t.count("SELECT count(*) FROM requests WHERE run = 'v'"));
      // the UTF-8 file itself: the content of le/run.jsonl, already stored
      Path utf8 = t.write("u8/run.jsonl", text);
      var again = t.ingest(utf8);
      assertTrue(again.files().get(0).outcome().startsWith("already ingested as source"), again.files().toString());
    }
  }

  /**
   * A UTF-8 byte order mark before a JSON document (PowerShell 5's Set-Content and Out-File
   * -Encoding utf8 write one): the document was sniffed with the mark as its first byte, so no
   * JSON format claimed it (a vllm bench result was taken as vLLM's request metrics, nothing
   * read; a GuideLLM report likewise). It is read as the document it holds.
   */
  @Test
  void aByteOrderMarkBeforeAJsonDocumentIsNoPartOfIt() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      byte[] bom8 = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
      Path tools = Path.of("src/test/resources/real-logs/tools");
      Path a = t.writeBytes("a/result-long-rate8.json",
          concat(bom8, java.nio.file.Files.readAllBytes(tools.resolve("vllm-2026-gemma4-rate8/result-long-rate8.json"))));
      Path b = t.writeBytes("b/benchmarks.json",
          concat(bom8, java.nio.file.Files.readAllBytes(tools.resolve("guidellm-0.2-fixture/benchmarks.json"))));
      var r = t.ingest(a, b);
      assertEquals(List.of("vllm-bench-json", "guidellm-json"),
          r.files().stream().map(IngestResult.FileResult::format).toList());
      assertEquals(List.of(1L, 2L), r.files().stream().map(IngestResult.FileResult::records).toList());
      assertEquals(0, t.count("SELECT count(*) FROM rejects"));
    }
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream z = new GZIPOutputStream(out)) {
      z.write(b);
    }
    return out.toByteArray();
  }

  static byte[] zstd(byte[] b) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream z = new ZstdOutputStream(out)) {
      z.write(b);
    }
    return out.toByteArray();
  }

  static byte[] repeatLines(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append("{\"request_id\":\"q").append(i).append("\",\"arrival_ns\":").append(1000 + i)
          .append(",\"tokens_ns\":[").append(5000 + i).append(',').append(6000 + i).append("]}\n");
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A reader that learns only at the file's end how to read what came before reads the file a
   * second time (ParseContext.reopen), compressed or not: metrics scrapes with a one-off scrape,
   * then the time printed before each (constructed/prometheus-date-lines), take the date before
   * them, not the one after.
   */
  @Test
  void aFileIsReadAgainForAReaderThatNeedsItsEnd() throws Exception {
    byte[] text = java.nio.file.Files.readAllBytes(Path.of(
        "src/test/resources/constructed/prometheus-date-lines/oneoff-scrape-then-date-before-loop-no-prompts.txt"));
    java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
      out.write(text);
    }
    try (TestDb t = new TestDb(tmp)) {
      Path f = t.writeBytes("m/scrapes.txt.gz", gz.toByteArray());
      var r = t.ingest(new IngestOptions(List.of(f.toString()), "vllm-prometheus", null, false, false, false, null, null,
          java.time.Instant.parse("2025-10-18T04:12:30Z")));
      assertEquals(0, r.files().get(0).rejected());
      assertEquals(List.of(List.of(1760760750000000000L, 1), List.of(1760760760000000000L, 3),
          List.of(1760760765000000000L, 5), List.of(1760760770000000000L, 2)),
          t.rows("SELECT ts_ns, running FROM engine_stats ORDER BY ts_ns"));
    }
  }
}
