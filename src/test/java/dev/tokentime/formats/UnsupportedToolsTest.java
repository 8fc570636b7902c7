package dev.tokentime.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.OpenedInput;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real outputs of tools tokentime does not read (real-logs/unsupported: a benchmark_serving fork
 * that starts as vLLM's 2023 block does) are "cannot tell the format", never a reading of them as a tool they are not; named with --from as vLLM's result, evalscope's
 * summary (real-logs/tools, read as evalscope-perf) is a reject saying so (it was 15 figures of no
 * unit).
 */
class UnsupportedToolsTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/unsupported");

  @TempDir
  Path tmp;

  @Test
  void noFormatClaimsThem() throws Exception {
    FormatRegistry formats = FormatRegistry.standard();
    List<Path> files;
    try (Stream<Path> s = Files.list(DIR)) {
      files = s.filter(p -> !p.getFileName().toString().equals("PROVENANCE.md")).sorted().toList();
    }
    assertEquals(1, files.size(), files.toString());
    for (Path f : files) {
      try (OpenedInput in = OpenedInput.open(f)) {
        assertNull(in.sniffed(formats), f + " claimed");
      }
    }
  }

  @Test
  void aSummaryOfAnotherToolNamedAsVllmsIsARejectSayingSo() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      var r = t.ingest(new IngestOptions(List.of(Path.of("src/test/resources/real-logs/tools/evalscope-0.17-blog-qwen3-235b-c10/benchmark_summary.json").toString()),
          "vllm-bench-json", null, false, false, false, null, null)).files().get(0);
      assertEquals(List.of(0L, 1L), List.of(r.records(), r.rejected()));
      assertEquals(0L, t.value("SELECT count(*) FROM reported_metrics"));
      assertTrue(((String) t.value("SELECT reason FROM rejects")).startsWith("not a vllm bench serve or SGLang"
          + " bench_serving result"));
    }
  }
}
