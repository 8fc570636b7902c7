package dev.tokentime.formats.vllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.testing.PinnedExcerpts;
import dev.tokentime.testing.RecordingSink;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The supervisor's word on an engine's death, beside the engine's lines (docs/formats.md, "The
 * supervisor's word"): systemd's exit, failure and restart lines, the kernel's OOM killer, Ray's
 * raylet. Real excerpts in src/test/resources/real-logs/supervisor (PROVENANCE.md there), a
 * constructed journal with times in src/test/resources/constructed/supervisor-journal.
 */
class SupervisorEventsTest {
  static final Path REAL = Path.of("src/test/resources/real-logs/supervisor");
  static final Path CONSTRUCTED = Path.of("src/test/resources/constructed/supervisor-journal");
  static final PinnedExcerpts EXCERPTS = new PinnedExcerpts(REAL, "supervisor", Instant.parse("2025-06-30T00:00:00Z"));
  static final PinnedExcerpts JOURNAL = new PinnedExcerpts(CONSTRUCTED, "supervisor", Instant.parse("2025-08-30T00:00:00Z"));

  /** Each event as "line kind instance ts detail" (ts "-" when the event has none). */
  static List<String> events(RecordingSink s) {
    List<String> out = new ArrayList<>();
    for (String[] e : s.events) {
      long ts = Long.parseLong(e[4]);
      out.add(e[0] + " " + e[1] + " " + e[3] + " " + (ts == RequestRecord.NONE ? "-" : Long.toString(ts)) + " " + e[2]);
    }
    return out;
  }

  /** A file read as vLLM's log, as `ingest --from vllm-log` reads it (Ray's and the kernel's lines alone tell no format). */
  static RecordingSink readAsVllm(String file) throws IOException {
    return readAs("vllm-log", REAL.resolve(file));
  }

  static RecordingSink readAs(String format, Path file) throws IOException {
    RecordingSink s = new RecordingSink();
    try (InputStream in = Files.newInputStream(file)) {
      FormatRegistry.standard().byId(format).parse(in, EXCERPTS.context(file.getFileName().toString()), s);
    }
    return s;
  }

  static long ns(String instant) {
    Instant i = Instant.parse(instant);
    return i.getEpochSecond() * 1_000_000_000L + i.getNano();
  }

  /**
   * vllm-project/vllm#12474: vLLM's traceback through journald (`bash[367371]`), then systemd's
   * "vllm3.service: Main process exited, code=exited, status=1/FAILURE". Before, an other line:
   * the log held no word of the process's death. Now one crash from systemd, the unit and its
   * exit status the detail; journald's short form has no year and the frames no vLLM header, so
   * the event has no time.
   */
  @Test
  void systemdMainProcessExitedBesideVllmsTraceback() throws IOException {
    PinnedExcerpts.Read r = EXCERPTS.read("01-journald-systemd-main-exited-vllm12474.log");
    assertEquals("vllm-log 4 1 3 0", r.account());
    assertEquals(List.of("4 crash localhost/systemd[1] - vllm3.service: Main process exited, code=exited, status=1/FAILURE"),
        events(r.sink()));
    assertEquals(0, r.sink().requests.size());
  }

  /**
   * hkust-nlp/simpleRL-reason#25 (OpenRLHF's vLLM actors under Ray): "(raylet) A worker died or
   * was killed … Worker PID: 288692 Worker exit type: SYSTEM_ERROR …". Before, an other line (no
   * prefix knew "(raylet)" without a pid). Now a crash from the raylet, the worker's pid and exit
   * the detail; the actor's own "The actor is dead …" line before it stays other.
   */
  @Test
  void rayletsWorkerDiedIsACrashNamingTheWorker() throws IOException {
    RecordingSink s = readAsVllm("02-raylet-worker-died-openrlhf-simplerl25.log");
    assertEquals(List.of("2 crash raylet - Worker PID: 288692 Worker exit type: SYSTEM_ERROR Worker exit detail: "
        + "Worker unexpectedly exits with a connection error code 2. End of file."), events(s));
    assertEquals(List.of(1L, 1L, 0), List.of(s.c.records, s.c.other, s.c.rejects.size()));
    assertEquals(0, s.requests.size());
  }

  /**
   * hiyouga/EasyR1#185 (a vLLM rollout under Ray): the raylet's OOM summary under its own glog
   * header "(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1
   * Workers (tasks / actors) killed due to memory pressure (OOM), …". Before, an other line. Now a
   * crash at the header's time (local, ms; UTC assumed), the counts and the node the detail.
   */
  @Test
  void rayletsOomSummaryIsACrashAtItsOwnTime() throws IOException {
    RecordingSink s = readAsVllm("03-raylet-oom-summary-easyr1-185.log");
    assertEquals(List.of("1 crash raylet " + ns("2025-04-02T15:02:00.117Z") + " 1 Workers (tasks / actors) killed due to "
        + "memory pressure (OOM), 0 Workers crashed due to other reasons at node "
        + "(ID: 351e406b196f66bb45eaad02a3b8b4725babfa8cc12949432f7ad7d8, IP: 10.95.143.76)"), events(s));
    assertEquals(List.of(1L, 2L, 0), List.of(s.c.records, s.c.other, s.c.rejects.size()));
  }

  /**
   * docker/for-linux#1001: the kernel's OOM killer through journald with kern.log's printk time
   * ("host kernel: [  518.050606] Out of memory: Killed process 15784 (python3) total-vm:…").
   * Before, other lines. Now one crash a kill, the killed process the detail (a name in
   * parentheses of its own too); the reaper's lines after them are the same kills, other lines.
   */
  @Test
  void kernelOomKillerIsOneCrashAKill() throws IOException {
    RecordingSink s = readAsVllm("04-journald-kernel-oom-killed-dockerforlinux1001.log");
    assertEquals(List.of(
        "1 crash ubuntu-s-1vcpu-2gb-ams3-01/kernel - Out of memory: Killed process 15784 (python3)",
        "3 crash ubuntu-s-1vcpu-2gb-ams3-01/kernel - Out of memory: Killed process 15925 ((resolved))"), events(s));
    assertEquals(List.of(2L, 2L, 0), List.of(s.c.records, s.c.other, s.c.rejects.size()));
  }

  /**
   * A constructed journal (`journalctl -o short-iso`, README there): vLLM's request in flight,
   * the kernel's kill of its process, systemd's exit, failure and restart lines. Each death is
   * one event at its line's time: "Failed with result 'oom-kill'." right after "Main process
   * exited" is the same death, an other line, but alone ('timeout') it is the crash; an exit
   * with status 0 is none, and neither is a unit's "Started" line. The request these lines
   * follow is no one's: it stays in flight until the log ends, its status unset.
   */
  @Test
  void aJournalsDeathsAndRestartAtTheirTimes() throws IOException {
    PinnedExcerpts.Read r = JOURNAL.read("journal-short-iso.log");
    assertEquals("vllm-log 10 6 4 0", r.account());
    assertEquals(List.of(
        "4 crash gpu-1/kernel " + ns("2025-08-12T10:00:02.500Z") + " Out of memory: Killed process 2107 (python3)",
        "5 crash gpu-1/systemd[1] " + ns("2025-08-12T10:00:03Z") + " vllm.service: Main process exited, code=killed, status=9/KILL",
        "7 restart gpu-1/systemd[1] " + ns("2025-08-12T10:00:08Z") + " vllm.service: Scheduled restart job, restart counter is at 3",
        "9 crash gpu-1/systemd[1] " + ns("2025-08-12T10:05:00Z") + " vllm.service: Failed with result 'timeout'"),
        events(r.sink()));
    assertEquals(1, r.sink().requests.size());
    RequestRecord q = r.sink().requests.get(0);
    assertEquals("chatcmpl-ok1", q.requestId);
    assertEquals("gpu-1/vllm[2107] / APIServer pid=2107", q.instance);
    assertNull(q.status);
    assertNull(q.extras.get("lost_at_line"));
  }

  /**
   * verl-project/verl#2189 (verl's SGLang rollout under Ray): the raylet's "A worker died or was
   * killed … Worker PID: 122894 …", read as SGLang's log reads it. Before, an other line in
   * sglang-log (and trtllm-log) as in vllm-log; now the same crash there.
   */
  @Test
  void sglangAndTrtllmLogsReadTheSupervisorAsVllmDoes() throws IOException {
    RecordingSink sgl = readAs("sglang-log", REAL.resolve("05-raylet-worker-died-sglang-rollout-verl2189.log"));
    assertEquals(List.of("1 crash raylet - Worker PID: 122894 Worker exit type: SYSTEM_ERROR Worker exit detail: "
        + "Worker unexpectedly exits with a connection error code 2. End of file."), events(sgl));
    assertEquals(0, sgl.requests.size());
    for (String format : List.of("sglang-log", "trtllm-log")) {
      RecordingSink s = readAs(format, CONSTRUCTED.resolve("journal-short-iso.log"));
      assertEquals(List.of(
          "4 crash gpu-1/kernel " + ns("2025-08-12T10:00:02.500Z") + " Out of memory: Killed process 2107 (python3)",
          "5 crash gpu-1/systemd[1] " + ns("2025-08-12T10:00:03Z") + " vllm.service: Main process exited, code=killed, status=9/KILL",
          "7 restart gpu-1/systemd[1] " + ns("2025-08-12T10:00:08Z") + " vllm.service: Scheduled restart job, restart counter is at 3",
          "9 crash gpu-1/systemd[1] " + ns("2025-08-12T10:05:00Z") + " vllm.service: Failed with result 'timeout'"),
          events(s), format);
      assertEquals(0, s.requests.size(), format);
      RecordingSink oom = readAs(format, REAL.resolve("03-raylet-oom-summary-easyr1-185.log"));
      assertEquals(1, oom.events.size(), format);
      assertEquals(Long.toString(ns("2025-04-02T15:02:00.117Z")), oom.events.get(0)[4], format);
    }
  }
}
