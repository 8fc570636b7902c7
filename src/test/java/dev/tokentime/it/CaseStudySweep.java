package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The seed methodology's case study (§3.3) generated and ingested once for the end-to-end tests
 * that read it (CaseStudyIT, ReportIT): a server with 16 batch slots driven at concurrency 16 and
 * 32, 200 requests each. Those tests only read the database (reports are written beside it), so
 * one ingest serves them all in the Failsafe JVM instead of one per class.
 */
final class CaseStudySweep {
  private static final Path DIR = Path.of("target", "case-study-it");
  private static Path db;

  private CaseStudySweep() {}

  /** The ingested sweep's database (c16 and c32), made on first use. */
  static synchronized Path db() throws Exception {
    if (db == null) {
      deleteTree(DIR);
      Path in = Files.createDirectories(DIR).resolve("sweep");
      Cli.Result g = Cli.run("generate", "--out", in.toString(), "--levels", "16,32", "--requests", "200",
          "--mean-output", "200", "--slots", "16", "--seed", "3");
      assertEquals(0, g.code(), g.err());
      Path d = DIR.resolve("sweep.duckdb");
      Cli.Result r = Cli.run("ingest", "--db", d.toString(), in.toString());
      assertEquals(0, r.code(), r.err());
      db = d;
    }
    return db;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
