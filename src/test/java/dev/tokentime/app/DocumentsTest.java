package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run folder's README quoting the server's lines is documentation, not a second log of the run,
 * and a parsing script beside it is no log either: found in the folder they are left out (the
 * README's quoted request was a request of the run, its quoted traceback a crash, the script's
 * commented example a stats row); a tool's report kept as Markdown beside them is still read;
 * named on the command line, the README is read as a log.
 */
class DocumentsTest {
  @TempDir
  Path tmp;

  static final String README = """
      # Run 1 notes

      The server printed:

      ```
      INFO 05-19 12:24:51 [logger.py:43] Received request cmpl-notes-1: prompt: 'hi', params: SamplingParams(n=1, max_tokens=10), lora_request: None.
      INFO 05-19 12:24:51 [async_llm.py:346] Added request cmpl-notes-1.
      Traceback (most recent call last):
      RuntimeError: CUDA error: out of memory
      ```
      """;

  @Test
  void aReadmeInARunFolderIsLeftOutAndAReportInMarkdownIsRead() throws Exception {
    Path run = tmp.resolve("in/run1");
    Files.createDirectories(run);
    Files.copy(Path.of("sample-logs/vllm/server.log"), run.resolve("server.log"));
    Files.writeString(run.resolve("README.md"), README);
    Files.writeString(run.resolve("NOTES.md"), "# notes\n\nNothing quoted.\n");
    // a parsing script kept beside the log, its example line in a comment
    Files.writeString(run.resolve("parse.py"), "import re\n# INFO 05-19 12:24:52 [loggers.py:259] Engine 000: Avg prompt"
        + " throughput: 1.0 tokens/s, Avg generation throughput: 2.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs,"
        + " GPU KV cache usage: 0.1%, Prefix cache hit rate: 0.0%\nLINE = re.compile(r\"Received request (\\S+)\")\n");
    // vllm bench serve's printed results in a Markdown report (real-logs/console, vllm-ascend PR 12616)
    Files.copy(Path.of("src/test/resources/real-logs/console/vllm-bench-018-ascend-md-indented-report-pr12616.md"),
        run.resolve("results.md"));
    IngestOptions folder = IngestOptions.of(List.of(run.toString()));
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(folder);
      assertEquals(List.of("results.md", "server.log"), r.files().stream()
          .map(f -> Path.of(f.path()).getFileName().toString()).sorted().toList());
      assertEquals(List.of("NOTES.md", "README.md", "parse.py"), r.skipped().stream()
          .map(k -> Path.of(k.path()).getFileName().toString()).sorted().toList());
      for (IngestResult.Skipped k : r.skipped()) {
        // a document no format claims at all is not recognised, as any such file
        assertTrue(k.reason().startsWith(k.path().endsWith("NOTES.md") ? IngestResult.Skipped.UNRECOGNISED
            : IngestResult.Skipped.LEFT_OUT + "a document or a script"), k.path() + ": " + k.reason());
      }
      assertEquals(4L, t.count("SELECT count(*) FROM engine_stats"));
      assertEquals(6L, t.count("SELECT count(*) FROM requests"));
      assertEquals(0L, t.count("SELECT count(*) FROM engine_events WHERE kind = 'crash'"));
      assertEquals(List.of(List.of("vllm-bench-console", 19L)),
          t.rows("SELECT format, records FROM sources WHERE path LIKE '%results.md'"));
    }
    // --explain of the folder says the same
    List<ExplainService.Result> explained = new ExplainService(FormatRegistry.standard()).explain(folder);
    ExplainService.Result readme = explained.stream().filter(e -> e.path().endsWith("README.md")).findFirst().orElseThrow();
    assertEquals(null, readme.stats());
    assertTrue(readme.note().startsWith(IngestResult.Skipped.LEFT_OUT + "a document or a script"), readme.note());
    // named, it is read as the log it quotes
    try (TestDb t = new TestDb(tmp.resolve("db2"))) {
      t.ingest(run.resolve("README.md"));
      assertEquals(List.of(List.of("cmpl-notes-1")), t.rows("SELECT request_id FROM requests"));
    }
  }

  static final String ITER = "[10/02/2025-11:01:10] [TRT-LLM] [I] iter = 0, global_rank = 0, rank = 0,"
      + " currank_total_requests = 2/2, host_step_time = 41.8ms, prev_device_step_time = N/A, timestamp ="
      + " 2025-10-02 11:01:10, num_scheduled_requests: 2, states = {'num_ctx_requests': 2, 'num_ctx_tokens':"
      + " 1024, 'num_generation_tokens': 0}";

  @Test
  void iterationLinesQuotedInNotesAndAScriptAreNoStepsAndFromLeavesDocumentsOut() throws Exception {
    // trtllm-iter-stats reads its lines from anywhere in a file, yet it is no printed report: a
    // README's and a script's quoted iteration line are no engine steps
    Path run = tmp.resolve("in/trt");
    Files.createDirectories(run);
    Files.copy(Path.of("sample-logs/trtllm/pytorch-iter-log/server.log"), run.resolve("server.log"));
    Files.writeString(run.resolve("README.md"), "# notes\n\nOne iteration:\n\n    " + ITER + "\n");
    Files.writeString(run.resolve("parse_iter.py"), "# " + ITER + "\nimport re\n");
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(IngestOptions.of(List.of(run.toString())));
      assertEquals(1, r.files().size());
      assertEquals(List.of("README.md", "parse_iter.py"), r.skipped().stream()
          .map(k -> Path.of(k.path()).getFileName().toString()).sorted().toList());
      long steps = t.count("SELECT count(*) FROM steps");
      try (TestDb alone = new TestDb(tmp.resolve("alone"))) {
        alone.ingest(run.resolve("server.log"));
        assertEquals(alone.count("SELECT count(*) FROM steps"), steps);
      }
    }
    // --from names the format of every file found: a document is still left out
    Path vllm = tmp.resolve("in/v");
    Files.createDirectories(vllm);
    Files.copy(Path.of("sample-logs/vllm/server.log"), vllm.resolve("server.log"));
    Files.writeString(vllm.resolve("README.md"), README);
    try (TestDb t = new TestDb(tmp.resolve("db3"))) {
      IngestResult r = t.ingest(new IngestOptions(List.of(vllm.toString()), "vllm-log", null, false, false, false,
          null, null, null, 0));
      assertEquals(1, r.files().size());
      assertEquals(6L, t.count("SELECT count(*) FROM requests"));
    }
  }

  @Test
  void documentsAreToldByTheirNamesCompressedToo() {
    for (String doc : List.of("README.md", "notes.MD", "PROVENANCE.md.gz", "guide.rst", "runbook.adoc", "parse.py",
        "launch.sh", "notebook.ipynb")) {
      assertTrue(Documents.isDocument(Path.of("/x", doc)), doc);
    }
    for (String log : List.of("server.log", "server.log.gz", "results.json", "report.txt", "md", "server.md.log",
        "run.out")) {
      assertEquals(false, Documents.isDocument(Path.of("/x", log)), log);
    }
  }
}
