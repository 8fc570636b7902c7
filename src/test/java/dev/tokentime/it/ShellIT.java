package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tokentime shell as users run it: typed at a real terminal (a tmux pane: completion, a
 * multi-line statement, .schema, .doc, an error that leaves the prompt usable, history), and fed
 * a script on standard input.
 */
class ShellIT {
  @TempDir
  static Path tmp;
  static Path db;

  @BeforeAll
  static void ingest() throws Exception {
    db = tmp.resolve("run.duckdb");
    Cli.Result r = Cli.run("ingest", "--db", db.toString(), "sample-logs/canonical");
    assertEquals(0, r.code(), r.err());
  }

  @Test
  void pipedStdinRunsAsAScript() throws Exception {
    Path script = Files.writeString(tmp.resolve("questions.sql"), String.join("\n",
        "-- how many requests per run",
        "SELECT run,",
        "       count(*) AS requests",
        "FROM request_latency",
        "GROUP BY run ORDER BY run;",
        ".schema runs",
        ".doc request_latency",
        "SELECT *",
        "FROM no_such_view;",
        "SELECT 42 AS answer;",
        ""));
    Cli.Result r = Cli.run(script, "shell", db.toString());
    assertEquals(2, r.code(), "a failed statement makes the exit code 2: " + r.err());
    assertTrue(r.out().startsWith("run  requests\n---  --------\nc1         12\nc2         12\nc4         12\n"), r.out());
    assertTrue(r.out().contains("CREATE TABLE runs(run VARCHAR,"), r.out());
    assertTrue(r.out().matches("(?s).*\n  ttft_ms +DOUBLE +ms +Time to first token.*"), r.out());
    assertTrue(r.out().endsWith("answer\n------\n    42\n"), "the statement after the error ran: " + r.out());
    assertFalse(r.out().contains("tt>"), "no prompt in a script");
    assertEquals("tokentime: line 9: Catalog Error: Table with name no_such_view does not exist!\n"
        + "tokentime: 1 statement failed\n", r.err().replaceAll("(?m)^(tokentime: line 9: [^!]*!).*$", "$1"));

    Path clean = Files.writeString(tmp.resolve("clean.sql"), ".format csv\nSELECT count(*) AS n FROM runs\n");
    Cli.Result ok = Cli.run(clean, "shell", "--db", db.toString());
    assertEquals(0, ok.code(), ok.err());
    assertEquals("n\n3\n", ok.out());
  }

  @Test
  void aTerminalSessionCompletesContinuesDocumentsAndSurvivesErrors() throws Exception {
    assumeTrue(tmuxAvailable(), "tmux is not installed: the pseudo-terminal test needs it");
    Tmux tmux = new Tmux("tt-it-" + UUID.randomUUID().toString().substring(0, 8));
    Path history = tmp.resolve("history");
    try {
      tmux.start(tmp, "TOKENTIME_HISTORY=" + history,
          Cli.javaBin() + " -Xmx512m -jar " + Cli.jar().toAbsolutePath() + " shell " + db
              + "; echo EXITED:$?; sleep 120");
      tmux.waitFor("tt>");

      // completion of a view name, then Enter inside the statement continues it
      tmux.type("SELECT run, count(*) AS n FROM request_lat");
      tmux.keys("Tab");
      tmux.waitFor("FROM request_latency");
      tmux.keys("Enter");
      tmux.waitFor("..>");
      tmux.type("GROUP BY run ORDER BY run");
      tmux.keys("Enter");
      tmux.type(";");
      tmux.keys("Enter");
      tmux.waitFor("c4   12");

      tmux.type(".schema runs");
      tmux.keys("Enter");
      tmux.waitFor("CREATE TABLE runs(run VARCHAR");

      tmux.type(".doc ttft_brea");
      tmux.keys("Tab");
      tmux.waitFor(".doc ttft_breakdown");
      tmux.keys("Enter");
      tmux.waitFor("Share of queueing in the TTFT");

      tmux.type("SELECT * FROM nope;");
      tmux.keys("Enter");
      tmux.waitFor("Error: Catalog Error: Table with name nope does not exist!");
      tmux.type("SELECT 40 + 2 AS answer;");
      tmux.keys("Enter");
      tmux.waitFor("    42");

      tmux.type(".quit");
      tmux.keys("Enter");
      tmux.waitFor("EXITED:0");
      String screen = tmux.screen();
      assertTrue(screen.indexOf("nope does not exist") < screen.indexOf("    42"), screen);
      String saved = Files.readString(history, StandardCharsets.UTF_8);
      assertTrue(saved.contains("SELECT run, count(*) AS n FROM request_latency"), saved);
      assertTrue(saved.contains(".doc ttft_breakdown"), saved);
    } finally {
      tmux.stop();
    }
  }

  static boolean tmuxAvailable() {
    try {
      Process p = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  /** A tmux server of this test's own (its own socket name), one session, one pane. */
  static final class Tmux {
    private final String socket;

    Tmux(String socket) {
      this.socket = socket;
    }

    void start(Path dir, String env, String command) throws Exception {
      run("new-session", "-d", "-s", "tt", "-x", "160", "-y", "50", "-c", dir.toString(), "-e", env, command);
    }

    /** Literal text; tmux would read a trailing ';' as a command separator, so it is escaped. */
    void type(String text) throws Exception {
      run("send-keys", "-t", "tt", "-l", text.endsWith(";") ? text.substring(0, text.length() - 1) + "\\;" : text);
    }

    void keys(String key) throws Exception {
      run("send-keys", "-t", "tt", key);
    }

    String screen() throws Exception {
      return run("capture-pane", "-p", "-J", "-t", "tt", "-S", "-1000");
    }

    /** Polls the pane until text shows, for up to a minute (a JVM starting on a busy machine). */
    void waitFor(String text) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      String s = "";
      while (System.nanoTime() < deadline) {
        s = screen();
        if (s.contains(text)) {
          return;
        }
        Thread.sleep(200);
      }
      throw new AssertionError("never showed <" + text + ">; the screen:\n" + s);
    }

    void stop() throws Exception {
      run("kill-server"); // this test's own server only (its own socket)
    }

    private String run(String... args) throws Exception {
      List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket));
      cmd.addAll(List.of(args));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("tmux did not answer: " + cmd);
      }
      return out;
    }
  }
}
