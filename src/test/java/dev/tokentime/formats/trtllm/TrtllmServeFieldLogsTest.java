package dev.tokentime.formats.trtllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
      Map.entry("trt-120rc2-grafana-copy-iter-event-loop-error-trt9931.log", "trtllm-iter-stats 12 4 8 0"),
      // Triton's glog behind docker compose's "triton-server  | " (was unrecognised): its
      // --log-verbose request lines are other lines
      Map.entry("triton-2407-compose-verbose-http-request-server7649.log", "trtllm-log 6 0 6 0"),
      // Open MPI's and mpirun's lines alone name no program: read as trtllm-log when named (below)
      Map.entry("triton-trtllm-backend-ompi-segfault-backend206.log", "unrecognised"),
      Map.entry("mpirun-rank-died-title-backend206.log", "unrecognised"),
      // nor do Open MPI's words on an MPI_Abort
      Map.entry("mpi-abort-title-trt2813.log", "unrecognised"),
      Map.entry("openmpi-abort-block-accl104.log", "unrecognised"),
      // a paste that starts at the loop thread's hook names no program either
      Map.entry("dynamo-trt-decode-worker-event-loop-thread-hook-dyn6734.log", "unrecognised"),
      // nor do Triton's signal handler's and mpirun's
      Map.entry("triton-signal-11-mpirun-stream-close-backend107.log", "unrecognised"),
      // a Dynamo frontend's line alone is no engine's log
      Map.entry("dynamo-frontend-no-responders-500-codeidx30650929465.log", "unrecognised"),
      // 1.2.0rc5's AutoDeploy backend starting (its own logger's lines are other lines): the
      // runtime's version twice (the server and its MPI worker) and uvicorn's two ready lines
      Map.entry("trt-120rc5-autodeploy-serve-startup-dgx-spark-codeidx39201568439.log", "trtllm-log 58 4 54 0"),
      // Triton giving up, then mpirun's word on it: one death (the server's "error: creating server")
      Map.entry("triton-exit-then-mpirun-nonzero-status-backend572.log", "trtllm-log 19 1 18 0"),
      Map.entry("mpirun-nonzero-status-block-backend459.log", "unrecognised")));

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

  private static RecordingSink ingest(String name, String log, String format) throws IOException {
    byte[] b = log.getBytes(StandardCharsets.UTF_8);
    InputFormat f = FormatRegistry.standard().sniff(new Sample(name, b, b.length));
    assertEquals(format, f == null ? "unrecognised" : f.id(), name);
    RecordingSink s = new RecordingSink();
    f.parse(new ByteArrayInputStream(b), new ParseContext(name, "r", false, null, null,
        Instant.parse("2026-06-30T00:00:00Z"), null), s);
    return s;
  }

  /**
   * Triton's glog lines behind a collector's wrapper are Triton's: the real load failure of
   * tensorrtllm_backend#118 (real-logs/field) as kubectl logs --timestamps and docker compose
   * would print it (constructed: each wrapper put before the excerpt's first two lines).
   */
  @Test
  void tritonGlogBehindAWrapperIsClaimed() throws IOException {
    String e = "E1114 17:20:34.602463 37 model_lifecycle.cc:621] failed to load 'tensorrt_llm' version 1: Internal:"
        + " unexpected error when creating modelInstanceState\n";
    String i = "I1114 17:20:34.602472 37 model_lifecycle.cc:756] failed to load 'tensorrt_llm'\n";
    for (String wrapper : List.of("2023-11-14T17:20:34.602463301Z ", "triton-1  | ")) {
      RecordingSink s = ingest("triton.log", wrapper + e + wrapper + i, "trtllm-log");
      assertEquals(List.of("1 failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating"
          + " modelInstanceState"), crashes(s), wrapper);
    }
  }

  /**
   * A server log whose first 64 KiB are start-up lines alone is read as iteration stats when its
   * tail holds them (was trtllm-log, every iteration line an other line). Constructed in a temp
   * file from real lines: the C++ runtime's start-up of NVIDIA/TensorRT-LLM#8155 (real-logs/field),
   * its "Refreshed the MPI local session" repeated past 64 KiB, then the iteration line of #9931.
   */
  @Test
  void iterationLinesAfterALongStartUpAreSteps(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
    List<String> startup = java.nio.file.Files.readAllLines(
        Path.of("src/test/resources/real-logs/field/trt-cpp-startup-110rc3-i8155.log")).subList(0, 5);
    String iter = java.nio.file.Files.readAllLines(
        DIR.resolve("trt-120rc2-grafana-copy-iter-event-loop-error-trt9931.log")).get(1);
    StringBuilder log = new StringBuilder();
    startup.forEach(l -> log.append(l).append('\n'));
    while (log.length() < 80_000) {
      log.append(startup.get(1)).append('\n');
    }
    log.append(iter).append('\n');
    Path file = tmp.resolve("serve.log");
    java.nio.file.Files.writeString(file, log);
    InputFormat f;
    try (dev.tokentime.app.OpenedInput in = dev.tokentime.app.OpenedInput.open(file)) {
      f = in.sniffed(FormatRegistry.standard());
    }
    assertEquals("trtllm-iter-stats", f.id());
    RecordingSink s = new RecordingSink();
    f.parse(new ByteArrayInputStream(java.nio.file.Files.readAllBytes(file)), EXCERPTS.context("serve.log"), s);
    assertEquals(List.of(4286L), s.steps.stream().map(x -> x.iter).toList());
    assertEquals(96, s.steps.get(0).genTokens);
    // the start-up's own events are kept: the engine's version, the runtime's configuration
    assertEquals(List.of("1 version 1.1.0rc3", "3 config MPI size: 1, MPI local size: 1, rank: 0",
        "4 config Rank 0 is using GPU 0", "5 config TRTGptModel maxNumSequences: 1"),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
    assertEquals(0, s.c.rejects.size());
  }

  /**
   * In a log of iteration lines the C++ runtime's own lines keep trtllm-log's meaning (were other
   * lines: the stats' "[TensorRT-LLM][INFO] " prefix peeled their header off). Constructed from
   * real lines: #9931's iteration line, then the three lines of tensorrtllm_backend#435
   * (real-logs/field), the runtime's version line of 1.1+ after them.
   */
  @Test
  void runtimeLinesBesideIterationLinesKeepTheirMeaning() throws IOException {
    String iter = java.nio.file.Files.readAllLines(
        DIR.resolve("trt-120rc2-grafana-copy-iter-event-loop-error-trt9931.log")).get(1);
    String failed = java.nio.file.Files.readString(
        Path.of("src/test/resources/real-logs/field/trt-triton-step-failed-error-for-requestid-backend435.log"));
    RecordingSink s = ingest("serve.log", iter + "\n" + failed + "[TensorRT-LLM] TensorRT LLM version: 1.2.0rc2\n",
        "trtllm-iter-stats");
    assertEquals(1, s.steps.size());
    assertEquals(List.of("2 crash Encountered an error in forward function: std::bad_cast", "5 version 1.2.0rc2"),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
    // the request the failed step took with it: a failed request of its own, at the log's last time
    assertEquals(List.of("refused-line-3"), s.requests.stream().map(q -> q.requestId).toList());
    assertEquals(Instant.parse("2025-12-05T06:23:18Z").getEpochSecond() * 1_000_000_000L, s.requests.get(0).arrivalNs);
    assertEquals(1, s.c.other); // "Step function failed, continuing."
  }

  /**
   * trtllm-serve's request handler logs the traceback of a request it answers with an error: a
   * failed request (its access line's), not a crash (was a crash). constructed/trtllm-serve-request-error.
   */
  @Test
  void aRequestsTracebackIsNoCrash() throws IOException {
    PinnedExcerpts constructed = new PinnedExcerpts(Path.of("src/test/resources/constructed/trtllm-serve-request-error"),
        "c", Instant.parse("2026-06-30T00:00:00Z"));
    PinnedExcerpts.Read r = constructed.read("request-traceback-then-400-then-init-failure.log");
    assertEquals("trtllm-log 15 3 12 0", r.account());
    RecordingSink s = r.sink();
    assertEquals(List.of("1 ready All servers are ready", "12 crash RuntimeError: Executor worker returned error"),
        s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[2]).toList());
    assertEquals(List.of("http-400-line-11 400"),
        s.requests.stream().map(q -> q.requestId + " " + q.httpStatus).toList());
    assertTrue(s.requests.get(0).error.endsWith("ValueError: The sum of prompt length (9000), query length (0) should"
        + " not exceed max_num_tokens (8192)"), s.requests.get(0).error);
  }

  /** A rank's death by a signal, in Open MPI's and mpirun's words (were other lines). */
  @Test
  void anMpiRanksSignalIsACrash() throws IOException {
    InputFormat trtllmLog = FormatRegistry.standard().byId("trtllm-log");
    for (var e : Map.of("triton-trtllm-backend-ompi-segfault-backend206.log", List.of("9 Signal: Segmentation fault (11)"),
        "mpirun-rank-died-title-backend206.log",
        List.of("1 mpirun noticed that process rank 0 with PID 0 on node ubuntu exited on signal 11 (Segmentation fault)"),
        // a rank's MPI_Abort, on one line or on Open MPI 4's two (was an other line)
        "mpi-abort-title-trt2813.log",
        List.of("1 MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD with errorcode 1"),
        "openmpi-abort-block-accl104.log",
        List.of("2 MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD"))
        .entrySet()) {
      RecordingSink s = new RecordingSink();
      trtllmLog.parse(new ByteArrayInputStream(java.nio.file.Files.readAllBytes(DIR.resolve(e.getKey()))),
          EXCERPTS.context(e.getKey()), s);
      assertEquals(e.getValue(), crashes(s), e.getKey());
      assertEquals(0, s.c.rejects.size());
    }
  }

  /**
   * A rank's own error, then Open MPI's abort of the job: one death (the abort tells it again).
   * Constructed from real lines: tensorrtllm_backend#435 (real-logs/field), then Open MPI's block.
   */
  @Test
  void anMpiAbortAfterTheRanksOwnErrorIsThatDeath() throws IOException {
    byte[] log = (java.nio.file.Files.readString(
        Path.of("src/test/resources/real-logs/field/trt-triton-step-failed-error-for-requestid-backend435.log"))
        + java.nio.file.Files.readString(DIR.resolve("openmpi-abort-block-accl104.log"))).getBytes(StandardCharsets.UTF_8);
    RecordingSink s = new RecordingSink();
    FormatRegistry.standard().byId("trtllm-log").parse(new ByteArrayInputStream(log), EXCERPTS.context("serve.log"), s);
    assertEquals(List.of("1 Encountered an error in forward function: std::bad_cast"), crashes(s));
  }

  /**
   * The executor loop thread's traceback in Python's thread hook, with no "Error in event loop"
   * line before it (a Dynamo TRT-LLM decode worker's, as its user pasted it): the rank's death (was
   * an other line: the hook's line was taken for the retelling of a crash no line had counted).
   */
  @Test
  void theLoopThreadsHookAloneIsTheRanksDeath() throws IOException {
    String name = "dynamo-trt-decode-worker-event-loop-thread-hook-dyn6734.log";
    RecordingSink s = new RecordingSink();
    FormatRegistry.standard().byId("trtllm-log").parse(
        new ByteArrayInputStream(java.nio.file.Files.readAllBytes(DIR.resolve(name))), EXCERPTS.context(name), s);
    assertEquals(List.of("2 Traceback (most recent call last):"), crashes(s));
    assertEquals(1, s.c.records);
    assertEquals(17, s.c.other);
    assertEquals(0, s.c.rejects.size());
  }

  /**
   * Triton's handler of a fatal signal is the server's death (was an other line), and mpirun's word
   * on that rank after it is the same death told again (was a second crash); SIGTERM's line is the
   * shutdown, no crash.
   */
  @Test
  void tritonsFatalSignalIsOneDeathWithMpirunsWord() throws IOException {
    String name = "triton-signal-11-mpirun-stream-close-backend107.log";
    InputFormat trtllmLog = FormatRegistry.standard().byId("trtllm-log");
    RecordingSink s = new RecordingSink();
    trtllmLog.parse(new ByteArrayInputStream(java.nio.file.Files.readAllBytes(DIR.resolve(name))), EXCERPTS.context(name), s);
    assertEquals(List.of("1 Signal (11) received"), crashes(s));
    assertEquals(1, s.c.records);
    assertEquals(10, s.c.other);
    RecordingSink term = new RecordingSink();
    trtllmLog.parse(new ByteArrayInputStream("Signal (15) received.\n".getBytes(StandardCharsets.UTF_8)),
        EXCERPTS.context("t.log"), term);
    assertEquals(List.of(), crashes(term));
    // Open MPI's signal lines of a rank, then mpirun's word on it (backend#206's comment and title): one death
    RecordingSink ompi = new RecordingSink();
    trtllmLog.parse(new ByteArrayInputStream((java.nio.file.Files.readString(DIR.resolve("triton-trtllm-backend-ompi-segfault-backend206.log"))
        + java.nio.file.Files.readString(DIR.resolve("mpirun-rank-died-title-backend206.log"))).getBytes(StandardCharsets.UTF_8)),
        EXCERPTS.context("b.log"), ompi);
    assertEquals(List.of("9 Signal: Segmentation fault (11)"), crashes(ompi));
  }

  /**
   * A rank's C++ error, std::terminate's two lines on it and Triton's handler of the abort that
   * follows ("Signal (6) received."): one death, one crash (was three: the what() line retold the
   * error as a second, the signal line added a third). std::terminate's lines without the error
   * before them are that death's first word: one crash, at "terminate called …". Constructed from
   * the shapes of TensorRT-LLM's TllmException, libstdc++'s terminate handler and Triton's signal
   * handler (real-logs/trtllm-serve/triton-signal-11-mpirun-stream-close-backend107.log).
   */
  @Test
  void anAbortAfterTheRanksOwnErrorIsOneDeath() throws IOException {
    String error = "[TensorRT-LLM][ERROR] Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR]"
        + " CUDA runtime error in cudaMemcpyAsync: an illegal memory access was encountered\n";
    String terminate = "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'\n"
        + "  what():  [TensorRT-LLM][ERROR] CUDA runtime error in cudaMemcpyAsync: an illegal memory access was encountered\n"
        + "Signal (6) received.\n";
    InputFormat trtllmLog = FormatRegistry.standard().byId("trtllm-log");
    RecordingSink s = new RecordingSink();
    trtllmLog.parse(new ByteArrayInputStream((error + terminate).getBytes(StandardCharsets.UTF_8)), EXCERPTS.context("a.log"), s);
    assertEquals(List.of("1 Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] CUDA runtime error in"
        + " cudaMemcpyAsync: an illegal memory access was encountered"), crashes(s));
    assertEquals(3, s.c.other);
    RecordingSink alone = new RecordingSink();
    trtllmLog.parse(new ByteArrayInputStream(terminate.getBytes(StandardCharsets.UTF_8)), EXCERPTS.context("t.log"), alone);
    assertEquals(List.of("1 terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'"),
        crashes(alone));
    assertEquals(0, s.c.rejects.size() + alone.c.rejects.size());
  }

  /**
   * Dynamo's frontend answering a request with a 500, in one log with a TensorRT-LLM worker's lines:
   * a failed request at the line's time (was an other line). Constructed from real lines: the C++
   * runtime's start-up of NVIDIA/TensorRT-LLM#8155 (real-logs/field), then the frontend's line.
   */
  @Test
  void aDynamoFrontendsInternalErrorIsAFailedRequest() throws IOException {
    String startup = java.nio.file.Files.readString(Path.of("src/test/resources/real-logs/field/trt-cpp-startup-110rc3-i8155.log"));
    String line = java.nio.file.Files.readString(DIR.resolve("dynamo-frontend-no-responders-500-codeidx30650929465.log"));
    RecordingSink s = ingest("dynamo.log", startup + line, "trtllm-log");
    assertEquals(1, s.requests.size());
    assertEquals("Internal server error: Failed to generate completions: no responders: no responders",
        s.requests.get(0).error);
    assertEquals(Instant.parse("2025-10-12T23:28:47.349066Z").getEpochSecond() * 1_000_000_000L + 349_066_000L,
        s.requests.get(0).arrivalNs);
    assertEquals(0, s.c.rejects.size());
  }

  /**
   * A line of 200,000 blanks between two words, after each line start whose detail ran to a lazy
   * ".*?" before "\\s*$" (Dynamo's frontend error, the C++ runtime's error and refusal, the PyTorch
   * executor's failures, Triton's model load): each is read, its detail the words and the blanks
   * between them (before, each retried the run of blanks from each blank: minutes of CPU a line).
   * The timeout only guards the run against that backtracking. Constructed.
   */
  @Test
  void aLongRunOfBlanksIsReadInOnePass() {
    String blanks = " ".repeat(200_000);
    String log = "2025-10-12T23:28:47.349066Z ERROR http-request: dynamo_llm::http::service::openai: Internal server error: x"
        + blanks + "y method=POST uri=/v1/chat/completions version=HTTP/1.1  \n"
        + "[TensorRT-LLM][ERROR] Cannot process new request: x" + blanks + "y\n"
        + "[TensorRT-LLM][ERROR] x" + blanks + "y" + blanks + "\n"
        + "\"[TensorRT-LLM][ERROR] x" + blanks + "y \"" + blanks + "\n"
        + "Failed to initialize executor on rank 1: x" + blanks + "y\n"
        + "Executor loop crashed on this rank x" + blanks + "y\n"
        + "Error in event loop: x" + blanks + "y\n"
        + "failed to load 'm' version 1: x" + blanks + "y\"" + blanks + "\n";
    RecordingSink s = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> {
      RecordingSink r = new RecordingSink();
      FormatRegistry.standard().byId("trtllm-log").parse(
          new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), EXCERPTS.context("ws.log"), r);
      return r;
    });
    assertEquals(List.of(), s.c.rejects);
    String words = "x" + blanks + "y";
    assertEquals(List.of("Internal server error: " + words, "Cannot process new request: " + words),
        s.requests.stream().map(r -> r.error).toList());
    // a crash keeps its detail's first 300 characters
    assertEquals(java.util.stream.Stream.of("3 " + words, "4 " + words + " ", "5 Failed to initialize executor on rank 1: " + words,
        "6 Executor loop crashed on this rank " + words, "7 Error in event loop: " + words,
        "8 failed to load 'm' version 1: " + words).map(c -> c.substring(0, 2)
        + dev.tokentime.formats.spec.SpecParser.shortDetail(c.substring(2))).toList(), crashes(s));
  }

  /**
   * mpirun's word on a rank that exited with a non-zero status: the job's death where the log
   * holds no other word on it (was an other line), the same death told again after Triton's own.
   */
  @Test
  void mpirunsNonZeroExitIsOneDeath() throws IOException {
    InputFormat trtllmLog = FormatRegistry.standard().byId("trtllm-log");
    for (var e : Map.of("mpirun-nonzero-status-block-backend459.log",
        List.of("2 mpirun detected that one or more processes exited with non-zero status"),
        "triton-exit-then-mpirun-nonzero-status-backend572.log",
        List.of("8 error: creating server: Internal - failed to load all models")).entrySet()) {
      RecordingSink s = new RecordingSink();
      trtllmLog.parse(new ByteArrayInputStream(java.nio.file.Files.readAllBytes(DIR.resolve(e.getKey()))),
          EXCERPTS.context(e.getKey()), s);
      assertEquals(e.getValue(), crashes(s), e.getKey());
      assertEquals(0, s.c.rejects.size());
    }
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
