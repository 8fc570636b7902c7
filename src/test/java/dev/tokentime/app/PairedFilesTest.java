package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.Generated;
import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files whose rows meet by request id — AIPerf's profile_export.jsonl with profile_export_raw.jsonl
 * (or its per-record CSV), a canonical requests CSV with its tokens CSV — count each request once
 * however they are ingested. Before: a parallel ingest --replace of such a pair refused one file with
 * DuckDB's "Conflict on tuple deletion" (both transactions deleted the derived rows of the same
 * requests), and the two files of an AIPerf pair ingested in two runs of the tool stored the run's
 * requests twice (the second file was read as if alone).
 */
class PairedFilesTest {
  static final Path JSONL = Path.of("src/test/resources/real-logs/tools/aiperf-0.12-mlx-probe-c1/profile_export.jsonl");
  static final Path RAW = Path.of("src/test/resources/constructed/aiperf-raw/profile_export_raw.jsonl");
  static final Path CSV = Path.of("src/test/resources/constructed/aiperf-records-csv/profile_export_records.csv");

  @TempDir
  Path tmp;

  /** What an ingest left: rows per table, stubs, failed invariants, and each request's figures. */
  static List<Object> state(TestDb t) throws Exception {
    List<Object> out = new ArrayList<>();
    out.add(t.count("SELECT count(*) FROM requests"));
    out.add(t.count("SELECT count(*) FROM tokens"));
    out.add(t.count("SELECT count(*) FROM _request_tokens"));
    out.add(t.count("SELECT count(*) FROM token_gaps"));
    out.add(t.count("SELECT count(*) FROM requests WHERE list_contains(map_keys(extras), 'tokentime.stub')"));
    out.add(t.count("SELECT count(*) FROM tokens WHERE request_key NOT IN (SELECT request_key FROM requests)"));
    out.add(t.count("SELECT coalesce(sum(violations), 0) FROM checks"));
    out.add(t.rows("SELECT run, request_id, ttft_ms, e2e_ms, output_tokens FROM request_latency ORDER BY run, request_id"));
    return out;
  }

  static IngestOptions replace(Path dir, int jobs) {
    return new IngestOptions(List.of(dir.toString()), null, null, true, false, false, null, null, null).withJobs(jobs);
  }

  private Path aiperfPair(String name) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("in/" + name));
    Files.copy(JSONL, dir.resolve("profile_export.jsonl"));
    Files.copy(RAW, dir.resolve("profile_export_raw.jsonl"));
    return dir;
  }

  @Test
  void aParallelReplaceOfPairsEndsAsReadOneFileAtATime() throws Exception {
    Path root = tmp.resolve("in");
    aiperfPair("probe");
    // two canonical pairs (a requests CSV and a tokens CSV per run) in one folder
    Generated.into(root.resolve("csv"), "--form", "csv", "--levels", "4,8", "--requests", "12", "--mean-output", "30");
    List<Object> expected;
    try (TestDb t = new TestDb(tmp.resolve("one"))) {
      t.ingest(IngestOptions.of(List.of(root.toString())).withJobs(1));
      t.ingest(replace(root, 1));
      expected = state(t);
    }
    assertEquals(29L, expected.get(0), "5 AIPerf requests, 12 per canonical run");
    try (TestDb t = new TestDb(tmp.resolve("parallel"))) {
      t.ingest(IngestOptions.of(List.of(root.toString())).withJobs(4));
      // the conflict came with the two transactions' timing: several rounds, each must complete whole
      for (int round = 0; round < 6; round++) {
        IngestResult r = t.ingest(replace(root, 4));
        assertEquals(List.of(), r.files().stream().filter(IngestResult.FileResult::refused)
            .map(f -> f.path() + ": " + f.outcome()).toList(), "round " + round);
        assertEquals(6, r.ingestedFiles(), "round " + round);
        assertEquals(expected, state(t), "round " + round);
      }
      assertEquals(6L, t.count("SELECT count(*) FROM sources"));
    }
  }

  @Test
  void aParallelReplaceOfOneRunsFilesInTwoFoldersCompletesWhole() throws Exception {
    // the records name their run (c4, c8): a requests CSV and its tokens CSV in different folders
    // are one run's pair, read at once even under --replace (no folder holds both)
    Path gen = Generated.into(tmp.resolve("gen"), "--form", "csv", "--levels", "4,8", "--requests", "12",
        "--mean-output", "30");
    Path root = tmp.resolve("split");
    for (String f : List.of("c4-requests.csv", "c8-requests.csv", "c4-tokens.csv", "c8-tokens.csv")) {
      Path to = root.resolve(f.contains("tokens") ? "tokens" : "requests").resolve(f);
      Files.createDirectories(to.getParent());
      Files.copy(gen.resolve(f), to);
    }
    List<Object> expected;
    try (TestDb t = new TestDb(tmp.resolve("one"))) {
      t.ingest(IngestOptions.of(List.of(gen.toString())).withJobs(1));
      expected = state(t);
    }
    assertEquals(24L, expected.get(0));
    try (TestDb t = new TestDb(tmp.resolve("parallel"))) {
      t.ingest(IngestOptions.of(List.of(root.toString())).withJobs(4));
      for (int round = 0; round < 6; round++) {
        IngestResult r = t.ingest(replace(root, 4));
        assertEquals(List.of(), r.files().stream().filter(IngestResult.FileResult::refused)
            .map(f -> f.path() + ": " + f.outcome()).toList(), "round " + round);
        assertEquals(4, r.ingestedFiles(), "round " + round);
        assertEquals(expected, state(t), "round " + round);
      }
    }
  }

  @Test
  void theSecondFileOfAPairIngestedLaterJoinsTheFirstsRequests() throws Exception {
    Path dir = aiperfPair("probe");
    List<Object> folder;
    try (TestDb t = new TestDb(tmp.resolve("folder"))) {
      t.ingest(IngestOptions.of(List.of(dir.toString())));
      folder = state(t);
    }
    assertEquals(List.of(5L, 651L, 5L, 635L, 0L, 0L, 0L), folder.subList(0, 7));
    for (List<String> order : List.of(List.of("profile_export.jsonl", "profile_export_raw.jsonl"),
        List.of("profile_export_raw.jsonl", "profile_export.jsonl"))) {
      try (TestDb t = new TestDb(tmp.resolve("apart-" + order.get(0)))) {
        t.ingest(IngestOptions.of(List.of(dir.resolve(order.get(0)).toString())));
        IngestResult second = t.ingest(IngestOptions.of(List.of(dir.resolve(order.get(1)).toString())));
        assertEquals(2, second.ingestedFiles(), order.toString());
        IngestResult.FileResult again = second.files().stream()
            .filter(f -> f.path().endsWith(order.get(0))).findFirst().orElseThrow();
        assertTrue(again.notes().get(0).startsWith("read again beside " + order.get(1)), again.notes().toString());
        assertEquals(folder, state(t), order.toString());
        assertEquals(2L, t.count("SELECT count(*) FROM sources"));
        assertEquals(1L, t.count("SELECT count(*) FROM runs"));
      }
    }
    // the folder after one file alone, without --replace: the stored one is read again with it
    for (String alone : List.of("profile_export.jsonl", "profile_export_raw.jsonl")) {
      try (TestDb t = new TestDb(tmp.resolve("folder-after-" + alone))) {
        t.ingest(IngestOptions.of(List.of(dir.resolve(alone).toString())));
        IngestResult r = t.ingest(IngestOptions.of(List.of(dir.toString())));
        assertEquals(2, r.ingestedFiles(), alone);
        assertEquals(List.of(), r.skipped(), alone);
        assertEquals(folder, state(t), alone);
      }
    }
    // the folder again under --replace after one file alone: the stored one is read first, anew
    try (TestDb t = new TestDb(tmp.resolve("replace-folder"))) {
      t.ingest(IngestOptions.of(List.of(dir.resolve("profile_export.jsonl").toString())));
      IngestResult r = t.ingest(replace(dir, 4));
      assertEquals(2, r.ingestedFiles());
      assertEquals(folder, state(t));
    }
    // --replace of one file of a stored pair reads it as the pair's, not alone
    try (TestDb t = new TestDb(tmp.resolve("replace-one"))) {
      t.ingest(IngestOptions.of(List.of(dir.toString())));
      IngestResult r = t.ingest(replace(dir.resolve("profile_export_raw.jsonl"), 0));
      assertEquals(2, r.ingestedFiles());
      assertEquals(folder, state(t));
    }
  }

  @Test
  void thePerRecordCsvAndTheRawFileIngestedApartCountOnce() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("in/csv-run"));
    Files.copy(CSV, dir.resolve("profile_export_records.csv"));
    Files.copy(RAW, dir.resolve("profile_export_raw.jsonl"));
    List<Object> folder;
    try (TestDb t = new TestDb(tmp.resolve("folder"))) {
      t.ingest(IngestOptions.of(List.of(dir.toString())));
      folder = state(t);
    }
    assertEquals(List.of(6L, 651L, 5L), folder.subList(0, 3));
    try (TestDb t = new TestDb(tmp.resolve("apart"))) {
      t.ingest(IngestOptions.of(List.of(dir.resolve("profile_export_records.csv").toString())));
      t.ingest(IngestOptions.of(List.of(dir.resolve("profile_export_raw.jsonl").toString())));
      assertEquals(folder, state(t));
    }
  }

  @Test
  void thePerRecordCsvBesideAStoredJsonlIsAlreadyIngestedAndTheJsonlTakesItsPlace() throws Exception {
    Path dir = aiperfPair("three");
    Files.delete(dir.resolve("profile_export_raw.jsonl"));
    Files.copy(CSV, dir.resolve("profile_export_records.csv"));
    List<Object> jsonlAlone;
    try (TestDb t = new TestDb(tmp.resolve("folder"))) {
      t.ingest(IngestOptions.of(List.of(dir.toString())));
      jsonlAlone = state(t);
    }
    assertEquals(5L, jsonlAlone.get(0));
    try (TestDb t = new TestDb(tmp.resolve("jsonl-first"))) {
      t.ingest(IngestOptions.of(List.of(dir.resolve("profile_export.jsonl").toString())));
      IngestResult r = t.ingest(IngestOptions.of(List.of(dir.resolve("profile_export_records.csv").toString())));
      assertEquals(0, r.ingestedFiles());
      assertTrue(r.files().get(0).outcome().startsWith("already ingested: AIPerf's per-record CSV"), r.files().get(0).outcome());
      assertEquals(jsonlAlone, state(t));
    }
    try (TestDb t = new TestDb(tmp.resolve("csv-first"))) {
      t.ingest(IngestOptions.of(List.of(dir.resolve("profile_export_records.csv").toString())));
      assertEquals(6L, t.count("SELECT count(*) FROM requests"));
      t.ingest(IngestOptions.of(List.of(dir.resolve("profile_export.jsonl").toString())));
      assertEquals(jsonlAlone, state(t));
      assertEquals(List.of(List.of("aiperf-jsonl")), t.rows("SELECT format FROM sources"));
    }
  }

  @Test
  void aPartnerNoLongerThereRefusesTheFileNamingIt() throws Exception {
    Path dir = aiperfPair("gone");
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      t.ingest(IngestOptions.of(List.of(dir.resolve("profile_export.jsonl").toString())));
      Files.move(dir.resolve("profile_export.jsonl"), tmp.resolve("moved.jsonl"));
      IngestResult r = t.ingest(IngestOptions.of(List.of(dir.resolve("profile_export_raw.jsonl").toString())));
      assertEquals(1, r.refusedFiles());
      String why = r.files().get(0).outcome();
      assertTrue(why.contains("pairs with " + dir.toAbsolutePath().normalize().resolve("profile_export.jsonl")), why);
      assertTrue(why.contains("tokentime ingest --replace "), why);
      assertEquals(5L, t.count("SELECT count(*) FROM requests"));
      assertEquals(1L, t.count("SELECT count(*) FROM sources"));
    }
  }
}
