package dev.tokentime.formats.trtllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.PinnedExcerpts;
import dev.tokentime.testing.RecordingSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * TensorRT-LLM 1.3's module tags after the level ("[TRT-LLM] [I] [_torch  ] ", "[serve   ]",
 * "[executor]"): every line shape read without the tag is read with it, and sniffed as before.
 * A real executor failure (field/trt-130rc20-…) and made-up lines (constructed/trtllm-module-tags).
 */
class ModuleTagsTest {
  static final Path DIR = Path.of("src/test/resources/constructed/trtllm-module-tags");
  static final PinnedExcerpts TAGS = new PinnedExcerpts(DIR, "tags", Instant.parse("2026-09-30T00:00:00Z"));
  static final PinnedExcerpts FIELD = new PinnedExcerpts(Path.of("src/test/resources/real-logs/field"), "field",
      Instant.parse("2026-09-30T00:00:00Z"));

  @Test
  void iterationLinesBehindTheTorchTagAreSteps() throws IOException {
    for (String f : List.of("iterlog-padded-torch-tag.log", "iterlog-rank-then-padded-torch-tag.log")) {
      PinnedExcerpts.Read r = TAGS.read(f);
      assertEquals("trtllm-iter-stats 1 1 0 0", r.account(), f);
      var s = r.sink().steps.get(0);
      assertEquals(List.of(5L, 0, 6.79, 0.1), List.of(s.iter, s.rank, s.durationMs, s.kvUsage), f);
    }
  }

  @Test
  void theHangDetectorFiringIsACrash() throws IOException {
    PinnedExcerpts.Read r = TAGS.read("hang-detected-torch-rank.log");
    assertEquals("trtllm-log 1 1 0 0", r.account());
    assertEquals(List.of("Hang detected on rank 0 in PyExecutor; hard-killing and propagating to peer ranks."),
        r.sink().events.stream().filter(e -> e[1].equals("crash")).map(e -> e[2]).toList());
  }

  @Test
  void requestLinesBehindTheServeTagAreTensorRtLlms() throws IOException {
    PinnedExcerpts.Read r = TAGS.read("received-response-serve-tag.log");
    assertEquals("trtllm-log 2 2 0 0", r.account(), "not vllm-log's Received request");
    assertEquals(List.of("c1627587-927f-4717-bad4-7266c9960d32"), r.sink().requests.stream().map(q -> q.requestId).toList());
  }

  @Test
  void executorFailuresBehindTheExecutorTagAreCrashes() throws IOException {
    assertEquals("trtllm-log 1 1 0 0", TAGS.read("executor-failed-rank-then-tag.log").account());
    PinnedExcerpts.Read real = FIELD.read("trt-130rc20-executor-module-tag-failed-init-modelopt1933.log");
    assertEquals("trtllm-log", real.account().split(" ")[0], "was: cannot tell the format");
    RecordingSink s = real.sink();
    assertTrue(s.events.stream().anyMatch(e -> e[1].equals("crash")
        && e[2].equals("Failed to initialize executor on rank 0: tuple index out of range")), s.events.stream().map(e -> e[2]).toList().toString());
  }

  /** UCX's signal handler on a worker that died of a bus error, behind srun's space-padded label. */
  @Test
  void aWorkerKilledByASignalIsACrash() throws IOException {
    Path f = Path.of("src/test/resources/real-logs/field/trt-widep-srun-padded-ucx-bus-error-doc.log");
    RecordingSink s = new RecordingSink();
    dev.tokentime.ingest.FormatRegistry.standard().byId("trtllm-log")
        .parse(Files.newInputStream(f), FIELD.context(f.getFileName().toString()), s);
    assertEquals(List.of(List.of("crash", "Caught signal 7 (Bus error: nonexistent physical address)", "task 1")),
        s.events.stream().map(e -> List.of(e[1], e[2], e[3])).toList());
  }
}
