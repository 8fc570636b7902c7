package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.store.StoredSources;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs named by folders of one name under different parents stay apart (FolderRuns): two days'
 * {@code vllm/} folders or two sweeps' {@code c16/} folders were one run and mixed their requests.
 */
class FolderRunsTest {
  @TempDir
  Path tmp;

  static String request(String id) {
    return "{\"request_id\":\"" + id + "\",\"arrival_ns\":0,\"first_token_ns\":10000000,\"finished_ns\":20000000}\n";
  }

  static List<List<Object>> runs(TestDb t) throws Exception {
    return t.rows("SELECT run, count(*) FROM requests GROUP BY run ORDER BY run");
  }

  @Test
  void foldersOfOneNameInOneIngestAreRunsNamedByTheFolderAbove() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.write("in/sweep1/c16/requests.jsonl", request("a") + request("b"));
      t.write("in/sweep2/c16/requests.jsonl", request("a"));
      t.write("in/other/c8/requests.jsonl", request("c"));
      t.ingest(IngestOptions.of(List.of(tmp.resolve("in").toString())));
      assertEquals(List.of(List.of("c8", 1L), List.of("sweep1/c16", 2L), List.of("sweep2/c16", 1L)), runs(t));
      // the level is still the folder's
      assertEquals(2L, t.count("SELECT count(*) FROM runs WHERE level_kind = 'concurrency' AND level = 16"));
      // a later file of one of the folders joins its run
      Path more = t.write("in/sweep2/c16/more.jsonl", request("z"));
      t.ingest(more);
      assertEquals(List.of(List.of("c8", 1L), List.of("sweep1/c16", 2L), List.of("sweep2/c16", 2L)), runs(t));
    }
  }

  @Test
  void aNewFolderOfAStoredRunsNameTakesTheFolderAboveAndTheStoredRunKeepsItsName() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.ingest(t.write("logs/monday/vllm/server.jsonl", request("a")));
      t.ingest(t.write("logs/tuesday/vllm/server.jsonl", request("a") + request("b")));
      t.ingest(t.write("logs/monday/vllm/later.jsonl", request("m")));
      assertEquals(List.of(List.of("tuesday/vllm", 2L), List.of("vllm", 2L)), runs(t));
    }
  }

  @Test
  void theFolderAboveIsNotEnoughWhenItHasOneNameToo() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.write("in/a/rep1/c4/r.jsonl", request("a"));
      t.write("in/b/rep1/c4/r.jsonl", request("b"));
      t.write("in/b/rep2/c4/r.jsonl", request("c"));
      t.ingest(IngestOptions.of(List.of(tmp.resolve("in").toString())));
      assertEquals(List.of(List.of("a/rep1/c4", 1L), List.of("b/rep1/c4", 1L), List.of("b/rep2/c4", 1L)), runs(t));
    }
  }

  @Test
  void runOptionNamesTheRunOfEveryFolder() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      t.write("in/x/vllm/r.jsonl", request("a"));
      t.write("in/y/vllm/r.jsonl", request("b"));
      t.ingest(new IngestOptions(List.of(tmp.resolve("in").toString()), null, "both", false, false, false, null, null, null, 0));
      assertEquals(List.of(List.of("both", 2L)), runs(t));
    }
  }

  @Test
  void twoFilesOfOneRunWithOneIdKeepTheFirstFilesRowEveryTime() throws Exception {
    // the first file reaches the shared id after 20,000 others: read at once with the second, the
    // second file's row won the id and the first file's was the rejected duplicate
    StringBuilder first = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      first.append(request("filler-" + i));
    }
    first.append("{\"request_id\":\"shared\",\"arrival_ns\":0,\"first_token_ns\":11000000,\"finished_ns\":20000000}\n");
    try (TestDb t = new TestDb(tmp)) {
      t.write("in/c2/a.jsonl", first.toString());
      t.write("in/c2/b.jsonl", "{\"request_id\":\"shared\",\"arrival_ns\":0,\"first_token_ns\":99000000,\"finished_ns\":120000000}\n");
      // several files at once, as on a machine of several cores
      IngestResult r = t.ingest(IngestOptions.of(List.of(tmp.resolve("in").toString())).withJobs(4));
      assertEquals(2, r.ingestedFiles());
      assertEquals(List.of(List.of(11_000_000L)), t.rows("SELECT first_token_ns FROM requests WHERE request_id = 'shared'"));
      assertEquals(List.of(List.of("b.jsonl", 1L)), t.rows(
          "SELECT regexp_extract(s.path, '[^/]+$'), r.line_no FROM rejects AS r JOIN sources AS s USING (source_id)"));
    }
  }

  @Test
  void twoSweepsResultsFoldersAreFourRuns() throws Exception {
    // vllm bench serve's results, two to a folder (each file a run: results/vllm-c2), in two
    // sweeps: by the folder's name alone the second sweep's files joined the first's runs, and
    // the second result of one run was refused
    Path result = Path.of("sample-logs/peers/vllm-bench/vllm-bench-result.json");
    try (TestDb t = new TestDb(tmp)) {
      String json = java.nio.file.Files.readString(result);
      int copy = 0;
      for (String sweep : List.of("sweepA", "sweepB")) {
        for (String c : List.of("c2", "c4")) {
          // trailing blank lines tell the copies apart (a file met twice is read once)
          t.write("in/" + sweep + "/results/vllm-" + c + ".json", json + "\n".repeat(++copy));
        }
      }
      IngestResult r = t.ingest(IngestOptions.of(List.of(tmp.resolve("in").toString())));
      assertEquals(4, r.ingestedFiles());
      assertEquals(List.of(List.of("sweepA/results/vllm-c2", 6L), List.of("sweepA/results/vllm-c4", 6L),
          List.of("sweepB/results/vllm-c2", 6L), List.of("sweepB/results/vllm-c4", 6L)), runs(t));
    }
  }

  static List<String> names(List<String> files, List<String> names, List<StoredSources.RunPath> stored) {
    return FolderRuns.name(files.stream().map(f -> f == null ? null : Path.of(f)).toList(), names, stored);
  }

  @Test
  void aReRunAfterAnInterruptedIngestNamesTheRestAsTheWholeIngestDid() {
    List<String> files = List.of("/s1/x/c16/a.log", "/s2/x/c16/a.log");
    List<String> whole = names(files, List.of("c16", "c16"), List.of());
    assertEquals(List.of("s1/x/c16", "s2/x/c16"), whole);
    // the first folder committed, the ingest killed, run again
    assertEquals(whole, names(files, List.of("c16", "c16"), List.of(new StoredSources.RunPath("s1/x/c16", "/s1/x/c16/a.log"))));
  }

  @Test
  void aFolderUnderTheRootTakesItsWholePathBesideAStoredOneOfItsName() {
    assertEquals(List.of("/results"), names(List.of("/results/x.log"), List.of("results"),
        List.of(new StoredSources.RunPath("results", "/mnt/results/y.log"))));
  }

  @Test
  void aPrefixedNameNeverJoinsAnotherRun() {
    // a run --run named dayB/vllm, of a file elsewhere
    assertEquals(List.of("x/dayA/vllm", "x/dayB/vllm"), names(List.of("/x/dayA/vllm/s.log", "/x/dayB/vllm/s.log"),
        List.of("vllm", "vllm"), List.of(new StoredSources.RunPath("dayB/vllm", "/elsewhere/s.log"))));
    // a tool's result file run (results/c16) and two folders named c16, one inside results/
    assertEquals(List.of("results/c16", "exp/results/c16", "o/c16"),
        names(List.of("/exp/results/c16.json", "/exp/results/c16/server.log", "/o/c16/server.log"),
            List.of("results/c16", "c16", "c16"), List.of()));
  }

  @Test
  void aRunNamedByRunOptionIsNoFoldersRun() {
    // --run prod/vllm for /data/vllm/a.log: a later plain ingest of its folder names it by the folder
    assertEquals(List.of("vllm"), names(List.of("/data/vllm/b.log"), List.of("vllm"),
        List.of(new StoredSources.RunPath("prod/vllm", "/data/vllm/a.log"))));
    // a path stored on another system is no folder here
    assertEquals(List.of("vllm"), names(List.of("/data/vllm/b.log"), List.of("vllm"),
        List.of(new StoredSources.RunPath("vllm", "C:\\logs\\vllm\\a.log"), new StoredSources.RunPath("stdin", "-"))));
  }

  @Test
  void aFolderReachedThroughALinkIsTheFolder() throws Exception {
    Path real = java.nio.file.Files.createDirectories(tmp.resolve("sweep2/c16"));
    Path link = java.nio.file.Files.createSymbolicLink(tmp.resolve("latest"), tmp.resolve("sweep2"));
    assertEquals(List.of("c16"), names(List.of(link.resolve("c16/b.jsonl").toString()), List.of("c16"),
        List.of(new StoredSources.RunPath("c16", real.resolve("a.jsonl").toString()))));
  }
}
