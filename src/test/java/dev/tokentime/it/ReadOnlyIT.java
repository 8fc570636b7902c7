package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database written by tokentime opens read-only in another process with DuckDB JDBC 1.4.4.0
 * (the LTS line) alone, and the views work there: they are stored in the file, in plain SQL; so
 * do the documentation (tt_docs) and the storage format DuckDB 1.0 reads.
 */
class ReadOnlyIT {
  @TempDir
  Path tmp;

  @Test
  void anotherProcessReadsTheViewsReadOnly() throws Exception {
    Path db = tmp.resolve("run.duckdb");
    Cli.Result ingest = Cli.run("ingest", "--db", db.toString(), "sample-logs/canonical");
    assertEquals(0, ingest.code(), ingest.err());
    Path duckdbJar;
    // an older DuckDB than the one tokentime runs on (pom.xml duckdb.lts.version), untouched
    try (Stream<Path> s = Files.list(Path.of("target/duckdb-lts"))) {
      duckdbJar = s.filter(p -> p.getFileName().toString().equals("duckdb_jdbc-1.4.4.0.jar"))
          .findFirst().orElseThrow(() -> new AssertionError("duckdb_jdbc-1.4.4.0.jar not in target/duckdb-lts"));
    }
    String cp = Path.of("target/test-classes") + java.io.File.pathSeparator + duckdbJar;
    Cli.Result probe = Cli.exec(List.of(Cli.javaBin(), "-cp", cp, ReadOnlyProbe.class.getName(), db.toString()), null);
    assertEquals(0, probe.code(), probe.err());
    assertTrue(probe.out().contains("version v1.4.4"), probe.out());
    assertTrue(probe.out().contains("request_latency 27 "), probe.out());
    assertTrue(probe.out().contains("level_summary 3"), probe.out());
    assertTrue(probe.out().contains("tt_docs request_latency.ttft_ms [ms] one row per request row"), probe.out());
    assertTrue(probe.out().contains("storage_version v1.0.0+"), probe.out());
    // and tokentime itself can read it while nothing else holds it
    Cli.Result summary = Cli.run("summary", "--db", db.toString(), "--format", "csv");
    assertEquals(0, summary.code(), summary.err());
  }
}
