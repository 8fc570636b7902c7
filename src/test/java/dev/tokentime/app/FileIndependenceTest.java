package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.formats.canonical.TokentimeJsonlFormat;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.TestDb;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One file that fails mid-read never spoils the others of the same command: it is rolled back
 * alone and reported as refused, the good files commit and are derived (their ITL rows are there,
 * their runs listed, their gap statistics computed), all exactly as when they are ingested alone.
 * Before, the failure ended the command (exit 3) with the good files committed but underived, and
 * a rollback while another file of the same run was being written made that file's commit fail
 * with a NullPointerException in RunRegistry.storeLocked.
 */
class FileIndependenceTest {
  @TempDir
  Path tmp;

  /** tokentime-jsonl, except that reading a file named bad* fails after its first 2,000 bytes. */
  static final class FailingJsonl implements InputFormat {
    private final TokentimeJsonlFormat real = new TokentimeJsonlFormat();

    public String id() {
      return real.id();
    }

    public String description() {
      return real.description();
    }

    public String fills() {
      return real.fills();
    }

    public int sniff(Sample s) {
      return real.sniff(s);
    }

    @Override
    public String idNamespace() {
      return real.idNamespace();
    }

    public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
      if (!Path.of(ctx.sourceName()).getFileName().toString().startsWith("bad")) {
        return real.parse(in, ctx, sink);
      }
      return real.parse(new FilterInputStream(in) {
        long read;

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          if (read > 2_000) {
            throw new IOException("device error (simulated)");
          }
          int n = super.read(b, off, Math.min(len, 500));
          read += Math.max(0, n);
          return n;
        }
      }, ctx, sink);
    }
  }

  private static final String COUNTS = "SELECT (SELECT count(*) FROM sources), (SELECT count(*) FROM requests), "
      + "(SELECT count(*) FROM tokens), (SELECT count(*) FROM tokens WHERE gap_ns IS NOT NULL), "
      + "(SELECT count(*) FROM _request_tokens), (SELECT string_agg(run, ',' ORDER BY run) FROM runs), "
      + "(SELECT string_agg(run || ':' || n, ',' ORDER BY run) FROM _gap_stats), "
      + "(SELECT count(*) FROM rejects), (SELECT count(*) FROM _pending_runs)";

  @Test
  void aFileThatFailsIsRefusedAloneAndTheOthersCommitDerived() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("in"));
    Path c1 = Files.copy(Path.of("sample-logs/canonical/c1.jsonl"), dir.resolve("c1.jsonl"));
    Path c2 = Files.copy(Path.of("sample-logs/canonical/c2.jsonl"), dir.resolve("c2.jsonl"));
    // the same run as c2, other request ids: the failing file and a good one share a run
    Files.writeString(dir.resolve("bad.jsonl"),
        Files.readString(c2).replace("\"request_id\":\"c2-", "\"request_id\":\"b2-"));
    List<List<Object>> expected;
    try (TestDb t = new TestDb(tmp.resolve("clean"))) {
      t.ingest(c1, c2);
      expected = t.rows(COUNTS);
    }
    assertTrue(((Number) expected.get(0).get(3)).longValue() > 0, "the good files have ITL gaps");
    FormatRegistry formats = new FormatRegistry(List.of(new FailingJsonl()));
    for (int round = 0; round < 3; round++) {
      try (TestDb t = new TestDb(tmp.resolve("mixed" + round))) {
        IngestResult r = new IngestService(formats).ingest(t.db,
            IngestOptions.of(List.of(dir.toString())).withJobs(3), new IngestService.Listener() {});
        assertEquals(1, r.refusedFiles(), r.files().toString());
        assertEquals(2, r.ingestedFiles(), r.files().toString());
        IngestResult.FileResult bad = r.files().stream().filter(IngestResult.FileResult::refused)
            .findFirst().orElseThrow();
        assertTrue(bad.path().endsWith("bad.jsonl") && bad.outcome().contains("device error (simulated)"),
            bad.toString());
        assertEquals(expected, t.rows(COUNTS), "round " + round);
      }
    }
  }
}
