package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long ingest shows a progress line on stderr when stderr is a terminal (run under a
 * pseudo-terminal with util-linux's script), and none when it is not.
 */
class ProgressIT {
  @TempDir
  Path tmp;

  @Test
  void progressLineOnATerminalOnly() throws Exception {
    Path script = Path.of("/usr/bin/script");
    assumeTrue(Files.isExecutable(script), "util-linux script is needed to get a pseudo-terminal");
    Path out = tmp.resolve("gen");
    Cli.Result g = Cli.run("generate", "--out", out.toString(), "--levels", "8", "--tokens", "3000000",
        "--mean-output", "300");
    assertEquals(0, g.code(), g.err());
    String cmd = Cli.javaBin() + " -Xmx512m -jar " + Cli.jar().toAbsolutePath() + " ingest --db "
        + tmp.resolve("t.duckdb") + " " + out;
    Cli.Result tty = Cli.exec(List.of(script.toString(), "-qec", cmd, "/dev/null"), null);
    assertEquals(0, tty.code(), tty.out() + tty.err());
    assertTrue(tty.out().contains("lines/s") && tty.out().contains("ETA"), tty.out());
    assertTrue(tty.out().contains("ingested "), tty.out());

    Cli.Result piped = Cli.run("ingest", "--db", tmp.resolve("p.duckdb").toString(), out.toString());
    assertEquals(0, piped.code(), piped.err());
    assertFalse(piped.err().contains("lines/s"), piped.err());
    assertFalse(piped.out().contains("lines/s"), piped.out());
  }
}
