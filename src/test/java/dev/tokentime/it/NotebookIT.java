package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/notebooks/post-mortem.ipynb runs, every cell, against the samples' database opened
 * read-only from Python (issue 23). Needs python3 with duckdb, nbclient, nbformat, ipykernel and
 * matplotlib (.ci/run installs them); skipped, saying what is missing, where they are absent.
 */
class NotebookIT {
  @TempDir
  Path tmp;

  private static final String RUN = String.join("\n",
      "import sys, nbformat, nbclient",
      "nb = nbformat.read(sys.argv[1], as_version=4)",
      "nbclient.NotebookClient(nb, timeout=300, kernel_name='python3').execute()",
      "print('executed', sum(1 for c in nb.cells if c.cell_type == 'code'), 'code cells')");

  @Test
  void thePostMortemNotebookRunsOnTheSamples() throws Exception {
    Process probe;
    try {
      probe = new ProcessBuilder("python3", "-c", "import duckdb, nbclient, nbformat, ipykernel, matplotlib, pandas")
          .redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      Assumptions.abort("notebook not run: no python3 on the PATH");
      return;
    }
    String why = new String(probe.getInputStream().readAllBytes()).strip();
    probe.waitFor(60, TimeUnit.SECONDS);
    Assumptions.assumeTrue(probe.exitValue() == 0,
        "notebook not run: python3 lacks its packages (.ci/run installs duckdb nbclient nbformat ipykernel matplotlib pandas): "
            + why.lines().reduce((a, b) -> b).orElse(""));

    Path db = tmp.resolve("samples.duckdb");
    Cli.Result ingest = Cli.run("ingest", "--db", db.toString(), "sample-logs");
    assertEquals(0, ingest.code(), ingest.err());
    Path script = Files.writeString(tmp.resolve("run.py"), RUN);
    ProcessBuilder pb = new ProcessBuilder(List.of("python3", script.toString(),
        Path.of("docs/notebooks/post-mortem.ipynb").toAbsolutePath().toString()))
        .redirectErrorStream(true).directory(tmp.toFile());
    pb.environment().put("TOKENTIME_DB", db.toString());
    pb.environment().put("MPLBACKEND", "Agg");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(600, TimeUnit.SECONDS);
    assertEquals(0, p.exitValue(), out);
  }
}
