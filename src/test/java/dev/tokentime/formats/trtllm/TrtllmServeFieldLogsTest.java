package dev.tokentime.formats.trtllm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.StepRecord;
import dev.tokentime.testing.PinnedExcerpts;
import dev.tokentime.testing.RecordingSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Real TensorRT-LLM server logs as users published them (real-logs/trtllm-serve, PROVENANCE.md
 * there): what each is read as, and the iteration rows, requests and engine events in it.
 */
class TrtllmServeFieldLogsTest {
  static final Path DIR = Path.of("src/test/resources/real-logs/trtllm-serve");

  /** "format lines records other rejected" of every excerpt. */
  static final Map<String, String> ACCOUNTS = new TreeMap<>(Map.ofEntries(
      // a log viewer's copy: its time lines are other lines; the iteration, two ranks' event-loop
      // deaths and the bare traceback between them are records
      Map.entry("trt-120rc2-grafana-copy-iter-event-loop-error-trt9931.log", "trtllm-iter-stats 12 4 8 0")));

  static final PinnedExcerpts EXCERPTS = new PinnedExcerpts(DIR, "trtllm-serve", Instant.parse("2026-06-30T00:00:00Z"));

  @Test
  void everyExcerptIsAccountedAsPinned() throws IOException {
    EXCERPTS.assertAccounts(ACCOUNTS);
  }

  private static List<String> crashes(RecordingSink s) {
    return s.events.stream().filter(e -> e[1].equals("crash")).map(e -> e[0] + " " + e[2]).toList();
  }

  @Test
  void eventLoopErrorIsTheRanksCrash() throws IOException {
    RecordingSink s = EXCERPTS.read("trt-120rc2-grafana-copy-iter-event-loop-error-trt9931.log").sink();
    // 1.2.0rc2: the PyTorch executor's loop thread died on ranks 7 and 5 (was an other line);
    // the traceback between them follows the viewer's time line, not the thread's hook line
    assertEquals(List.of("4 Error in event loop: vector::_M_default_append",
        "8 Traceback (most recent call last):",
        "12 Error in event loop: vector::_M_default_"), crashes(s));
    StepRecord it = s.steps.get(0);
    assertEquals(1, s.steps.size());
    assertEquals(4286L, it.iter);
    assertEquals(0, it.rank);
    assertEquals(88.22870254516602, it.durationMs, 1e-9);
    assertEquals(89.87372589111328, it.extras.get("prev_device_step_ms"), 1e-9);
    assertEquals(48, it.genRequests);
    assertEquals(96, it.genTokens);
    assertEquals(0, it.ctxRequests);
    // the line's own local time, UTC assumed: 2025-12-05 06:23:18
    assertEquals(Instant.parse("2025-12-05T06:23:18Z").getEpochSecond() * 1_000_000_000L, it.tsNs);
  }

  /** The same death as a plain log holds it: the error, its logged traceback, the thread hook's. */
  @Test
  void eventLoopErrorAndItsTracebacksAreOneCrash() throws IOException {
    String log = "[12/05/2025-06:23:18] [TRT-LLM] [RANK 7] [E] Error in event loop: vector::_M_default_append\n"
        + "[12/05/2025-06:23:18] [TRT-LLM] [RANK 7] [E] Traceback (most recent call last):\n"
        + "  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py\", line 1, in _event_loop_wrapper\n"
        + "RuntimeError: vector::_M_default_append\n"
        + "Exception in thread Thread-3 (_event_loop_wrapper):\n"
        + "Traceback (most recent call last):\n"
        + "  File \"/usr/lib/python3.12/threading.py\", line 1073, in _bootstrap_inner\n"
        + "RuntimeError: vector::_M_default_append\n";
    byte[] b = log.getBytes(StandardCharsets.UTF_8);
    InputFormat f = FormatRegistry.standard().sniff(new Sample("serve.log", b, b.length));
    assertEquals("trtllm-log", f.id());
    RecordingSink s = new RecordingSink();
    f.parse(new ByteArrayInputStream(b), new ParseContext("serve.log", "r", false, null, null,
        Instant.parse("2026-06-30T00:00:00Z"), null), s);
    assertEquals(List.of("1 Error in event loop: vector::_M_default_append"), crashes(s));
    assertEquals(1, s.c.records);
    assertEquals(0, s.c.rejects.size());
  }
}
