package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a run's level comes from (runs.level_kind, level, notes): the file's own records, else
 * ingest --level, else the run's name, the file's name or the directories above; never an inferred
 * level over a stated one.
 */
class RunLevelsTest {
  @TempDir
  Path tmp;

  static final String REQUEST = "{\"request_id\":\"%s\",\"arrival_ns\":0,\"first_token_ns\":10000000,\"finished_ns\":20000000}\n";

  static List<Object> run(TestDb t, String run) throws Exception {
    return t.rows("SELECT level_kind, level, notes FROM runs WHERE run = '" + run + "'").get(0);
  }

  @Test
  void fileAndDirectoryNamesGiveARunNamedAfterItsDirectoryItsLevel() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path a = t.write("in/sweep-a/c16.jsonl", REQUEST.formatted("a"));
      Path b = t.write("in/concurrency=8/repeat-x/requests.jsonl", REQUEST.formatted("b"));
      Path c = t.write("in/mixed/c1.jsonl", REQUEST.formatted("c"));
      Path d = t.write("in/mixed/c4.jsonl", REQUEST.formatted("d"));
      Path e = t.write("in/c2/stated.jsonl", "{\"request_id\":\"e\",\"concurrency\":32,\"arrival_ns\":0}\n");
      t.ingest(IngestOptions.of(List.of(a.toString(), b.toString(), c.toString(), d.toString(), e.toString())).withJobs(1));
      assertEquals(List.of("concurrency", 16.0, "from file name c16.jsonl"), run(t, "sweep-a"));
      assertEquals(List.of("concurrency", 8.0, "from directory name concurrency=8"), run(t, "repeat-x"));
      // two files of one run whose names disagree: no level, and the notes say why
      List<Object> mixed = run(t, "mixed");
      assertEquals(null, mixed.get(0));
      assertTrue(String.valueOf(mixed.get(2)).startsWith("no level: the names of its files state different levels "
          + "(c1.jsonl: concurrency 1, c4.jsonl: concurrency 4"), String.valueOf(mixed.get(2)));
      // the record's own level wins over the directory's name
      assertEquals(List.of("concurrency", 32.0, "from record field"), run(t, "c2"));
      // the sweep views see the levels
      assertEquals(2L, t.count("SELECT count(*) FROM level_summary WHERE level_kind = 'concurrency' AND level IN (8, 16)"));
    }
  }

  @Test
  void explicitLevelWinsOverNamesAndConflictsWithAStatedOne() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path a = t.write("in/c4/requests.jsonl", REQUEST.formatted("a"));
      t.ingest(IngestOptions.of(List.of(a.toString())).withLevel("request_rate", 2.5));
      assertEquals(List.of("request_rate", 2.5, "from --level"), run(t, "c4"));

      Path s = t.write("in/stated/requests.jsonl", "{\"request_id\":\"s\",\"concurrency\":32,\"arrival_ns\":0}\n");
      t.ingest(s);
      Path more = t.write("in/stated/more.jsonl", REQUEST.formatted("m"));
      IngestResult r = t.ingest(IngestOptions.of(List.of(more.toString())).withLevel("concurrency", 16.0));
      assertTrue(r.files().get(0).outcome().contains("run stated is at concurrency 32 (from record field); "
          + "--level says concurrency 16"), r.files().get(0).outcome());
      assertEquals(List.of("concurrency", 32.0, "from record field"), run(t, "stated"));
      assertEquals(0L, t.count("SELECT count(*) FROM requests WHERE request_id = 'm'"));
    }
  }

  @Test
  void levelOptionIsParsedAndChecked() {
    assertEquals(List.of("concurrency", 16.0), List.of(IngestOptions.parseLevel("concurrency=16")));
    assertEquals(List.of("request_rate", 8.0), List.of(IngestOptions.parseLevel("rate=8")));
    assertEquals(List.of("request_rate", 2.5), List.of(IngestOptions.parseLevel("request_rate=2.5")));
    for (String bad : List.of("16", "concurrency=0", "concurrency=2.5", "rate=-1", "rate=x", "speed=3", "rate=Infinity")) {
      assertTrue(org.junit.jupiter.api.Assertions.assertThrows(dev.tokentime.BadInputException.class,
          () -> IngestOptions.parseLevel(bad)).getMessage().startsWith("--level"), bad);
    }
  }
}
