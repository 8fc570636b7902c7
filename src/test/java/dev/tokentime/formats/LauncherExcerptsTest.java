package dev.tokentime.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.PinnedExcerpts;
import dev.tokentime.testing.RecordingSink;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Real engine lines under launchers' and collectors' prefixes (src/test/resources/real-logs/
 * launchers, PROVENANCE.md there): Slurm's srun --label, SkyPilot, torch.distributed's per-rank
 * output, mpirun, SageMaker's model server, compose, stern, KServe's formatter. Each file's
 * account is pinned; the launchers' prefixes are checked by value.
 */
class LauncherExcerptsTest {
  static final PinnedExcerpts EXCERPTS = new PinnedExcerpts(Path.of("src/test/resources/real-logs/launchers"),
      "launchers", Instant.parse("2025-06-30T00:00:00Z"));

  static final Map<String, String> ACCOUNTS = new TreeMap<>(Map.ofEntries(
      Map.entry("01-slurm-srun-label-vllm044-stats-awsome.log", "vllm-log 11 6 5 0"),
      Map.entry("02-skypilot-head-rank-sglang-dp2tp2-decode-r1.log", "sglang-log 3 3 0 0"),
      // a scheduler's traceback alone, cut above its first line: SGLang's by its frames, no event
      Map.entry("03-mpirun-timestamp-tag-output-sglang0417-crash-sgl3065.log", "sglang-log 32 0 32 0"),
      Map.entry("04-torch-rank0-traceback-vllm064-oom-startup-vllm11560.log", "vllm-log 55 2 53 0"),
      // TensorRT-LLM / Triton start-up lines: recognised, none of a kind tokentime keeps
      Map.entry("05-compose-triton-trtllm-backend-startup-trtllm2813.log", "trtllm-log 15 0 15 0"),
      Map.entry("06-sagemaker-djl-pyprocess-cloudwatch-vllm03-stats-vllm2912.log", "vllm-log 7 1 6 0"),
      Map.entry("07-skypilot-task-pid-vllm05-neuron-stats-access-vllm5738.log", "vllm-log 2 1 1 0"),
      Map.entry("08-kserve-formatter-vllm08-v0-received-access-added-kserve4470.log", "vllm-log 4 4 0 0"),
      Map.entry("09-compose-fastchat-vllm03-received-stats-vllm2947.log", "vllm-log 2 2 0 0"),
      Map.entry("10-stern-pod-container-vllm-pd-decode-startup-llmd.log", "vllm-log 8 2 6 0"),
      Map.entry("11-rayserve-replica-trtllm-triton-pyapi-startup-tutorials.log", "trtllm-log 10 0 10 0"),
      Map.entry("12-mpirun-torchrun-pod-rank3-traceback-vllm08-external-launcher-vllm18998.log", "vllm-log 9 1 8 0")));

  static RecordingSink sink(String file) throws IOException {
    return EXCERPTS.read(file).sink();
  }

  @Test
  void everyExcerptIsAccountedAsPinned() throws IOException {
    EXCERPTS.assertAccounts(ACCOUNTS);
  }

  /**
   * srun's "0: " is the task the line came from, under tail's "==> logs/serve-vllm_546.out <=="
   * heading, which names its file; SkyPilot's "(head, rank=0, pid=N)" the node.
   */
  @Test
  void launchersNameTheLinesOrigin() throws IOException {
    RecordingSink srun = sink("01-slurm-srun-label-vllm044-stats-awsome.log");
    assertEquals(3, srun.stats.size());
    srun.stats.forEach(r -> assertEquals("logs/serve-vllm_546.out/task 0", r.instance));
    assertEquals("head, rank=0 pid=18260 / DP2", sink("02-skypilot-head-rank-sglang-dp2tp2-decode-r1.log").steps.get(0).instance);
    assertEquals("task pid=33413", sink("07-skypilot-task-pid-vllm05-neuron-stats-access-vllm5738.log").stats.get(0).instance);
  }

  /**
   * KServe's dated header on the request lines and vLLM's own (no year) on the stats line of one
   * file: the stats line takes the year the dated lines gave, not the file's date (a copy written
   * a year later dated it 2026).
   */
  @Test
  void aLineWithoutAYearTakesItFromTheDatedLinesBeforeIt() throws IOException {
    PinnedExcerpts copiedLater = new PinnedExcerpts(EXCERPTS.dir(), "launchers", Instant.parse("2026-07-01T00:00:00Z"));
    RecordingSink s = copiedLater.read("08-kserve-formatter-vllm08-v0-received-access-added-kserve4470.log").sink();
    assertEquals(Instant.parse("2025-05-14T17:45:10.901Z"), Instant.ofEpochSecond(0, s.requests.get(0).arrivalNs));
    assertEquals(Instant.parse("2025-05-14T17:45:10Z"), Instant.ofEpochSecond(0, s.stats.get(0).tsNs));
  }

  /** torch.distributed's "[rankN]: " before a traceback: the engine's failure is an event of that rank. */
  @Test
  void aRanksTracebackIsAnEngineEvent() throws IOException {
    List<String[]> events = sink("04-torch-rank0-traceback-vllm064-oom-startup-vllm11560.log").events;
    String[] crash = events.stream().filter(e -> e[1].equals("crash")).findFirst().orElseThrow();
    // the exception line that ends the rank's traceback is its detail
    assertTrue(crash[2].startsWith("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 462.00 MiB."), crash[2]);
    assertEquals("rank0", crash[3]);
    String[] other = sink("12-mpirun-torchrun-pod-rank3-traceback-vllm08-external-launcher-vllm18998.log").events.get(0);
    assertEquals("rank3", other[3]);
    assertTrue(other[2].startsWith("Traceback"), other[2]);
  }
}
