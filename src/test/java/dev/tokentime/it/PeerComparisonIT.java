package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's `tokentime query --db run.duckdb peer_comparison` over the bundled samples,
 * through the packaged jar (a user's JVM and DuckDB memory limits): the view alone ran out of
 * DuckDB's memory there ("Out of Memory Error: failed to pin block"), in query, export and the
 * shell alike. A statement that names it now has its inputs computed first, as conventions does.
 */
class PeerComparisonIT {
  @TempDir
  Path tmp;

  @Test
  void theReadmesPeerComparisonAnswersOverTheBundledSamples() throws Exception {
    String db = tmp.resolve("run.duckdb").toString();
    Cli.Result in = Cli.run("ingest", "--db", db, "sample-logs");
    assertEquals(0, in.code(), in.err());

    Cli.Result q = Cli.run("query", "--db", db, "peer_comparison", "--format", "csv");
    assertEquals(0, q.code(), q.err());
    List<String> lines = q.out().lines().toList();
    assertEquals("run,metric,stat,convention,tool_metric,tokentime_value,convention_value,reported_value,"
        + "convention_minus_tokentime,reported_minus_convention,why,not_reproducible", lines.get(0));
    // the bundled AIPerf run: its TTFT mean by AIPerf's rule, recomputed and as AIPerf reported it
    assertTrue(lines.contains("aiperf,ttft_ms,mean,aiperf,time_to_first_token avg,123.75,123.75,123.75,0,0,"
        + "\"same first-token rule (first non-empty chunk, reasoning counts)\","), q.out());
    long rows = lines.size() - 1;
    assertTrue(rows > 2000, "every run under every convention: " + rows);

    Cli.Result count = Cli.run("query", "--db", db, "SELECT count(*) AS n FROM peer_comparison", "--format", "csv");
    assertEquals(0, count.code(), count.err());
    assertEquals("n\n" + rows + "\n", count.out());

    Path script = Files.writeString(tmp.resolve("script.sql"), "SELECT count(*) AS n FROM peer_comparison;\n");
    Cli.Result shell = Cli.run(script, "shell", db);
    assertEquals(0, shell.code(), shell.err());
    assertTrue(shell.out().contains(Long.toString(rows)), shell.out());

    Path parquet = tmp.resolve("pc.parquet");
    Cli.Result export = Cli.run("export", "--db", db, "peer_comparison", "-o", parquet.toString());
    assertEquals(0, export.code(), export.err());
    assertEquals(rows + " rows written to " + parquet + " (parquet)\n", export.out());
  }
}
