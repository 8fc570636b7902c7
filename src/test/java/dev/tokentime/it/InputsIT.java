package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every way users hand over files, through the packaged jar: .gz, .zst, a directory, stdin, globs. */
class InputsIT {
  @TempDir
  Path tmp;

  Path generate(String form) throws Exception {
    Path out = tmp.resolve("gen-" + form);
    Cli.Result g = Cli.run("generate", "--out", out.toString(), "--form", form, "--levels", "4",
        "--requests", "30", "--mean-output", "20", "--seed", "3");
    assertEquals(0, g.code(), g.err());
    return out;
  }

  static void compress(Path from, Path to, boolean zstd) throws Exception {
    try (OutputStream os = Files.newOutputStream(to);
        OutputStream z = zstd ? new ZstdOutputStream(os) : new GZIPOutputStream(os)) {
      Files.copy(from, z);
    }
  }

  /** The request count and mean TTFT that the database holds, as the CLI prints them. */
  static String fingerprint(Path db) throws Exception {
    Cli.Result q = Cli.run("query", "--db", db.toString(), "--format", "csv",
        "SELECT run, count(*) AS n, round(avg(ttft_ms), 6) AS ttft FROM request_latency GROUP BY run ORDER BY run");
    assertEquals(0, q.code(), q.err());
    return q.out();
  }

  @Test
  void gzipZstdDirectoryStdinAndGlobsAllIngestTheSameRun() throws Exception {
    Path plain = generate("requests").resolve("c4.jsonl");
    Path dir = Files.createDirectories(tmp.resolve("in/c4"));
    compress(plain, dir.resolve("c4.jsonl.gz"), false);
    Path zstdDir = Files.createDirectories(tmp.resolve("zin/c4"));
    compress(plain, zstdDir.resolve("c4.jsonl.zst"), true);

    Path dbPlain = tmp.resolve("plain.duckdb");
    assertEquals(0, Cli.run("ingest", "--db", dbPlain.toString(), plain.toString()).code());
    String expected = fingerprint(dbPlain);
    assertTrue(expected.contains("c4,30,"), expected);

    Cli.Result gz = Cli.run("ingest", "--db", tmp.resolve("gz.duckdb").toString(), dir.resolve("c4.jsonl.gz").toString());
    assertEquals(0, gz.code(), gz.err());
    assertTrue(gz.out().contains("(tokentime-jsonl, gzip)"), gz.out());
    assertEquals(expected, fingerprint(tmp.resolve("gz.duckdb")));

    Cli.Result zst = Cli.run("ingest", "--db", tmp.resolve("zst.duckdb").toString(), zstdDir.resolve("c4.jsonl.zst").toString());
    assertEquals(0, zst.code(), zst.err());
    assertTrue(zst.out().contains("(tokentime-jsonl, zstd)"), zst.out());
    assertEquals(expected, fingerprint(tmp.resolve("zst.duckdb")));

    // a directory with unrelated files: they are skipped and listed, expected/ is never read
    Files.writeString(dir.resolve("NOTES.md"), "# notes\n");
    Files.write(dir.resolve("nvidia-smi.bin"), new byte[] {0, 1, 2, 3, (byte) 0xff});
    Files.createDirectories(dir.resolve("expected"));
    Files.copy(plain, dir.resolve("expected/c4.jsonl"));
    Cli.Result d = Cli.run("ingest", "--db", tmp.resolve("dir.duckdb").toString(), tmp.resolve("in").toString());
    assertEquals(0, d.code(), d.err());
    assertTrue(d.out().contains("skipped 2 files (format not recognised; name one with --from): "), d.out());
    assertTrue(d.out().contains("NOTES.md") && d.out().contains("nvidia-smi.bin"), d.out());
    assertEquals(expected, fingerprint(tmp.resolve("dir.duckdb")));

    // stdin: the run comes from --run, else from the records (these name their run)
    Cli.Result in = Cli.run(plain, "ingest", "--db", tmp.resolve("stdin.duckdb").toString(), "-");
    assertEquals(0, in.code(), in.err());
    assertTrue(in.out().contains("ingested - (tokentime-jsonl)"), in.out());
    assertEquals(expected, fingerprint(tmp.resolve("stdin.duckdb")));
    Cli.Result src = Cli.run("query", "--db", tmp.resolve("stdin.duckdb").toString(), "--format", "csv",
        "SELECT path, run FROM sources");
    assertEquals("path,run\n-,stdin\n", src.out());

    // a glob
    Cli.Result glob = Cli.run("ingest", "--db", tmp.resolve("glob.duckdb").toString(), tmp + "/zin/*/*.zst");
    assertEquals(0, glob.code(), glob.err());
    assertEquals(expected, fingerprint(tmp.resolve("glob.duckdb")));
  }

  @Test
  void csvRequestsAndTokensFilesOfARunMeet() throws Exception {
    Path csv = generate("csv");
    Path db = tmp.resolve("csv.duckdb");
    Cli.Result r = Cli.run("ingest", "--db", db.toString(), csv.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("c4-requests.csv (tokentime-csv)"), r.out());
    assertTrue(r.out().contains("c4-tokens.csv (tokentime-csv)"), r.out());
    Cli.Result q = Cli.run("query", "--db", db.toString(), "--format", "csv",
        "SELECT count(*) AS requests, count(*) FILTER (WHERE content_chunks > 0) AS with_tokens FROM request_latency");
    assertEquals("requests,with_tokens\n30,30\n", q.out());
  }
}
