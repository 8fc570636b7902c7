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

  /**
   * A folder inside an input folder that the user cannot open is skipped with its reason and the
   * rest is read (it was an internal error, exit 3, nothing stored). Run as another user where
   * the tests run as root (root opens every folder), through setpriv.
   */
  @Test
  void aFolderThatCannotBeOpenedIsSkippedAndTheRestRead(@TempDir Path tmp) throws Exception {
    java.util.Set<java.nio.file.attribute.PosixFilePermission> open =
        java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx");
    Files.setPosixFilePermissions(tmp, open);
    Path in = tmp.resolve("in");
    Path c1 = Files.createDirectories(in.resolve("c1"));
    Files.setPosixFilePermissions(in, open);
    Files.setPosixFilePermissions(c1, open);
    Files.copy(Path.of("sample-logs/canonical/c1.jsonl"), c1.resolve("c1.jsonl"));
    Path locked = Files.createDirectories(c1.resolve("locked"));
    Files.writeString(locked.resolve("x.jsonl"), "{}\n");
    Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    Path out = Files.createDirectories(tmp.resolve("out"));
    Files.setPosixFilePermissions(out, open);
    java.util.List<String> cmd = new java.util.ArrayList<>();
    Path jar = Cli.jar();
    if ("root".equals(System.getProperty("user.name"))) {
      org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv to run as another user");
      // the build's folder may be the root's alone: the jar and its lib/ linked (else copied) where all may read
      Path bin = Files.createDirectories(tmp.resolve("bin/lib"));
      Files.setPosixFilePermissions(bin.getParent(), open);
      Files.setPosixFilePermissions(bin, open);
      jar = linkOrCopy(jar, bin.getParent().resolve("tokentime.jar"));
      try (var libs = Files.list(Cli.jar().toAbsolutePath().getParent().resolve("lib"))) {
        for (Path l : libs.toList()) {
          linkOrCopy(l, bin.resolve(l.getFileName()));
        }
      }
      cmd.addAll(java.util.List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
    } else {
      org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(locked), "a folder this user cannot open");
    }
    cmd.addAll(java.util.List.of(Cli.javaBin(), "-Xmx512m", "-Duser.home=" + tmp, "-Djava.io.tmpdir=" + out, "-jar",
        jar.toString(), "ingest", "--db", out.resolve("p.duckdb").toString(), in.toString()));
    Cli.Result r = Cli.exec(cmd, null, java.util.Map.of("HOME", tmp.toString()));
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("skipped 1 file (not readable): " + locked + " (cannot read: cannot be opened: access denied)"),
        r.out());
    assertTrue(r.out().contains("ingested " + c1.resolve("c1.jsonl") + " (tokentime-jsonl): 12 lines = 12 records"), r.out());
  }

  private static Path linkOrCopy(Path from, Path to) throws java.io.IOException {
    try {
      Files.createLink(to, from);
    } catch (java.io.IOException | UnsupportedOperationException e) {
      Files.copy(from, to);
    }
    Files.setPosixFilePermissions(to, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    return to;
  }
}
