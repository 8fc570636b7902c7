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
 * A run folder's README quoting the server's lines is documentation, not a second log of the run:
 * found in the folder it is left out (its quoted request was a request of the run, its quoted
 * traceback a crash); a tool's report kept as Markdown beside it is still read; named on the
 * command line, the README is read as a log.
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
    // vllm bench serve's printed results in a Markdown report (real-logs/console, vllm-ascend PR 12616)
    Files.copy(Path.of("src/test/resources/real-logs/console/vllm-bench-018-ascend-md-indented-report-pr12616.md"),
        run.resolve("results.md"));
    IngestOptions folder = IngestOptions.of(List.of(run.toString()));
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(folder);
      assertEquals(List.of("results.md", "server.log"), r.files().stream()
          .map(f -> Path.of(f.path()).getFileName().toString()).sorted().toList());
      assertEquals(1, r.skipped().size());
      assertTrue(r.skipped().get(0).path().endsWith("README.md"));
      assertTrue(r.skipped().get(0).reason().startsWith(IngestResult.Skipped.LEFT_OUT + "a document (Markdown"),
          r.skipped().get(0).reason());
      assertEquals(6L, t.count("SELECT count(*) FROM requests"));
      assertEquals(0L, t.count("SELECT count(*) FROM engine_events WHERE kind = 'crash'"));
      assertEquals(List.of(List.of("vllm-bench-console", 19L)),
          t.rows("SELECT format, records FROM sources WHERE path LIKE '%results.md'"));
    }
    // --explain of the folder says the same
    List<ExplainService.Result> explained = new ExplainService(FormatRegistry.standard()).explain(folder);
    ExplainService.Result readme = explained.stream().filter(e -> e.path().endsWith("README.md")).findFirst().orElseThrow();
    assertEquals(null, readme.stats());
    assertTrue(readme.note().startsWith(IngestResult.Skipped.LEFT_OUT + "a document"), readme.note());
    // named, it is read as the log it quotes
    try (TestDb t = new TestDb(tmp.resolve("db2"))) {
      t.ingest(run.resolve("README.md"));
      assertEquals(List.of(List.of("cmpl-notes-1")), t.rows("SELECT request_id FROM requests"));
    }
  }
}
