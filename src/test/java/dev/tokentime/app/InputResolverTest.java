package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What a folder holds that is no input: a database kept beside the logs it was made from. */
class InputResolverTest {
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
}
