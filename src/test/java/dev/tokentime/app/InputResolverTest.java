package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the user names becomes files: folders, globs, and names that only look like globs. */
class InputResolverTest {
  @TempDir
  Path tmp;

  @Test
  void databasesTheirLogsAndLocksAreNoInputs() {
    for (String n : new String[] {"run.duckdb", "run.duckdb.wal", "run.duckdb.lock", "run.db.wal", "run.db.lock",
        "expected/a.json", ".hidden/a.log", "logs/.a.log"}) {
      assertTrue(InputResolver.excluded(Path.of(n)), n);
    }
    for (String n : new String[] {"server.log", "run.db", "c16.jsonl", "locks.log", "expected"}) {
      assertFalse(InputResolver.excluded(Path.of(n)), n);
    }
  }

  /** "x[1/c1.jsonl" made the glob parser fail (an internal error); "r [a]/c1.jsonl" matched nothing. */
  @Test
  void anExistingNameWithGlobCharactersIsItself() throws Exception {
    for (String dir : new String[] {"x[1", "r [a]", "b{c"}) {
      Path f = Files.createDirectories(tmp.resolve(dir)).resolve("c1.jsonl");
      Files.writeString(f, "{}\n");
      assertEquals(List.of(new InputResolver.Input(f, true)), InputResolver.resolve(List.of(f.toString())), dir);
      assertEquals(List.of(new InputResolver.Input(f, false)), InputResolver.resolve(List.of(f.getParent().toString())), dir);
    }
    // a pattern that is no valid glob and names nothing is the user's mistake, said as such
    BadInputException e = assertThrows(BadInputException.class,
        () -> InputResolver.resolve(List.of(tmp.resolve("x[1").toString() + "/nope[2/*.jsonl")));
    assertTrue(e.getMessage().startsWith("no file named "), e.getMessage());
    // and a glob still globs, over names with such characters too
    assertEquals(List.of(new InputResolver.Input(tmp.resolve("x[1/c1.jsonl"), false)),
        InputResolver.resolve(List.of(tmp + "/x*/c1.jsonl")));
  }

  /**
   * A link to a file in a folder is that file (Kubernetes' /var/log/containers/*.log are links to
   * the pods' logs): the folder walk of stop 47 had dropped them. A link to a folder is not walked
   * into; a dangling link is no input.
   */
  @Test
  void aLinkToAFileInAFolderIsThatFile() throws Exception {
    Path real = Files.createDirectories(tmp.resolve("pods/vllm-0"));
    Path log = Files.writeString(real.resolve("0.log"), "x\n");
    Path containers = Files.createDirectories(tmp.resolve("containers"));
    Path link = Files.createSymbolicLink(containers.resolve("vllm-0_vllm.log"), log);
    Files.createSymbolicLink(containers.resolve("gone.log"), tmp.resolve("nowhere.log"));
    Files.createSymbolicLink(containers.resolve("dir"), real);
    assertEquals(List.of(new InputResolver.Input(link, false)), InputResolver.resolve(List.of(containers.toString())));
    assertEquals(List.of(new InputResolver.Input(link, false)), InputResolver.resolve(List.of(containers + "/*.log")));
  }
}
