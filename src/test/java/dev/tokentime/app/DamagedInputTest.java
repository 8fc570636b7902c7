package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.Generated;
import dev.tokentime.testing.TestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs that should just work, and damage that must not pass unnoticed: a CSV saved with a
 * UTF-8 byte order mark reads like the same CSV without it (before, every row was rejected);
 * a compressed file cut short is a rejected line, so --strict refuses it (before, a .zst cut
 * short stored nothing and --strict still exited 0).
 */
class DamagedInputTest {
  @TempDir
  Path tmp;

  @Test
  void aCsvWithAByteOrderMarkReadsLikeOneWithout() throws Exception {
    Path plain = Generated.into(tmp.resolve("plain"), "--form", "csv", "--levels", "2", "--requests", "6", "--seed", "4");
    Path bom = Files.createDirectories(tmp.resolve("bom"));
    try (var files = Files.list(plain)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        byte[] b = Files.readAllBytes(f);
        byte[] withBom = new byte[b.length + 3];
        withBom[0] = (byte) 0xef;
        withBom[1] = (byte) 0xbb;
        withBom[2] = (byte) 0xbf;
        System.arraycopy(b, 0, withBom, 3, b.length);
        Files.write(bom.resolve(f.getFileName()), withBom);
      }
    }
    String q = "SELECT count(*), sum(prompt_tokens), (SELECT count(*) FROM tokens), (SELECT count(*) FROM rejects) FROM requests";
    List<List<Object>> expected;
    try (TestDb t = new TestDb(tmp.resolve("a"))) {
      t.ingest(IngestOptions.of(List.of(plain.toString())));
      expected = t.rows(q);
    }
    assertTrue(((Number) expected.get(0).get(0)).longValue() > 0, expected.toString());
    try (TestDb t = new TestDb(tmp.resolve("b"))) {
      t.ingest(IngestOptions.of(List.of(bom.toString())));
      assertEquals(expected, t.rows(q));
    }
  }

  @Test
  void aZstdFileCutShortIsARejectAndStrictRefusesIt() throws Exception {
    // big enough for several zstd blocks, so the part before the cut decodes
    Path gen = Generated.into(tmp.resolve("gen"), "--form", "tokens", "--levels", "4", "--requests", "150",
        "--mean-output", "40", "--seed", "2");
    byte[] whole = com.github.luben.zstd.Zstd.compress(Files.readAllBytes(gen.resolve("c4.jsonl")));
    Path cut = Files.write(Files.createDirectories(tmp.resolve("c4")).resolve("c4.jsonl.zst"),
        Arrays.copyOf(whole, whole.length * 2 / 3));
    try (TestDb t = new TestDb(tmp.resolve("lenient"))) {
      IngestResult r = t.ingest(cut);
      IngestResult.FileResult f = r.files().get(0);
      assertTrue(f.records() > 100 && f.rejected() >= 1, f.toString());
      assertEquals(f.lines(), f.records() + f.otherLines() + f.rejected());
      assertTrue(f.firstRejects().stream().anyMatch(j -> j.reason().contains("zstd stream")), f.firstRejects().toString());
    }
    try (TestDb t = new TestDb(tmp.resolve("strict"))) {
      IngestResult r = t.ingest(new IngestOptions(List.of(cut.toString()), null, null, false, true, false, null, null));
      assertTrue(r.strictFailure(), r.files().toString());
      assertEquals(0, t.count("SELECT count(*) FROM sources"));
    }
  }

  private static byte[] gzip(byte[] b) throws Exception {
    var bytes = new java.io.ByteArrayOutputStream();
    try (var z = new java.util.zip.GZIPOutputStream(bytes)) {
      z.write(b);
    }
    return bytes.toByteArray();
  }

  @Test
  void dataAfterTheEndOfAGzipStreamIsARejectAndStrictRefusesIt() throws Exception {
    // before, java.util.zip ended quietly at the garbage and the file counted as whole
    Path gen = Generated.into(tmp.resolve("gen"), "--form", "tokens", "--levels", "4", "--requests", "10", "--seed", "3");
    byte[] content = Files.readAllBytes(gen.resolve("c4.jsonl"));
    byte[] z = gzip(content);
    byte[] glued = Arrays.copyOf(z, z.length + 1000);
    for (int i = z.length; i < glued.length; i++) {
      glued[i] = (byte) ('x' + i % 3);
    }
    Path f = Files.write(Files.createDirectories(tmp.resolve("c4")).resolve("c4.jsonl.gz"), glued);
    try (TestDb t = new TestDb(tmp.resolve("lenient"))) {
      IngestResult.FileResult r = t.ingest(f).files().get(0);
      assertEquals(content.length > 0 ? new String(content).lines().count() + 1 : 0, r.lines(), r.toString());
      assertEquals(1, r.rejected(), r.toString());
      assertTrue(r.firstRejects().get(0).reason().contains("1000 bytes after the end of the gzip data"), r.firstRejects().toString());
      assertEquals(r.lines(), r.records() + r.otherLines() + r.rejected());
    }
    try (TestDb t = new TestDb(tmp.resolve("strict"))) {
      IngestResult r = t.ingest(new IngestOptions(List.of(f.toString()), null, null, false, true, false, null, null));
      assertTrue(r.strictFailure(), r.files().toString());
      assertEquals(0, t.count("SELECT count(*) FROM sources"));
    }
    // two members glued (gzip -c a >> x.gz; gzip -c b >> x.gz) are read whole, as gzip -d reads them
    byte[] two = Arrays.copyOf(z, z.length * 2);
    System.arraycopy(z, 0, two, z.length, z.length);
    Path both = Files.write(Files.createDirectories(tmp.resolve("two")).resolve("c4.jsonl.gz"), two);
    try (TestDb t = new TestDb(tmp.resolve("members"))) {
      IngestResult.FileResult r = t.ingest(both).files().get(0);
      assertEquals(2 * new String(content).lines().count(), r.lines(), r.toString());
    }
  }

  @Test
  void aLogCompressedByRotationIsTheSameSource() throws Exception {
    // before, sources were known by the hash of the file's bytes: x.log and x.log.gz of the same
    // lines were two sources and every request counted twice
    Path gen = Generated.into(tmp.resolve("gen"), "--form", "tokens", "--levels", "4", "--requests", "10", "--seed", "5");
    byte[] content = Files.readAllBytes(gen.resolve("c4.jsonl"));
    Path plain = Files.write(Files.createDirectories(tmp.resolve("p/c4")).resolve("c4.jsonl"), content);
    Path gz = Files.write(Files.createDirectories(tmp.resolve("z/c4")).resolve("c4.jsonl.gz"), gzip(content));
    for (List<Path> order : List.of(List.of(plain, gz), List.of(gz, plain))) {
      try (TestDb t = new TestDb(tmp.resolve("db" + order.get(0).getFileName()))) {
        t.ingest(order.get(0));
        long requests = t.count("SELECT count(*) FROM requests");
        long tokens = t.count("SELECT count(*) FROM tokens");
        IngestResult again = t.ingest(order.get(1));
        assertEquals(1, t.count("SELECT count(*) FROM sources"), again.files().toString());
        assertTrue(again.files().get(0).outcome().contains("already ingested"), again.files().toString());
        assertEquals(requests, t.count("SELECT count(*) FROM requests"));
        assertEquals(tokens, t.count("SELECT count(*) FROM tokens"));
      }
    }
  }

  /**
   * Archives and compressions tokentime does not read are named with what to do, found alone or in
   * a folder, and under --from too: a bzip2, xz or zip file was "cannot tell the format", and with
   * --from vllm-log it was stored as rejected garbage; a tar of two logs (plain or gzip) was read as
   * one log, the two files' lines run together and the first line of each glued to its header.
   */
  @Test
  void archivesAndCompressionsNotReadAreNamedWithWhatToDo() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("logs"));
    byte[] log = Files.readAllBytes(Path.of("sample-logs/vllm/server.log"));
    Files.write(dir.resolve("server.log"), log);
    Files.write(dir.resolve("old.log.bz2"), new byte[] {'B', 'Z', 'h', '9', 0x31, 0x41, 0x59, 0x26, 0x53, 0x59, 1, 2});
    Files.write(dir.resolve("old.log.xz"), new byte[] {(byte) 0xfd, '7', 'z', 'X', 'Z', 0, 0, 4});
    java.io.ByteArrayOutputStream zip = new java.io.ByteArrayOutputStream();
    try (java.util.zip.ZipOutputStream z = new java.util.zip.ZipOutputStream(zip)) {
      z.putNextEntry(new java.util.zip.ZipEntry("server.log"));
      z.write(log);
    }
    Files.write(dir.resolve("logs.zip"), zip.toByteArray());
    byte[] tar = new byte[1024 + log.length];
    System.arraycopy("server.log".getBytes(StandardCharsets.US_ASCII), 0, tar, 0, 10);
    System.arraycopy("ustar".getBytes(StandardCharsets.US_ASCII), 0, tar, 257, 5);
    System.arraycopy(log, 0, tar, 512, log.length);
    Files.write(dir.resolve("logs.tar"), tar);
    java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream g = new java.util.zip.GZIPOutputStream(gz)) {
      g.write(tar);
    }
    Files.write(dir.resolve("logs.tar.gz"), gz.toByteArray());
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      var r = t.ingest(dir);
      assertEquals(List.of("server.log"), r.files().stream().map(f -> Path.of(f.path()).getFileName().toString()).toList());
      assertEquals(List.of(
          "logs.tar cannot read: a tar archive (several files in one): extract it (tar -xf FILE) and ingest the folder;"
              + " read as one log, its files' lines would run together",
          "logs.tar.gz cannot read: a gzip-compressed tar archive (several files in one): extract it (tar -xf FILE) and"
              + " ingest the folder; read as one log, its files' lines would run together",
          "logs.zip cannot read: a zip archive: extract it (unzip FILE) and ingest the folder",
          "old.log.bz2 cannot read: bzip2-compressed: decompress it first (bunzip2 -k FILE); gzip and zstd files are read"
              + " as they are",
          "old.log.xz cannot read: xz-compressed: decompress it first (unxz -k FILE); gzip and zstd files are read as they are"),
          r.skipped().stream().map(s -> Path.of(s.path()).getFileName() + " " + s.reason()).sorted().toList());
      // "ustar" in text is no tar: its header ends the magic with a NUL (or GNU's two spaces)
      byte[] text = new byte[300];
      java.util.Arrays.fill(text, (byte) 'x');
      System.arraycopy("mustard tea".getBytes(StandardCharsets.US_ASCII), 0, text, 256, 11);
      assertEquals(null, OpenedInput.archive(text));
      var forced = new IngestOptions(List.of(dir.resolve("old.log.bz2").toString()), "vllm-log", null, false, false, false,
          null, null, null);
      var e = org.junit.jupiter.api.Assertions.assertThrows(dev.tokentime.BadInputException.class, () -> t.ingest(forced));
      assertTrue(e.getMessage().contains("bzip2-compressed: decompress it first"), e.getMessage());
    }
  }
}
