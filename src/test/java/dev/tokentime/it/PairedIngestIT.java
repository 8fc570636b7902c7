package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AIPerf's profile_export.jsonl and profile_export_raw.jsonl through the packaged jar: ingested in
 * two runs of the tool they stored the run's requests twice (10 request rows, 1,270 ITL gaps where
 * the folder gives 5 and 635), and a parallel ingest --replace of the folder refused one of them
 * ("Conflict on tuple deletion", exit 2). Both now end as one ingest of the folder.
 */
class PairedIngestIT {
  static final String COUNTS = "SELECT (SELECT count(*) FROM requests) AS requests, (SELECT count(*) FROM tokens)"
      + " AS tokens, (SELECT count(*) FROM token_gaps) AS gaps, (SELECT count(*) FROM sources) AS sources";

  @TempDir
  Path tmp;

  static String counts(Path db) throws Exception {
    Cli.Result q = Cli.run("query", "--db", db.toString(), "--format", "csv", COUNTS);
    assertEquals(0, q.code(), q.err());
    return q.out().strip();
  }

  @Test
  void aPairIngestedInTwoRunsAndReplacedInParallelCountsEachRequestOnce() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("probe"));
    Files.copy(Path.of("src/test/resources/real-logs/tools/aiperf-0.12-mlx-probe-c1/profile_export.jsonl"),
        dir.resolve("profile_export.jsonl"));
    Files.copy(Path.of("src/test/resources/constructed/aiperf-raw/profile_export_raw.jsonl"),
        dir.resolve("profile_export_raw.jsonl"));
    String once = "requests,tokens,gaps,sources\n5,651,635,2";

    Path db = tmp.resolve("apart.duckdb");
    Cli.Result first = Cli.run("ingest", "--db", db.toString(), dir.resolve("profile_export.jsonl").toString());
    assertEquals(0, first.code(), first.err());
    Cli.Result second = Cli.run("ingest", "--db", db.toString(), dir.resolve("profile_export_raw.jsonl").toString());
    assertEquals(0, second.code(), second.err());
    assertTrue(second.out().contains("note: read again beside profile_export_raw.jsonl, in place of its earlier"
        + " reading (source 1)"), second.out());
    assertEquals(once, counts(db));
    Cli.Result runs = Cli.run("query", "--db", db.toString(), "--format", "csv", "runs");
    assertEquals(0, runs.code(), runs.err());
    assertEquals("run,level_kind,level,repeat,notes\nprobe,,,,", runs.out().strip());
    Cli.Result summary = Cli.run("summary", "--db", db.toString());
    assertEquals(0, summary.code(), summary.err());
    assertTrue(summary.out().contains("requests    5 ok, 0 failed"), summary.out());
    assertTrue(summary.out().matches("(?s).*\\n  itl_ms +635 .*"), summary.out());

    Path folder = tmp.resolve("folder.duckdb");
    assertEquals(0, Cli.run("ingest", "--db", folder.toString(), dir.toString()).code());
    for (int round = 0; round < 3; round++) {
      Cli.Result again = Cli.run("ingest", "--replace", "--jobs", "4", "--db", folder.toString(), dir.toString());
      assertEquals(0, again.code(), again.out() + again.err());
      assertEquals(once, counts(folder));
    }
  }
}
