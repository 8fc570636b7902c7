package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every line of every bundled sample is accounted once: lines = records + other + rejected for
 * every file an ingest reads, and `ingest --explain` counts each spec-driven file exactly as the
 * ingest does (one code path: the sink's calls).
 */
class ExplainEqualsIngestTest {
  @TempDir
  Path tmp;

  @Test
  void explainAndIngestCountEverySampleLineTheSameWay() throws Exception {
    IngestOptions o = IngestOptions.of(List.of("sample-logs"));
    List<ExplainService.Result> explained = new ExplainService(FormatRegistry.standard()).explain(o);
    try (TestDb t = new TestDb(tmp)) {
      IngestResult r = t.ingest(o);
      Map<String, IngestResult.FileResult> byPath = r.files().stream()
          .collect(Collectors.toMap(f -> Path.of(f.path()).normalize().toString(), f -> f));
      List<String> diffs = new ArrayList<>();
      for (IngestResult.FileResult f : r.files()) {
        if (f.lines() > 0 && f.records() + f.otherLines() + f.rejected() != f.lines()) {
          diffs.add(f.path() + " (" + f.format() + "): " + f.lines() + " lines != " + f.records() + " records + "
              + f.otherLines() + " other + " + f.rejected() + " rejected");
        }
      }
      assertTrue(explained.size() >= 18, "the vLLM logs, wrapped ones included: " + explained.size());
      for (ExplainService.Result e : explained) {
        if (e.stats() == null) {
          // a file no format claims: --explain says why, and the ingest skips it
          if (r.skipped().stream().noneMatch(s -> Path.of(s.path()).normalize().equals(Path.of(e.path()).normalize()))) {
            diffs.add(e.path() + ": not read by --explain (" + e.note() + "), yet not skipped by the ingest");
          }
          continue;
        }
        IngestResult.FileResult f = byPath.get(Path.of(e.path()).normalize().toString());
        if (f == null) {
          diffs.add(e.path() + ": explained, not ingested");
          continue;
        }
        List<Long> ex = List.of(e.stats().lines, e.records(), e.stats().other, e.stats().rejected);
        List<Long> in = List.of(f.lines(), f.records(), f.otherLines(), f.rejected());
        if (!ex.equals(in)) {
          diffs.add(e.path() + ": --explain " + ex + " vs ingest " + in + " (lines, records, other, rejected)");
        }
        if (e.records() + e.stats().other + e.stats().rejected != e.stats().lines) {
          diffs.add(e.path() + ": --explain does not add up: " + ex);
        }
      }
      assertEquals(List.of(), diffs);
      assertEquals(0, r.rejected(), "the bundled samples have no rejected line");
    }
  }
}
