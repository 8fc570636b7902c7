package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log read while the server still wrote it, then read again after it grew (or after rotation
 * renamed it): before, the second reading was a new source and every request of the first part
 * was counted twice (12 requests for 6). Now the source holding the file's beginning is replaced
 * by the whole reading, in the same transaction, and the counts are those of one clean reading.
 */
class GrownLogTest {
  @TempDir
  Path tmp;

  private byte[] whole;
  private byte[] half;

  @BeforeEach
  void readSample() throws Exception {
    whole = Files.readAllBytes(Path.of("sample-logs/vllm/server.log"));
    int cut = whole.length / 2;
    while (whole[cut - 1] != '\n') {
      cut++;
    }
    half = Arrays.copyOf(whole, cut);
  }

  private static final String COUNTS = "SELECT (SELECT count(*) FROM sources), (SELECT count(*) FROM requests),"
      + " (SELECT count(*) FROM tokens), (SELECT sum(lines) FROM sources)";

  private List<List<Object>> cleanCounts() throws Exception {
    Path f = Files.createDirectories(tmp.resolve("clean/run")).resolve("server.log");
    Files.write(f, whole);
    try (TestDb t = new TestDb(tmp.resolve("clean"))) {
      t.ingest(f);
      return t.rows(COUNTS);
    }
  }

  @Test
  void aLogReadAgainAfterItGrewReplacesItsFirstReading() throws Exception {
    List<List<Object>> clean = cleanCounts();
    assertEquals(6L, ((Number) clean.get(0).get(1)).longValue(), clean.toString());
    Path f = Files.createDirectories(tmp.resolve("live/run")).resolve("server.log");
    try (TestDb t = new TestDb(tmp.resolve("live"))) {
      Files.write(f, half);
      IngestResult first = t.ingest(f);
      assertTrue(first.files().get(0).grewFrom().isEmpty());
      long firstTokens = t.count("SELECT count(*) FROM tokens");
      long cleanTokens = ((Number) clean.get(0).get(2)).longValue();
      assertTrue(firstTokens > 0 && firstTokens < cleanTokens, "the first half holds part of the tokens: " + firstTokens);

      Files.write(f, whole);
      IngestResult second = t.ingest(f);
      IngestResult.FileResult r = second.files().get(0);
      assertTrue(r.ingested(), r.toString());
      assertEquals(List.of(first.files().get(0).sourceId()), r.grewFrom());
      assertEquals(clean, t.rows(COUNTS));

      // the same file again, unchanged: already ingested, nothing replaced
      IngestResult third = t.ingest(f);
      assertTrue(third.files().get(0).outcome().startsWith("already"), third.files().toString());
      assertEquals(clean, t.rows(COUNTS));
    }
  }

  /**
   * server.log read while it grew; then logrotate renamed it to {@code rotated} (holding the
   * whole log, as {@code bytes}) and a new, empty server.log began.
   */
  private void assertRotationReplacesTheFirstReading(String rotated, byte[] bytes) throws Exception {
    List<List<Object>> clean = cleanCounts();
    Path dir = Files.createDirectories(tmp.resolve(rotated + "/run"));
    try (TestDb t = new TestDb(tmp.resolve(rotated))) {
      Files.write(dir.resolve("server.log"), half);
      t.ingest(dir.resolve("server.log"));
      Files.write(dir.resolve(rotated), bytes);
      Files.write(dir.resolve("server.log"), new byte[0]);
      IngestResult r = t.ingest(dir.resolve(rotated));
      assertEquals(1, r.files().get(0).grewFrom().size(), r.files().toString());
      assertEquals(clean, t.rows(COUNTS));
    }
  }

  @Test
  void aLogRenamedByRotationAfterItGrewReplacesItsFirstReading() throws Exception {
    assertRotationReplacesTheFirstReading("server.log.1", whole);
  }

  /** logrotate with compress: the grown log found again as server.log.1.gz. */
  @Test
  void aLogRotatedAndCompressedAfterItGrewReplacesItsFirstReading() throws Exception {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    try (var z = new java.util.zip.GZIPOutputStream(b)) {
      z.write(whole);
    }
    assertRotationReplacesTheFirstReading("server.log.1.gz", b.toByteArray());
  }

  /** kubectl logs captured twice into one folder (pod.log, later pod-2.log): one log, read once. */
  @Test
  void aLogCapturedTwiceUnderTwoNamesReplacesTheFirstCapture() throws Exception {
    List<List<Object>> clean = cleanCounts();
    Path dir = Files.createDirectories(tmp.resolve("twice/run"));
    try (TestDb t = new TestDb(tmp.resolve("twice"))) {
      Files.write(dir.resolve("pod.log"), half);
      IngestResult first = t.ingest(dir.resolve("pod.log"));
      Files.write(dir.resolve("pod-2.log"), whole);
      IngestResult r = t.ingest(dir.resolve("pod-2.log"));
      assertEquals(List.of(first.files().get(0).sourceId()), r.files().get(0).grewFrom(), r.files().toString());
      assertEquals(clean, t.rows(COUNTS));
    }
  }

  /** The folder in one ingest, two files at a time. */
  private static IngestResult ingestAtOnce(TestDb t, Path dir) throws Exception {
    return t.ingest(new IngestOptions(List.of(dir.toString()), null, null, false, false, false, null, null, null, 2));
  }

  private static byte[] gzip(byte[] b) throws java.io.IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try (var z = new java.util.zip.GZIPOutputStream(out)) {
      z.write(b);
    }
    return out.toByteArray();
  }

  /** Two compressed captures (pod.log.gz, then pod.log.1.gz holding more): one source, by either ingest. */
  @Test
  void compressedCapturesOfOneLogAreOneSource() throws Exception {
    List<List<Object>> clean = cleanCounts();
    Path dir = Files.createDirectories(tmp.resolve("gz/run"));
    try (TestDb t = new TestDb(tmp.resolve("gz"))) {
      Files.write(dir.resolve("pod.log.gz"), gzip(half));
      t.ingest(dir.resolve("pod.log.gz"));
      Files.write(dir.resolve("pod.log.1.gz"), gzip(whole));
      IngestResult r = t.ingest(dir.resolve("pod.log.1.gz"));
      assertEquals(1, r.files().get(0).grewFrom().size(), r.files().toString());
      assertEquals(clean, t.rows(COUNTS));
    }
    try (TestDb t = new TestDb(tmp.resolve("gz-once"))) {
      ingestAtOnce(t, dir);
      assertEquals(clean, t.rows(COUNTS));
    }
  }

  /**
   * Three captures of one log in a folder read by one ingest, two files at a time: before, each
   * file's check ran before the others committed, and all three were stored (the log counted
   * three times). Readings of one log are now read one after the other, shortest first.
   */
  @Test
  void capturesReadByOneIngestAtOnceAreOneSource() throws Exception {
    List<List<Object>> clean = cleanCounts();
    Path dir = Files.createDirectories(tmp.resolve("folder/run"));
    Files.write(dir.resolve("pod-2.log"), whole);
    Files.write(dir.resolve("pod.log"), half);
    Files.write(dir.resolve("pod-1.log"), Arrays.copyOf(half, half.length / 2 + 1));
    try (TestDb t = new TestDb(tmp.resolve("folder"))) {
      IngestResult r = ingestAtOnce(t, dir);
      assertEquals(3, r.files().size(), r.files().toString());
      assertEquals(clean, t.rows(COUNTS));
      // and again: nothing changes
      ingestAtOnce(t, dir);
      assertEquals(clean, t.rows(COUNTS));
    }
  }

  /**
   * The other order: the later capture read first, then the earlier one, which holds nothing new.
   * It is proven the beginning of the stored source while that file is still there; once the file
   * is gone it cannot be, and the copy is read as a source of its own.
   */
  @Test
  void anEarlierCopyOfALogAlreadyReadHoldsNothingNew() throws Exception {
    List<List<Object>> clean = cleanCounts();
    Path dir = Files.createDirectories(tmp.resolve("copy/run"));
    try (TestDb t = new TestDb(tmp.resolve("copy"))) {
      Files.write(dir.resolve("pod-2.log"), whole);
      IngestResult first = t.ingest(dir.resolve("pod-2.log"));
      Files.write(dir.resolve("pod.log"), half);
      IngestResult r = t.ingest(dir.resolve("pod.log"));
      IngestResult.FileResult f = r.files().get(0);
      assertTrue(f.outcome().startsWith("already ingested: its content is the beginning of source "
          + first.files().get(0).sourceId()), f.toString());
      assertEquals(clean, t.rows(COUNTS));

      Files.delete(dir.resolve("pod-2.log"));
      assertTrue(t.ingest(dir.resolve("pod.log")).files().get(0).ingested());
      assertEquals(2, t.count("SELECT count(*) FROM sources"));
    }
  }

  @Test
  void aDifferentLogOfTheSameNameElsewhereIsNotReplaced() throws Exception {
    Path a = Files.createDirectories(tmp.resolve("two/a")).resolve("server.log");
    Path b = Files.createDirectories(tmp.resolve("two/b")).resolve("server.log");
    Files.write(a, half);
    Files.write(b, whole); // begins with a's content, but is another directory's file
    try (TestDb t = new TestDb(tmp.resolve("two"))) {
      t.ingest(a);
      IngestResult r = t.ingest(b);
      assertTrue(r.files().get(0).grewFrom().isEmpty(), r.files().toString());
      assertEquals(2, t.count("SELECT count(*) FROM sources"));
    }
  }

  @Test
  void aLogRewrittenWithOtherContentIsANewSource() throws Exception {
    Path f = Files.createDirectories(tmp.resolve("rw/run")).resolve("server.log");
    try (TestDb t = new TestDb(tmp.resolve("rw"))) {
      Files.write(f, half);
      t.ingest(f);
      // longer, and the first reading's bytes are no longer its beginning
      Files.write(f, ("(APIServer pid=1) INFO 03-17 15:37:29 [api_server.py:1790] starting\n"
          + new String(whole, java.nio.charset.StandardCharsets.UTF_8)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      IngestResult r = t.ingest(f);
      assertTrue(r.files().get(0).grewFrom().isEmpty(), r.files().toString());
      assertEquals(2, t.count("SELECT count(*) FROM sources"));
    }
  }
}
