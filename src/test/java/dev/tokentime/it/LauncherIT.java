package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher script on a built tree copied to another path, as a user who moves a checkout
 * would run it: standard output carries exactly the requested JSON, CSV or Arrow, whatever the
 * JVM has to say about a class-data archive recorded for the tree's first place.
 */
class LauncherIT {
  @TempDir
  Path tmp;

  @Test
  void aCopiedTreeWritesOnlyTheRequestedOutputOnStdout() throws Exception {
    Path first = copyTree(Path.of("."), tmp.resolve("first"));
    Path db = tmp.resolve("run.duckdb");
    Run ingest = launch(first, db, "ingest", "--db", db.toString(), first.resolve("sample-logs/canonical").toString());
    assertEquals(0, ingest.code(), ingest.err());
    List<Path> firstArchives = archives(first);
    assertEquals(1, firstArchives.size(), "the first start records one archive: " + firstArchives);

    // the tree with its archive moves elsewhere: the archive was recorded for the first path
    Path moved = copyTree(first, tmp.resolve("moved"));
    checkStdout(moved, db);
    List<Path> own = archives(moved);
    assertEquals(1, own.size(), "the copy records an archive of its own in place of the first's: " + own);
    assertTrue(!own.get(0).getFileName().equals(firstArchives.get(0).getFileName()), own + " vs " + firstArchives);

    // an archive the JVM refuses (recorded for the first path) under the copy's own name: the
    // JVM's complaint goes to stderr, stdout stays exactly the output
    Files.copy(firstArchives.get(0), own.get(0), StandardCopyOption.REPLACE_EXISTING);
    checkStdout(moved, db);
  }

  private void checkStdout(Path tree, Path db) throws Exception {
    Run json = launch(tree, db, "summary", "--db", db.toString(), "--format", "json");
    assertEquals(0, json.code(), json.err());
    JsonNode root = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .readTree(new String(json.out(), java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(3, root.get("runs").size(), "runs c1, c2 and c4 of sample-logs/canonical");

    Run csv = launch(tree, db, "query", "--db", db.toString(),
        "SELECT run, count(*) AS n FROM requests GROUP BY run ORDER BY run", "--format", "csv");
    assertEquals(0, csv.code(), csv.err());
    String text = new String(csv.out(), java.nio.charset.StandardCharsets.UTF_8);
    List<CSVRecord> records = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build()
        .parse(new StringReader(text)).getRecords();
    assertEquals("run,n\nc1,12\nc2,12\nc4,12\n", text);
    assertEquals(3, records.size());

    Run count = launch(tree, db, "query", "--db", db.toString(), "SELECT count(*) AS n FROM token_gaps", "--format", "csv");
    long expected = Long.parseLong(new String(count.out(), java.nio.charset.StandardCharsets.UTF_8).split("\n")[1]);
    Run arrow = launch(tree, db, "query", "--db", db.toString(), "token_gaps", "--format", "arrow");
    assertEquals(0, arrow.code(), arrow.err());
    long rows = 0;
    try (BufferAllocator a = new RootAllocator(); InputStream in = new java.io.ByteArrayInputStream(arrow.out());
        ArrowStreamReader reader = new ArrowStreamReader(in, a)) {
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
      assertEquals(-1, in.read(), "nothing after the Arrow stream");
    }
    assertEquals(expected, rows);
    assertTrue(expected > 100, "token_gaps has rows: " + expected);
  }

  record Run(int code, byte[] out, String err) {}

  /** Runs the tree's launcher with the JDK running the tests first on the PATH. */
  private Run launch(Path tree, Path db, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("bash", tree.resolve("tokentime").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("PATH", Path.of(Cli.javaBin()).getParent() + ":" + System.getenv("PATH"));
    pb.environment().remove("TOKENTIME_JAVA_OPTS");
    pb.environment().remove("TOKENTIME_NO_CDS");
    Path out = tmp.resolve("out.bin");
    Path err = tmp.resolve("err.txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("timed out: " + cmd);
    }
    return new Run(p.exitValue(), Files.readAllBytes(out), Files.readString(err));
  }

  private static List<Path> archives(Path tree) throws IOException {
    try (Stream<Path> s = Files.list(tree.resolve("target"))) {
      return s.filter(p -> p.getFileName().toString().endsWith(".jsa")).sorted().toList();
    }
  }

  /**
   * The built tree a user runs: the launcher, the jar with its libraries (linked where the file
   * system allows, they are large) and the samples the launcher records its archive from.
   */
  private static Path copyTree(Path from, Path to) throws IOException {
    Files.createDirectories(to.resolve("target/lib"));
    Files.copy(from.resolve("tokentime"), to.resolve("tokentime"));
    Files.copy(from.resolve("target/tokentime.jar"), to.resolve("target/tokentime.jar"));
    for (Path src : list(from.resolve("target/lib"))) {
      Path dst = to.resolve("target/lib").resolve(src.getFileName().toString());
      try {
        Files.createLink(dst, src);
      } catch (IOException | UnsupportedOperationException e) {
        Files.copy(src, dst);
      }
    }
    for (Path jsa : list(from.resolve("target"))) {
      if (jsa.getFileName().toString().endsWith(".jsa")) {
        Files.copy(jsa, to.resolve("target").resolve(jsa.getFileName().toString()));
      }
    }
    try (Stream<Path> s = Files.walk(from.resolve("sample-logs"))) {
      for (Path src : s.toList()) {
        Path dst = to.resolve(from.relativize(src).toString());
        if (Files.isDirectory(src)) {
          Files.createDirectories(dst);
        } else {
          Files.copy(src, dst);
        }
      }
    }
    return to;
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }
}
