package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The wrapper layer's property, over every stack: any outer wrapper (or none) × any middle one ×
 * any inner one around any known vLLM line gives the kind and groups of the bare line, and the
 * wrapper's time where it has one. The space is small enough to walk whole (15 × 10 × 4 × 9
 * stacks and lines), so every case is checked, not a random draw of them. Two middle wrappers are
 * none a prefix knows: they are peeled up to where a vLLM line can start (the spec's resync).
 */
class WrapperStackTest {
  static final LineSpec SPEC = SpecReader.load("vllm-log.spec");
  static final ObjectMapper JSON = new ObjectMapper();

  record Wrapper(String name, UnaryOperator<String> wrap, boolean timed) {}

  static final List<String> INNER = List.of(
      "(APIServer pid=1) INFO 08-12 10:00:03 [loggers.py:127] Engine 000: Avg prompt throughput: 0.4 tokens/s, Avg generation throughput: 0.3 tokens/s, Running: 1 reqs, Waiting: 2 reqs, GPU KV cache usage: 0.1%, Prefix cache hit rate: 0.0%",
      "INFO 08-12 10:00:03 metrics.py:341] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.0%, CPU KV cache usage: 0.0%.",
      "(APIServer pid=1) INFO 08-12 10:00:03 [logger.py:43] Received request chatcmpl-a1: params: SamplingParams(max_tokens=5), prompt_token_ids: [1, 2, 3], lora_request: None.",
      "INFO 08-12 10:00:03 [async_llm.py:346] Added request chatcmpl-a1.",
      "(APIServer pid=1) INFO 08-12 10:00:03 [logger.py:71] Generated response chatcmpl-a1 (streaming delta): output: 'x', output_token_ids: [7], finish_reason: None",
      "(EngineCore pid=925) INFO 08-12 10:00:03 [core.py:407] Iteration(5): 1 context requests, 512 context tokens, 3 generation requests, 3 generation tokens, iteration elapsed time: 25.77 ms",
      "(APIServer pid=1) INFO 08-12 10:00:03 [api_server.py:1790] vLLM API server version 0.11.0",
      "INFO 08-12 10:00:03 [metrics.py:502] Prefix cache hit rate: GPU: 12.55%, CPU: 0.00%",
      "(APIServer pid=1) INFO:     172.17.0.1:47466 - \"POST /v1/chat/completions HTTP/1.1\" 500 Internal Server Error");

  static String json(Map<String, ?> m) {
    try {
      return JSON.writeValueAsString(m);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static final List<Wrapper> OUTER = List.of(
      new Wrapper("none", s -> s, false),
      new Wrapper("cri", s -> "2025-08-12T10:00:03.123456789Z stdout F " + s, true),
      // podman's k8s-file log driver: CRI's shape with an offset
      new Wrapper("podman-k8s-file", s -> "2025-08-12T10:00:03.123456789+00:00 stdout F " + s, true),
      new Wrapper("kubectl-timestamps", s -> "2025-08-12T10:00:03.123456789Z " + s, true),
      new Wrapper("github-actions", s -> "2025-08-12T10:00:03.1234567Z " + s, true),
      new Wrapper("ci", s -> "[2025-08-12T10:00:03.123Z] " + s, true),
      new Wrapper("desktop", s -> "2025-08-12 12:00:03.123 | " + s, true),
      new Wrapper("syslog5424", s -> "<14>1 2025-08-12T10:00:03.123456Z gpu-1 vllm 2107 - - " + s, true),
      new Wrapper("syslog3164", s -> "<14>Aug 12 10:00:03 gpu-1 vllm[2107]: " + s, false),
      new Wrapper("journald", s -> "Aug 12 10:00:03 gpu-1 vllm[2107]: " + s, false),
      new Wrapper("journald-short-precise", s -> "Aug 12 10:00:03.123456 gpu-1 vllm[2107]: " + s, false),
      // journald's short form in a Chinese, a Japanese and a Korean locale (the month's name
      // padded to the width of "12月" in the latter two)
      new Wrapper("journald-zh", s -> "8月 12 10:00:03 gpu-1 vllm[2107]: " + s, false),
      new Wrapper("journald-ja", s -> " 8月 12 10:00:03 gpu-1 vllm[2107]: " + s, false),
      new Wrapper("journald-ko", s -> " 8월 12 10:00:03 gpu-1 vllm[2107]: " + s, false),
      new Wrapper("journald-short-iso", s -> "2025-08-12T10:00:03+0000 gpu-1 vllm[2107]: " + s, true),
      new Wrapper("journald-short-iso-precise", s -> "2025-08-12T10:00:03.123456+0000 gpu-1 vllm[2107]: " + s, true),
      // rsyslog's file format (RSYSLOG_FileFormat), with the sender's pid and without one
      new Wrapper("rsyslog-file", s -> "2025-08-12T10:00:03.123456+00:00 gpu-1 vllm[2107]: " + s, true),
      new Wrapper("rsyslog-file-nopid", s -> "2025-08-12T10:00:03.123456+00:00 gpu-1 vllm: " + s, true),
      new Wrapper("logcli", s -> "2025-08-12T10:00:03.123456789Z {container=\"vllm\", pod=\"vllm-0\"} " + s, true),
      new Wrapper("airflow", s -> "[2025-08-12T10:00:03.123+0000] {subprocess.py:93} INFO - " + s, true),
      new Wrapper("airflow-web", s -> "[2025-08-12, 10:00:03 UTC] {subprocess.py:93} INFO - " + s, false),
      new Wrapper("buildkite-raw", s -> "\u001b_bk;t=1754992803123\u0007" + s, false),
      new Wrapper("gitlab-timestamps", s -> "2025-08-12T10:00:03.123456Z 01O " + s, true),
      new Wrapper("gitlab-timestamps-stderr", s -> "2025-08-12T10:00:03.123456Z 02E " + s, true),
      new Wrapper("journald-short-full", s -> "Tue 2025-08-12 10:00:03 UTC gpu-1 vllm[2107]: " + s, true),
      new Wrapper("journald-with-unit", s -> "Tue 2025-08-12 10:00:03 CEST gpu-1 vllm.service[2107]: " + s, true),
      new Wrapper("journald-short-monotonic", s -> "[ 4519.001203] gpu-1 vllm[2107]: " + s, false),
      new Wrapper("journald-short-delta", s -> "[ 4519.001203 <    0.000123>] gpu-1 vllm[2107]: " + s, false),
      new Wrapper("journald-short-unix", s -> "1754992803.123456 gpu-1 vllm[2107]: " + s, false),
      new Wrapper("runpod", s -> "j6zswihe185nfq[info]" + s, false),
      new Wrapper("docker-json", s -> json(Map.of("log", s + "\n", "stream", "stdout",
          "time", "2025-08-12T10:00:03.123456789Z")), true),
      new Wrapper("journald-json", s -> json(Map.of("MESSAGE", s, "__REALTIME_TIMESTAMP", "1754992803123456",
          "_HOSTNAME", "gpu-1")), true),
      new Wrapper("vector-json", s -> json(Map.of("message", s, "timestamp", "2025-08-12T10:00:03.123456Z",
          "host", "gpu-1", "source_type", "kubernetes_logs")), true),
      // CloudWatch's export: the time an epoch number in ms, which is no RFC 3339 time
      new Wrapper("cloudwatch-json", s -> json(Map.of("timestamp", 1754992803123L, "message", s,
          "logStreamName", "vllm")), false),
      // Filebeat's events and Logstash's json_lines (Elastic's "@timestamp", the host an object or a
      // string), Fluent Bit's records of a CRI log read by its cri parser, stern --output json
      new Wrapper("filebeat-ecs", s -> json(Map.of("@timestamp", "2025-08-12T10:00:03.123Z", "message", s,
          "host", Map.of("name", "gpu-1"), "kubernetes", Map.of("pod", Map.of("name", "vllm-0")))), true),
      new Wrapper("logstash-json", s -> json(Map.of("@timestamp", "2025-08-12T10:00:03.123Z", "@version", "1",
          "message", s, "host", "gpu-1")), true),
      new Wrapper("fluentbit-cri-json", s -> json(Map.of("time", "2025-08-12T10:00:03.123456789Z", "stream", "stdout",
          "logtag", "F", "message", s, "kubernetes", Map.of("pod_name", "vllm-0", "container_name", "vllm"))), true),
      new Wrapper("stern-json", s -> json(Map.of("message", s, "nodeName", "gpu-1", "namespace", "default",
          "podName", "vllm-0", "containerName", "vllm")), false),
      new Wrapper("gcp-json", s -> json(Map.of("textPayload", s, "timestamp", "2025-08-12T10:00:03.123456789Z",
          "severity", "INFO")), true),
      new Wrapper("loki-jsonl", s -> json(Map.of("line", s, "timestamp", "2025-08-12T10:00:03.123456789Z")), true),
      // shippers' records with the pod's metadata nested (Fluent Bit's kubernetes filter), a GCP
      // structured entry, an Elasticsearch hit, a Splunk JSON export row
      new Wrapper("fluentbit-k8s", s -> json(Map.of("log", s + "\n", "stream", "stdout", "time", "2025-08-12T10:00:03.123456789Z",
          "kubernetes", Map.of("pod_name", "vllm-0", "container_name", "vllm"))), true),
      // Fluentd's stdout output: the event's time with its offset, the tag, the record as JSON
      new Wrapper("fluentd-stdout", s -> "2025-08-12 10:00:03.123456789 +0000 kubernetes.var.log.containers.vllm-0_default_vllm-"
          + "ab".repeat(32) + ".log: " + json(Map.of("log", s + "\n", "stream", "stdout",
          "kubernetes", Map.of("pod_name", "vllm-0", "container_name", "vllm"))), true),
      // Fluent Bit's stdout output: the record's number, the tag, the event's time (and, 2.1+, its
      // metadata), the record as msgpack-c prints it (strings unescaped: the access line's quotes)
      new Wrapper("fluentbit-stdout", s -> "[0] kube.var.log.containers.vllm-0_default_vllm-" + "ab".repeat(32)
          + ".log: [[1754992803.123456789, {}], {\"time\"=>\"2025-08-12T10:00:03.123456789Z\", \"stream\"=>\"stdout\", "
          + "\"_p\"=>\"F\", \"log\"=>\"" + s + "\", \"kubernetes\"=>{\"pod_name\"=>\"vllm-0\", \"container_name\"=>\"vllm\"}}]", true),
      new Wrapper("fluentbit-stdout-old", s -> "[12] vllm.log: [1754992803.123456789, {\"log\"=>\"" + s + "\"}]", true),
      // az containerapp logs show (Azure Container Apps), 7 fractional digits
      new Wrapper("azure-containerapp", s -> json(Map.of("TimeStamp", "2025-08-12T10:00:03.1234567Z", "Log", s)), true),
      new Wrapper("gcp-jsonpayload", s -> json(Map.of("jsonPayload", Map.of("message", s), "timestamp", "2025-08-12T10:00:03.123Z",
          "resource", Map.of("labels", Map.of("pod_name", "vllm-0")))), true),
      new Wrapper("es-hit", s -> json(Map.of("_index", "logs", "_source", Map.of("message", s, "@timestamp",
          "2025-08-12T10:00:03.123Z"))), true),
      new Wrapper("splunk-json", s -> json(Map.of("preview", false, "result", Map.of("_raw", s, "_time",
          "2025-08-12T10:00:03.123+00:00", "host", "gpu-1"))), true),
      // NVIDIA NIM's JSON logging: vLLM's month-day time to the ms under "time", the line under
      // "message" (a month-day reading, as vLLM's own header: no year, so not "timed" here)
      // a PaaS's stream: Heroku's logplex (µs, +00:00), Fly.io's (whole seconds, no space after the level)
      new Wrapper("heroku", s -> "2025-08-12T10:00:03.123456+00:00 app[web.1]: " + s, true),
      new Wrapper("fly", s -> "2025-08-12T10:00:03Z app[148e03d7f09018] ewr [info]" + s, true),
      // grep's output over a log (-n), a context line of -C, and over several files (-H, -rn): the
      // file's name is the line's tag, the number dropped
      new Wrapper("grep-n", s -> "1234:" + s, false),
      new Wrapper("grep-context", s -> "1236-" + s, false),
      new Wrapper("grep-H", s -> "logs/pod-a.log:" + s, false),
      new Wrapper("grep-rn", s -> "./logs/pod-a.log.1:1234:" + s, false),
      new Wrapper("nim-json", s -> json(Map.of("level", "INFO", "time", "08-12 10:00:03.123",
          "file_path", "/usr/local/lib/python3.10/dist-packages/vllm/engine/metrics.py", "line_number", "334",
          "message", s, "exc_info", "None", "stack_info", "None")), false));

  static final List<Wrapper> MIDDLE = List.of(
      new Wrapper("none", s -> s, false),
      new Wrapper("compose", s -> "vllm-1  | " + s, false),
      new Wrapper("swarm", s -> "vllm_vllm.1.x7k2m9q4abcd@node1    | " + s, false),
      new Wrapper("pm2", s -> "0|vllm     | " + s, false),
      new Wrapper("pm2-time", s -> "0|vllm     | 2025-08-12T10:00:03: " + s, true),
      new Wrapper("tilt", s -> "vllm │ " + s, false),
      new Wrapper("argo", s -> "vllm-serve-x7k2p: " + s, false),
      new Wrapper("stern", s -> "vllm-0 vllm " + s, false),
      new Wrapper("kubectl-prefix", s -> "[pod/vllm-0/vllm] " + s, false),
      new Wrapper("kail", s -> "inference/vllm-0[vllm]: " + s, false),
      // launchers: SkyPilot, mpirun --tag-output --timestamp-output (a ctime: no time used), srun --label
      new Wrapper("skypilot", s -> "(head, rank=0, pid=18260) " + s, false),
      new Wrapper("mpi", s -> "Thu Jan 23 11:55:50 2025[1,1]<stdout>:" + s, false),
      new Wrapper("srun", s -> "0: " + s, false),
      new Wrapper("torch-rank", s -> "[rank0]: " + s, false),
      // torchrun's prefix of a worker's tee'd lines ("[${role_name}${local_rank}]:")
      new Wrapper("torchrun", s -> "[default1]:" + s, false),
      // a paste: a markdown blockquote (nested), Python's logging around a printed line
      new Wrapper("quote", s -> "> > " + s, false),
      new Wrapper("quote-tight", s -> ">" + s, false),
      new Wrapper("pytest-log", s -> "INFO     root:vllm_bench.py:126 " + s, false),
      new Wrapper("basic-log", s -> "WARNING:vllm.bench:" + s, false),
      // Ray Serve's logger (a deployment's own logging of a line; its dated ms time is the line's)
      new Wrapper("rayserve", s -> "INFO 2025-08-12 10:00:03,123 default_VLLMDeployment ujj4diu5 -- " + s, true),
      // NVIDIA Dynamo's Python formatter (0.7+; a year, whole seconds: the line's time)
      new Wrapper("dynamo-py", s -> "[2025-08-12 10:00:03] INFO loggers.py:271: " + s, true),
      // moreutils' ts (its default; a format with the date and µs: the line's time), multilog's
      // TAI64N label, annotate-output's stream tag
      new Wrapper("ts-month", s -> "Aug 12 10:00:03 " + s, false),
      new Wrapper("ts-dated", s -> "2025-08-12 10:00:03.123456 " + s, true),
      new Wrapper("tai64n", s -> "@4000000068a1bd2e0757b0d4 " + s, true),
      // runit's svlogd -tt and -ttt: UTC without a zone written, 10 µs
      new Wrapper("svlogd-tt", s -> "2025-08-12_10:00:03.12345 " + s, true),
      new Wrapper("svlogd-ttt", s -> "2025-08-12T10:00:03.12345 " + s, true),
      new Wrapper("annotate-output", s -> "10:00:03 O: " + s, false),
      // dmesg -T: a ctime in brackets, the locale's names (no time used)
      new Wrapper("dmesg-T", s -> "[Thu Aug 27 00:39:44 2026] " + s, false),
      new Wrapper("dmesg-T-zh", s -> "[四 3月 20 21:01:25 2025] " + s, false),
      // wrappers no prefix knows (resync): a custom collector's, with its own instant, and free text
      new Wrapper("sidecar", s -> "[VllmSidecar kooEr8Ccal1cqylW5f5cz]: 2025-08-12T10:00:03.123Z 1 stdout: " + s, true),
      new Wrapper("unknown-text", s -> "tests/test_x.py::test_y[tp-2] " + s, false));

  static final List<Wrapper> INNER_WRAPPERS = List.of(
      new Wrapper("none", s -> s, false),
      new Wrapper("ray", s -> "(ServeReplica:default:VLLMDeployment pid=4152) " + s, false),
      new Wrapper("raypid", s -> "(pid=4153, ip=10.0.0.5) " + s, false),
      new Wrapper("ansi", s -> s.replaceFirst("INFO", "\u001b[32mINFO\u001b[0m"), false));

  @Test
  void anyWrapperStackGivesTheBareLinesKindGroupsAndTime() throws Exception {
    LineMatcher matcher = new LineMatcher(SPEC);
    List<String> failures = new ArrayList<>();
    int cases = 0;
    for (String inner : INNER) {
      MatchedLine bare = new MatchedLine();
      matcher.match(1, inner, bare);
      assertNotNull(bare.kind, inner);
      for (Wrapper in : INNER_WRAPPERS) {
        for (Wrapper mid : MIDDLE) {
          for (Wrapper out : OUTER) {
            String line = out.wrap().apply(mid.wrap().apply(in.wrap().apply(inner)));
            MatchedLine m = new MatchedLine();
            matcher.match(1, line, m);
            cases++;
            String stack = out.name() + "+" + mid.name() + "+" + in.name();
            if (m.kind != bare.kind || !m.groups.equals(bare.groups)) {
              failures.add(stack + ": " + (m.kind == null ? "no kind" : m.kind.name()) + " " + m.groups
                  + " for " + line);
              continue;
            }
            boolean exact = m.times.stream().anyMatch(t -> !t.rule().kind().equals("month-day"));
            if ((out.timed() || mid.timed()) != exact) {
              failures.add(stack + ": wrapper time " + (exact ? "found" : "missing") + " in " + line);
            }
          }
        }
      }
    }
    assertEquals(List.of(), failures);
    assertEquals(9 * MIDDLE.size() * 4 * OUTER.size(), cases);
  }

  /**
   * Each wrapper's identity is the line's origin, whatever its clock's shape: journalctl's ISO and
   * precise forms name the host and unit as its short form does; pm2 and a swarm service their
   * process; logcli the labels' pod and container.
   */
  @Test
  void wrappersNameWhereTheLineCameFrom() {
    LineMatcher matcher = new LineMatcher(SPEC);
    Map<String, String> want = new java.util.LinkedHashMap<>();
    want.put("Aug 12 10:00:03 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put("Aug 12 10:00:03.123456 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put("2025-08-12T10:00:03+0000 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put("2025-08-12T10:00:03.123456+0000 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put("0|vllm     | ", "vllm / APIServer pid=1");
    want.put("vllm_vllm.1.x7k2m9q4abcd@node1    | ", "vllm_vllm.1.x7k2m9q4abcd@node1 / APIServer pid=1");
    want.put("2025-08-12T10:00:03.123Z {container=\"vllm\", pod=\"vllm-0\"} ", "vllm-0/vllm / APIServer pid=1");
    want.put("2025-08-12T10:00:03.123Z {app=\"x\", pod=\"vllm-0\"} ", "vllm-0 / APIServer pid=1");
    want.put("[2025-08-12T10:00:03.123+0000] {subprocess.py:93} INFO - ", "APIServer pid=1");
    // two replicas of one Ray Serve deployment differ by their pid, an identity (before the engine tag)
    want.put("(ServeReplica:app:VLLMDeployment pid=4152) ", "ServeReplica:app:VLLMDeployment pid=4152 / APIServer pid=1");
    want.put("(ServeReplica:app:VLLMDeployment pid=4153, ip=10.0.0.5) ",
        "10.0.0.5/ServeReplica:app:VLLMDeployment pid=4153 / APIServer pid=1");
    // vLLM 0.10's worker tags with the parallel rank, Ray Data's actor of two levels, a journald
    // copy with its host removed, podman-compose (real shapes: vllm-ascend#2497, a vLLM 0.10 Slurm
    // log, a Ray Data LLM crash, sglang#4534, llm-at-home; the hunt of stop 48)
    want.put("(VllmWorker TP1 pid=21355) ", "VllmWorker TP1 pid=21355 / APIServer pid=1");
    want.put("0: (VllmWorker PP1_TP2 pid=2976907) ", "task 0 / VllmWorker PP1_TP2 pid=2976907 / APIServer pid=1");
    want.put("vllm-0 vllm (VllmWorker TP1 pid=21355) ", "vllm-0/vllm / VllmWorker TP1 pid=21355 / APIServer pid=1");
    want.put("(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=589, ip=240.248.0.198) ",
        "240.248.0.198 / MapWorker(MapBatches(vLLMEngineStageUDF)) pid=589 / APIServer pid=1");
    want.put("Mar 18 11:23:44 sgl-router-janus-pro-7b[931930]: ", "sgl-router-janus-pro-7b[931930] / APIServer pid=1");
    want.put("[llmhost] | ", "llmhost / APIServer pid=1");
    // journalctl's other short forms name the same host and unit; RunPod's console its worker
    want.put("Tue 2025-08-12 10:00:03 UTC gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put("Tue 2025-08-12 10:00:03 UTC gpu-1 vllm.service[2107]: ", "gpu-1/vllm.service[2107] / APIServer pid=1");
    want.put("[ 4519.001203] gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put("1754992803.123456 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put("j6zswihe185nfq[info]", "j6zswihe185nfq / APIServer pid=1");
    // rsyslog's file format names the host and the tag, with the pid where the sender gave one
    want.put("2025-08-12T10:00:03.123456+00:00 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put("2025-08-12T10:00:03.123456+00:00 gpu-1 vllm: ", "gpu-1/vllm / APIServer pid=1");
    want.put("2025-08-12T10:00:03.123456+02:00 gpu-1.example.com python3: ", "gpu-1.example.com/python3 / APIServer pid=1");
    // a shipper's JSON record names the pod in nested keys (dotted envelope values)
    String line = INNER.get(0);
    want.put(json(Map.of("log", line + "\n", "time", "2025-08-12T10:00:03Z", "kubernetes",
        Map.of("pod_name", "vllm-1", "container_name", "vllm"))), "vllm-1/vllm / APIServer pid=1");
    want.put(json(Map.of("message", line, "timestamp", "2025-08-12T10:00:03Z", "kubernetes",
        Map.of("pod_name", "vllm-2", "container_name", "vllm"))), "vllm-2/vllm / APIServer pid=1");
    want.put(json(Map.of("textPayload", line, "timestamp", "2025-08-12T10:00:03Z", "resource",
        Map.of("labels", Map.of("pod_name", "vllm-3", "container_name", "vllm")))), "vllm-3/vllm / APIServer pid=1");
    want.put(json(Map.of("line", line, "timestamp", "2025-08-12T10:00:03Z", "labels",
        Map.of("pod", "vllm-4", "container", "vllm"))), "vllm-4/vllm / APIServer pid=1");
    want.put(json(Map.of("_source", Map.of("message", line, "@timestamp", "2025-08-12T10:00:03Z", "kubernetes",
        Map.of("pod", Map.of("name", "vllm-5")), "host", Map.of("name", "gpu-1")))), "gpu-1/vllm-5 / APIServer pid=1");
    // Filebeat's and Logstash's events (Elastic's Common Schema: the host an object; an older
    // Logstash's a string), Fluent Bit's records of a CRI log read by its cri parser (an RFC 3339
    // "time" or none), stern --output json
    want.put(json(Map.of("@timestamp", "2025-08-12T10:00:03.123Z", "message", line, "host", Map.of("name", "gpu-1"),
        "kubernetes", Map.of("pod", Map.of("name", "vllm-7"), "container", Map.of("name", "vllm")))),
        "gpu-1/vllm-7/vllm / APIServer pid=1");
    want.put(json(Map.of("@timestamp", "2025-08-12T10:00:03.123Z", "@version", "1", "message", line, "host", "gpu-2")),
        "gpu-2 / APIServer pid=1");
    want.put(json(Map.of("time", "2025-08-12T10:00:03.123456789Z", "stream", "stdout", "logtag", "F", "message", line,
        "kubernetes", Map.of("pod_name", "vllm-8", "container_name", "vllm"))), "vllm-8/vllm / APIServer pid=1");
    want.put(json(Map.of("stream", "stderr", "logtag", "F", "message", line,
        "kubernetes", Map.of("pod_name", "vllm-9", "container_name", "vllm"))), "vllm-9/vllm / APIServer pid=1");
    want.put(json(Map.of("message", line, "nodeName", "gpu-1", "namespace", "default", "podName", "vllm-10",
        "containerName", "vllm")), "vllm-10/vllm / APIServer pid=1");
    // kail's namespace/pod[container] (older: namespace/pod@container)
    want.put("inference/vllm-0[vllm]: ", "vllm-0/vllm / APIServer pid=1");
    want.put("inference/vllm-1@vllm: ", "vllm-1/vllm / APIServer pid=1");
    // torchrun's workers: the role and local rank ("[trainer0]: " in its docs)
    want.put("[default1]:", "default1 / APIServer pid=1");
    want.put("[trainer0]: ", "trainer0 / APIServer pid=1");
    // pm2's JSON record after its prefix: the app named once
    want.put("0|vllm     | " + json(Map.of("message", line, "timestamp", "2025-08-12T10:00:03", "app_name", "vllm")),
        "vllm / APIServer pid=1");
    // journald's short form in Chinese, Japanese and Korean locales
    want.put("6月 10 16:45:05 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put(" 6月 10 16:45:05 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put("12月 10 16:45:05 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    want.put(" 6월 10 16:45:05 gpu-1 vllm[2107]: ", "gpu-1/vllm[2107] / APIServer pid=1");
    String fluentd = "2025-08-12 10:00:03.123456789 +0000 kubernetes.var.log.containers.x.log: ";
    want.put(fluentd + json(Map.of("log", line + "\n", "kubernetes", Map.of("pod_name", "vllm-6", "container_name", "vllm"))),
        "vllm-6/vllm / APIServer pid=1");
    Map<String, String> got = new java.util.LinkedHashMap<>();
    for (String w : want.keySet()) {
      MatchedLine m = new MatchedLine();
      matcher.match(1, w.endsWith("}") ? w : w + INNER.get(0), m);
      got.put(w, m.kind == null ? "no kind" : m.origin());
    }
    assertEquals(want, got);
  }

  /**
   * A raw Buildkite job log marks each line with an APC sequence (ESC _ bk;t=epoch-ms BEL): its BEL
   * is no stray control character (the line was rejected for U+0007), and the marker is stripped.
   */
  @Test
  void aBuildkiteMarkerIsNoControlCharacter() throws Exception {
    CollectingSink s = parse("\u001b_bk;t=1754992803123\u0007" + INNER.get(0));
    assertEquals(List.of(), s.rejects);
    assertEquals(parse(INNER.get(0)).stats, s.stats);
    CollectingSink bell = parse("\u0007" + INNER.get(0));
    assertEquals(1, bell.rejects.size(), "a BEL outside such a marker is still rejected");
    assertEquals(1, parse("\u001b_x\u0000y\u0007" + INNER.get(0)).rejects.size(), "another APC, a NUL in it: rejected");
    assertEquals(1, parse("\u001b_bk;t=1\u0000\u0007" + INNER.get(0)).rejects.size(), "a NUL inside the marker: rejected");
  }

  /**
   * Resync peels only what comes before a line's header: a message that quotes a tag or a header
   * stays the message, and a line with no start a vLLM line can have stays as it is.
   */
  @Test
  void anUnknownWrapperIsNeverLookedForInsideAMessage() {
    LineMatcher matcher = new LineMatcher(SPEC);
    MatchedLine m = new MatchedLine();
    matcher.match(1, "INFO 08-12 10:00:03 [logger.py:43] retrying (RayWorker pid=5) Added request chatcmpl-a1.", m);
    assertEquals(null, m.kind);
    assertEquals(List.of("vllm"), m.prefixes);
    assertEquals("retrying (RayWorker pid=5) Added request chatcmpl-a1.", m.message());
    matcher.match(2, "  File \"/usr/lib/python3/site-packages/vllm/engine.py\", line 12, in step", m);
    assertEquals(List.of(), m.prefixes);
    matcher.match(3, "my-collector>> (APIServer pid=1) INFO 08-12 10:00:03 [async_llm.py:346] Added request chatcmpl-a1.", m);
    assertEquals(List.of(LineMatcher.UNKNOWN_WRAPPER, "process", "vllm"), m.prefixes);
    assertEquals("added", m.kind.name());
  }

  @Test
  void aWrappedStatsLineStoresTheBareLinesRowAtTheWrappersTime() throws Exception {
    String bare = INNER.get(0);
    CollectingSink plain = parse(bare);
    for (Wrapper out : OUTER) {
      CollectingSink got = parse(out.wrap().apply(bare));
      assertEquals(1, got.records, out.name());
      String row = got.stats.get(0);
      // the row's figures are the bare line's; only its time may be finer
      assertEquals(plain.stats.get(0).replaceAll("ts=\\d+ ", ""), row.replaceAll("ts=\\d+ ", ""), out.name());
      if (out.timed()) {
        // to the wrapper's sub-second digits, where it has them (journalctl's short-iso and Fly.io's have none)
        boolean fraction = !out.name().equals("journald-short-iso") && !out.name().equals("fly")
            && !out.name().equals("journald-short-full") && !out.name().equals("journald-with-unit");
        assertTrue(row.contains(fraction ? "ts=175499280312" : "ts=1754992803000000000 "), out.name() + ": " + row);
      }
    }
  }

  /**
   * NIM's JSON logging (a public GKE walk-through of NIM 1.0.0; its lines' shape, written here by
   * hand): the message has no header of its own, so the envelope's "time" is the line's time (the
   * stats row had none); and a shipper's JSON with "message" and "timestamp" is still read by its
   * own envelope.
   */
  @Test
  void nimJsonLinesTakeTheirTimeField() throws Exception {
    CollectingSink s = parse("{\"level\": \"INFO\", \"time\": \"02-20 21:54:59.370\", \"file_path\": "
        + "\"/usr/local/lib/python3.10/dist-packages/vllm/engine/metrics.py\", \"line_number\": \"334\", \"message\": "
        + "\"Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Swapped: 0 reqs,"
        + " Pending: 0 reqs, GPU KV cache usage: 0.0%, CPU KV cache usage: 0.0%\", \"exc_info\": \"None\", \"stack_info\": \"None\"}");
    assertEquals(List.of(), s.rejects);
    assertEquals(1, s.stats.size());
    assertTrue(s.stats.get(0).contains("ts=" + java.time.Instant.parse("2025-02-20T21:54:59.370Z").toEpochMilli() * 1_000_000L),
        s.stats.get(0));
    // NIM's JSON logging as its 2026 docs show it: the time with its year (the stats row had none)
    CollectingSink nim2026 = parse("{\"level\":\"INFO\",\"time\":\"2026-03-03 12:00:10\",\"file_name\":\"loggers.py\","
        + "\"line_number\":271,\"message\":\"Engine 000: Avg prompt throughput: 2826.4 tokens/s, Avg generation throughput:"
        + " 17.6 tokens/s, Running: 8 reqs, Waiting: 0 reqs, GPU KV cache usage: 3.1%, Prefix cache hit rate: 0.0%\"}");
    assertEquals(List.of(), nim2026.rejects);
    assertTrue(nim2026.stats.get(0).contains("ts=" + java.time.Instant.parse("2026-03-03T12:00:10Z").toEpochMilli() * 1_000_000L),
        nim2026.stats.get(0));
    // NVIDIA Dynamo's JSON lines (DYN_LOGGING_JSONL, its docs' shape): the same keys, an RFC 3339
    // instant under "time" (the stats row had none, a request line was a reject for want of one)
    CollectingSink dynamo = parse("{\"time\":\"2025-09-02T15:53:31.943377Z\",\"level\":\"INFO\",\"target\":\"log\","
        + "\"message\":\"Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 1.1 tokens/s, Running: 1 reqs,"
        + " Waiting: 0 reqs, GPU KV cache usage: 0.1%, Prefix cache hit rate: 0.0%\",\"log.file\":"
        + "\"/opt/dynamo/venv/lib/python3.12/site-packages/vllm/v1/metrics/loggers.py\",\"log.line\":310,\"log.target\":\"loggers.log\"}");
    assertEquals(List.of(), dynamo.rejects);
    assertTrue(dynamo.stats.get(0).contains("ts=1756828411943377000"), dynamo.stats.get(0));
    CollectingSink vector = parse(json(Map.of("message", INNER.get(0), "timestamp", "2025-08-12T10:00:03.123456Z")));
    assertTrue(vector.stats.get(0).contains("ts=1754992803123456000"), vector.stats.get(0));
  }

  /**
   * NVIDIA Dynamo's vLLM workers (2026) log vLLM through their own formatter, VllmColorFormatter
   * (ai-dynamo/dynamo components/src/dynamo/runtime/logging.py), which mimics Rust tracing but
   * writes Python's level names right-aligned to five: " INFO", "WARNING", "CRITICAL". The
   * tracing header knew Rust's WARN only: a warning stayed unread behind it and a critical line's
   * detail kept the header.
   */
  @Test
  void dynamosPythonLevelNamesAreTracingHeaders() throws Exception {
    String e = "\u001b";
    CollectingSink s = parse(e + "[2m2026-08-13T08:33:29.674517Z" + e + "[0m " + e + "[33mWARNING" + e + "[0m "
        + e + "[2mscheduler._schedule" + e + "[0m" + e + "[2m:" + e + "[0m Sequence group 165 is preempted by"
        + " PreemptionMode.RECOMPUTE mode because there is not enough KV cache space. This can affect the end-to-end"
        + " performance. Increase gpu_memory_utilization or tensor_parallel_size to provide more KV cache memory."
        + " total_num_cumulative_preemption=151\n"
        + "2026-08-13T08:33:30.674517Z WARNING loggers.log: Engine 000: Avg prompt throughput: 1.0 tokens/s, Avg"
        + " generation throughput: 10.0 tokens/s, Running: 2 reqs, Waiting: 0 reqs, GPU KV cache usage: 2.0%, Prefix"
        + " cache hit rate: 0.0%\n"
        + "2026-08-13T08:33:31.674517Z CRITICAL core.run_engine_core: EngineCore encountered a fatal error.");
    assertEquals(List.of(), s.rejects);
    assertEquals(2, s.stats.size(), s.stats.toString());
    assertTrue(s.stats.get(0).startsWith("line=1 ts=1786610009674517000 ") && s.stats.get(0).contains("preempt=151"),
        s.stats.get(0));
    assertTrue(s.stats.get(1).startsWith("line=2 ts=1786610010674517000 running=2 "), s.stats.get(1));
    assertEquals(List.of("3 crash EngineCore encountered a fatal error."), s.events);
  }

  /**
   * NVIDIA Dynamo 0.7's Python header, "[2025-12-12 19:45:12] INFO __init__.py:53: ", in front of an
   * engine's message whose own header is gone (constructed from real parts: its README): each
   * line gives the bare line's record at the header's time. vLLM's bracketed logging-config header
   * took the date and the level and left "loggers.py:271: Engine 000: …", a near miss; SGLang's
   * own header left "INFO scheduler_metrics_mixin.py:424: Prefill batch, …", an other line.
   */
  @Test
  void dynamosPythonHeaderIsPeeled() throws Exception {
    Path dir = Path.of("src/test/resources/constructed/dynamo-python-header");
    CollectingSink v = parse(Files.readString(dir.resolve("vllm-worker.log")).strip());
    assertEquals(List.of(), v.rejects);
    assertEquals(1, v.other, "the nixl_connect warning carries nothing");
    assertEquals(1, v.stats.size(), v.stats.toString());
    CollectingSink bare = parse("INFO 12-12 19:45:20 [loggers.py:271] Engine 000: Avg prompt throughput: 6335.3 tokens/s,"
        + " Avg generation throughput: 4.8 tokens/s, Running: 9 reqs, Waiting: 0 reqs, GPU KV cache usage: 62.8%,"
        + " Prefix cache hit rate: 0.0%");
    assertEquals(bare.stats.get(0).replaceAll("line=1 ts=\\d+ ", ""), v.stats.get(0).replaceAll("line=3 ts=\\d+ ", ""));
    long at = java.time.Instant.parse("2025-12-12T19:45:20Z").toEpochMilli() * 1_000_000L;
    assertTrue(v.stats.get(0).startsWith("line=3 ts=" + at + " running=9 "), v.stats.get(0));
    assertEquals(1, v.requests.size(), "Added request");
    CollectingSink s = new CollectingSink();
    new dev.tokentime.formats.sglang.SglangLogFormat().parse(Files.newInputStream(dir.resolve("sglang-worker.log")),
        new ParseContext("sglang-worker.log", "r", false, null, 2025), s);
    assertEquals(List.of(), s.rejects);
    assertEquals(1, s.steps.size(), s.steps.toString());
    long prefill = java.time.Instant.parse("2025-12-12T19:45:12Z").toEpochMilli() * 1_000_000L;
    assertTrue(s.steps.get(0).contains("ts=" + prefill), s.steps.get(0));
  }

  /**
   * moreutils' ts (its default and a dated format), multilog's TAI64N label, annotate-output's
   * stream tag and podman's k8s-file driver around a vLLM log (constructed from their documented
   * shapes: the folder's README): each reads as the bare log does. A dated ts time before vLLM's
   * header was taken for a logging config's date and level, leaving "03-17 15:37:30 [api_server…"
   * no kind read; the wrappers with a year and µs give the rows their time.
   */
  @Test
  void collectorPrefixesReadLikeTheBareLog() throws Exception {
    Path dir = Path.of("src/test/resources/constructed/collector-prefixes");
    CollectingSink bare = parse(Files.readString(dir.resolve("bare.log")).strip());
    assertTrue(bare.records >= 10 && bare.stats.size() >= 1, bare.records + " " + bare.stats);
    for (String name : List.of("ts-default", "ts-dated", "tai64n", "svlogd-t", "annotate-output", "podman-k8s-file")) {
      CollectingSink got = parse(Files.readString(dir.resolve(name + ".log")).strip());
      assertEquals(List.of(), got.rejects, name);
      assertEquals(List.of(bare.records, bare.other), List.of(got.records, got.other), name);
      assertEquals(bare.stats.stream().map(r -> r.replaceAll("ts=\\d+ ", "")).toList(),
          got.stats.stream().map(r -> r.replaceAll("ts=\\d+ ", "")).toList(), name);
      assertEquals(bare.requests.stream().map(r -> r.id() + " " + r.outputTokens() + " " + r.status()).toList(),
          got.requests.stream().map(r -> r.id() + " " + r.outputTokens() + " " + r.status()).toList(), name);
      boolean micros = Set.of("ts-dated", "podman-k8s-file", "tai64n", "svlogd-t").contains(name);
      String first = got.stats.get(0);
      long second = Long.parseLong(bare.stats.get(0).replaceAll(".*ts=(\\d+) .*", "$1"));
      long at = Long.parseLong(first.replaceAll(".*ts=(\\d+) .*", "$1"));
      assertEquals(micros, at != second, name + ": " + first + " against " + bare.stats.get(0));
      assertTrue(at - second >= 0 && at - second < 1_000_000_000L, name + ": " + first);
    }
  }

  /**
   * GitLab CI's job log with the runner's timestamps ("…Z 01O "), journalctl's -o short-full and
   * -o with-unit ("Mon 2025-03-17 15:37:30 UTC gpu-1 vllm[2107]: "), -o short-monotonic ("[
   * 4519.001203] gpu-1 …") and -o short-unix ("1742225850.001203 gpu-1 …"), and RunPod's console
   * copy ("j6zswihe185nfq[info]"), around the bare log of the folder (constructed from their
   * documented shapes: the folder's README). Each reads as the bare log does and names the line's
   * origin; GitLab's µs become the rows' times, short-full's date gives their year. Before, the
   * resync read these lines without the origin and short-full's year came from the file's date,
   * and a short-monotonic file was not recognised (its first "[ 4519.001203]" read as JSON).
   */
  @Test
  void moreCollectorPrefixesNameTheOriginAndTheTime() throws Exception {
    Path dir = Path.of("src/test/resources/constructed/collector-prefixes");
    String bareText = Files.readString(dir.resolve("bare.log"));
    CollectingSink plain = parse(bareText.strip());
    Map<String, String> origin = new java.util.LinkedHashMap<>();
    origin.put("gitlab-timestamps", "APIServer pid=1");
    origin.put("journalctl-short-full", "gpu-1/vllm[2107] / APIServer pid=1");
    origin.put("journalctl-with-unit", "gpu-1/vllm.service[2107] / APIServer pid=1");
    origin.put("journalctl-short-monotonic", "gpu-1/vllm[2107] / APIServer pid=1");
    origin.put("journalctl-short-unix", "gpu-1/vllm[2107] / APIServer pid=1");
    origin.put("runpod-console", "j6zswihe185nfq / APIServer pid=1");
    // rsyslog's file format without the sender's pid (before, the resync read these lines without
    // their host and tag), runit's svlogd -tt (its UTC time was not read)
    origin.put("rsyslog-file", "gpu-1/vllm / APIServer pid=1");
    origin.put("svlogd-tt", "APIServer pid=1");
    // the bare file tags every other line: behind a wrapper that names an origin, its access lines
    // (tagged) answer the requests received on untagged lines as they do bare (they were other
    // lines, 38 records for 40, each request without its 200), journald's short form as well
    CollectingSink named = parse(bareText.strip().lines().map(l -> "Mar 17 15:37:30 gpu-1 vllm[2107]: " + l)
        .collect(java.util.stream.Collectors.joining("\n")));
    assertEquals(List.of(plain.records, plain.other), List.of(named.records, named.other), "journald short");
    assertEquals(40, plain.records);
    long second = Long.parseLong(plain.stats.get(0).replaceAll(".*ts=(\\d+) .*", "$1"));
    for (Map.Entry<String, String> e : origin.entrySet()) {
      String name = e.getKey();
      String text = Files.readString(dir.resolve(name + ".log"));
      CollectingSink got = parse(text.strip());
      CollectingSink bare = plain;
      assertEquals(List.of(), got.rejects, name);
      assertEquals(List.of(bare.records, bare.other), List.of(got.records, got.other), name);
      assertEquals(bare.stats.stream().map(r -> r.replaceAll("ts=\\d+ ", "")).toList(),
          got.stats.stream().map(r -> r.replaceAll("ts=\\d+ ", "")).toList(), name);
      assertEquals(bare.requests.stream().map(r -> r.id() + " " + r.outputTokens() + " " + r.status()).toList(),
          got.requests.stream().map(r -> r.id() + " " + r.outputTokens() + " " + r.status()).toList(), name);
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      assertEquals("vllm-log", dev.tokentime.ingest.FormatRegistry.standard()
          .sniff(new dev.tokentime.ingest.Sample(name + ".log", bytes, bytes.length)).id(), name);
      long at = Long.parseLong(got.stats.get(0).replaceAll(".*ts=(\\d+) .*", "$1"));
      boolean micros = Set.of("gitlab-timestamps", "rsyslog-file", "svlogd-tt").contains(name);
      assertEquals(micros, at != second, name + ": " + got.stats.get(0));
      assertTrue(at - second >= 0 && at - second < 1_000_000_000L, name + ": " + got.stats.get(0));
      dev.tokentime.testing.RecordingSink r = new dev.tokentime.testing.RecordingSink();
      new dev.tokentime.formats.vllm.VllmLogFormat().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
          new ParseContext(name + ".log", "r", false, null, 2025), r);
      assertEquals("version " + e.getValue(), r.events.get(0)[1] + " " + r.events.get(0)[3], name);
      // without --year, in a file dated a year later: short-full's own date gives the year
      java.time.Instant later = java.time.Instant.parse("2026-06-01T00:00:00Z");
      dev.tokentime.testing.RecordingSink undated = new dev.tokentime.testing.RecordingSink();
      new dev.tokentime.formats.vllm.VllmLogFormat().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
          new ParseContext(name + ".log", "r", false, null, null, later, null), undated);
      boolean dated = Set.of("gitlab-timestamps", "journalctl-short-full", "journalctl-with-unit", "rsyslog-file",
          "svlogd-tt").contains(name);
      long year = java.time.Instant.ofEpochSecond(undated.stats.get(0).tsNs / 1_000_000_000L)
          .atZone(java.time.ZoneOffset.UTC).getYear();
      assertEquals(dated ? 2025 : 2026, year, name);
    }
  }

  /**
   * RunPod serverless's console copy of a worker's log (vllm-project/vllm#15411, a vLLM 0.7 start
   * that failed): "j6zswihe185nfq[info]" right before each line, the worker's own logger's lines
   * too. Every line's message is the line after the tag and its origin the worker; before, the
   * worker's handler lines kept the tag in their message (no start the resync knows) and vLLM's
   * lines named no origin.
   */
  @Test
  void runpodsWorkerTagIsPeeled() throws Exception {
    LineMatcher matcher = new LineMatcher(SPEC);
    List<String> lines = Files.readAllLines(
        Path.of("src/test/resources/real-logs/wrapped/runpod-serverless-worker-startup-fail-vllm15411.log"));
    int tagged = 0;
    for (String line : lines) {
      java.util.regex.Matcher t = java.util.regex.Pattern.compile("^j6zswihe185nfq\\[(?:info|warning|error)\\]").matcher(line);
      if (!t.lookingAt()) {
        continue;
      }
      tagged++;
      MatchedLine m = new MatchedLine();
      matcher.match(1, line, m);
      MatchedLine b = new MatchedLine();
      String inner = line.substring(t.end());
      matcher.match(1, inner, b);
      assertEquals(b.message(), m.message(), line);
      assertEquals(b.kind, m.kind, line);
      String own = b.origin();
      assertEquals(own == null ? "j6zswihe185nfq" : "j6zswihe185nfq/" + own, m.origin(), line);
    }
    assertEquals(4, tagged);
  }

  /**
   * GitLab's runner splits a long line it got in pieces, each with its own header, the later ones
   * marked "+" ("…Z 01O+rest of the line"): the pieces are joined (constructed/collector-prefixes/
   * gitlab-timestamps-split.log, every line over 150 characters in pieces of 100), so the log reads
   * as the unsplit one, each piece after the first an other line. Before, each piece was a line of
   * its own: a Received line's first piece was rejected as truncated.
   */
  @Test
  void gitlabsSplitLinesAreJoined() throws Exception {
    Path dir = Path.of("src/test/resources/constructed/collector-prefixes");
    CollectingSink whole = parse(Files.readString(dir.resolve("gitlab-timestamps.log")).strip());
    String split = Files.readString(dir.resolve("gitlab-timestamps-split.log")).strip();
    long pieces = split.lines().filter(l -> l.startsWith(" 01O+", 27)).count();
    assertEquals(33, pieces);
    CollectingSink got = parse(split);
    assertEquals(List.of(), got.rejects);
    assertEquals(List.of(whole.records, whole.other + pieces), List.of(got.records, got.other));
    assertEquals(whole.stats.stream().map(r -> r.replaceAll("line=\\d+ ", "")).toList(),
        got.stats.stream().map(r -> r.replaceAll("line=\\d+ ", "")).toList());
    assertEquals(whole.requests.stream().map(r -> r.id() + " " + r.arrivalNs() + " " + r.firstTokenNs() + " " + r.outputTokens() + " " + r.status() + " " + r.extras()).toList(),
        got.requests.stream().map(r -> r.id() + " " + r.arrivalNs() + " " + r.firstTokenNs() + " " + r.outputTokens() + " " + r.status() + " " + r.extras()).toList());
    // a raw trace's section markers (GitLab's "section_start:TS:NAME\r\e[0K", the header after it
    // often a "+" piece) are no reject: the marker is dropped, the header an other line
    String e = "\u001b";
    CollectingSink sections = parse("2026-01-21T09:47:05.094269Z 00O section_start:1768988825:prepare_executor\r" + e + "[0K\n"
        + "2026-01-21T09:47:05.094270Z 00O+" + e + "[0K" + e + "[0K" + e + "[36;1mPreparing the \"docker+machine\" executor"
        + e + "[0;m" + e + "[0;m\n"
        + "2026-01-21T09:47:06.000000Z 01O INFO 08-12 10:00:03 [async_llm.py:346] Added request r1.\n"
        + "2026-01-21T09:47:07.000000Z 00O section_end:1768988846:prepare_executor\r" + e + "[0K");
    assertEquals(List.of(), sections.rejects);
    assertEquals(List.of(1L, 3L), List.of((long) sections.records, (long) sections.other));
  }

  /**
   * A GitLab runner line is held until the next line shows whether it goes on; when that next
   * line is the file's last, without its newline, the held line (which had one) is still a
   * terminated line: a near miss of a kind in it is an other line, not "truncated last line"
   * (it was rejected so, as the line after it would have been).
   */
  @Test
  void aHeldGitlabLineIsNoLastLineWhenTheLineAfterItIsCut() throws Exception {
    String held = "2025-08-12T10:00:03.123456Z 01O INFO 08-12 10:00:03 [x.py:1] Avg prompt throughput is logged every 5 s";
    String last = "INFO 08-12 10:00:04 [async_llm.py:346] Added request chatcmpl-a1.";
    for (int batch : new int[] {0, 2}) {
      // the sequential reader, and the batched one (lines matched on worker threads)
      CollectingSink s = new CollectingSink();
      ((SpecFormat) new dev.tokentime.formats.vllm.VllmLogFormat()).run(
          new ByteArrayInputStream((held + "\n" + last).getBytes(StandardCharsets.UTF_8)),
          new ParseContext("t.log", "r", false, null, 2025), s, null, p -> {
            if (batch > 0) {
              p.batches(batch, 1024);
            }
          });
      assertEquals(List.of(), s.rejects, "batch " + batch);
      assertEquals(List.of(1L, 1L), List.of(s.records, s.other), "batch " + batch);
    }
    // the last line itself, cut, is still named so
    CollectingSink cut = new CollectingSink();
    new dev.tokentime.formats.vllm.VllmLogFormat().parse(new ByteArrayInputStream((held + "\n"
        + "2025-08-12T10:00:04.123456Z 01O INFO 08-12 10:00:04 [x.py:1] Avg prompt throughput: 0.4 tokens/s, Avg gen").getBytes(StandardCharsets.UTF_8)),
        new ParseContext("t.log", "r", false, null, 2025), cut);
    assertEquals(1, cut.rejects.size());
    assertEquals(2L, cut.rejects.get(0).lineNo());
    assertTrue(cut.rejects.get(0).reason().startsWith("truncated last line"), cut.rejects.toString());
    assertEquals(1L, cut.other);
  }

  /**
   * rsyslog's file format without the sender's pid ("… gpu-1 vllm: ") is peeled only before a
   * start a log line has, and never with a level word for its host: a tracing header ("…Z  INFO
   * engine.core: [x]") and free text after a timestamp stay as they were (the timestamp alone is
   * the container prefix), where an rsyslog line names its host and tag.
   */
  @Test
  void rsyslogsTagWithoutAPidIsPeeledOnlyBeforeALineStart() {
    LineMatcher matcher = new LineMatcher(SPEC);
    MatchedLine m = new MatchedLine();
    matcher.match(1, "2025-08-12T10:00:03.123456+00:00 gpu-1 vllm: INFO 08-12 10:00:03 [async_llm.py:346] Added request r1.", m);
    assertEquals(List.of("journaldiso", "vllm"), m.prefixes);
    assertEquals("added", m.kind.name());
    assertEquals("gpu-1/vllm", m.origin());
    matcher.match(2, "2025-05-15T08:05:10.736Z  INFO engine.core: [x] Added request r2.", m);
    assertTrue(!m.prefixes.contains("journaldiso"), m.prefixes.toString());
    matcher.match(3, "2025-08-12T10:00:03.123456+00:00 Processed prompts: 100%|##########| 1/1", m);
    assertEquals(List.of("container"), m.prefixes);
    matcher.match(4, "2025-08-12T10:00:03.123456+00:00 gpu-1 vllm: Traceback (most recent call last):", m);
    assertEquals(List.of("container"), m.prefixes);
    assertEquals("gpu-1 vllm: Traceback (most recent call last):", m.message());
  }

  /**
   * TAI64N labels (multilog t, svlogd -t, s6-log t) are the line's time to the ns. s6-log's count
   * leap seconds (TAI: the Unix time + 37 s), multilog's and svlogd's do not (+ 10 s): the same
   * lines under each (constructed/collector-prefixes/tai64n.log, svlogd-t.log) give the same rows
   * at the same instants, told apart by the line's own second. A label on a line with no time of
   * its own, before any line told, is read as svlogd's. Before, the label was not read.
   */
  @Test
  void tai64nLabelsAreTheLinesTimeWhicheverToolWroteThem() throws Exception {
    Path dir = Path.of("src/test/resources/constructed/collector-prefixes");
    for (String name : List.of("tai64n", "svlogd-t")) {
      CollectingSink got = parse(Files.readString(dir.resolve(name + ".log")).strip());
      // the first stats line: 2025-03-17 15:38:03.001203 UTC
      assertTrue(got.stats.get(0).contains("ts=1742225883001203000 "), name + ": " + got.stats.get(0));
    }
    LogTimes times = new LogTimes(new ParseContext("t.log", "r", false, null, 2025), new CollectingSink(), "s");
    MatchedLine m = new MatchedLine();
    LineMatcher matcher = new LineMatcher(SPEC);
    matcher.match(1, "@4000000067d841c400125b38 Traceback (most recent call last):", m);
    assertEquals(1742225850001203000L, times.resolve(m));
    // the next line's own second says s6-log wrote these labels (TAI): from then on 37 s off
    matcher.match(2, "@4000000067d841df005a3d90 INFO 03-17 15:37:30 [utils.py:233] x", m);
    assertEquals(1742225850005914000L, times.resolve(m));
    matcher.match(3, "@4000000067d841e000000000 Traceback (most recent call last):", m);
    assertEquals(1742225851000000000L, times.resolve(m));
  }

  /**
   * rsyslog's file format without a pid, a vLLM crash's traceback under it
   * (constructed/collector-prefixes/rsyslog-file-traceback.log): the traceback's lines start no
   * line the layer knows, so its prefix leaves them; once a line of the file named the host and
   * tag, they are peeled from those lines too, and the crash is counted with its origin. Before,
   * "gpu-1 vllm: Traceback (most recent call last):" was the message: no crash, no origin. The
   * batched reader (lines matched on worker threads, out of order) reads it alike.
   */
  @Test
  void rsyslogsHostAndTagStayOnATracebacksLines() throws Exception {
    byte[] text = Files.readAllBytes(Path.of("src/test/resources/constructed/collector-prefixes/rsyslog-file-traceback.log"));
    for (int batch : new int[] {0, 2, 3}) {
      dev.tokentime.testing.RecordingSink s = new dev.tokentime.testing.RecordingSink();
      ((SpecFormat) new dev.tokentime.formats.vllm.VllmLogFormat()).run(new ByteArrayInputStream(text),
          new ParseContext("t.log", "r", false, null, 2025), s, null, p -> {
            if (batch > 0) {
              p.batches(batch, 1 << 16);
            }
          });
      assertEquals(List.of(), s.c.rejects, "batch " + batch);
      assertEquals(List.of(3L, 5L), List.of(s.c.records, s.c.other), "batch " + batch);
      assertEquals(List.of("1 version gpu-1/vllm / APIServer pid=1 1742225850001203000",
          "3 crash gpu-1/vllm 1742225885120044000"),
          s.events.stream().map(e -> e[0] + " " + e[1] + " " + e[3] + " " + e[4]).toList(), "batch " + batch);
    }
    // the matcher peels the remembered host and tag only after another prefix, and only once told
    LineMatcher matcher = new LineMatcher(SPEC);
    MatchedLine m = new MatchedLine();
    matcher.match(1, "2025-08-12T10:00:03.123456+00:00 gpu-1 vllm: INFO 08-12 10:00:03 [async_llm.py:346] Added request r1.", m);
    matcher.remember(m);
    matcher.match(2, "2025-08-12T10:00:04.123456+00:00 gpu-1 vllm: Traceback (most recent call last):", m);
    assertEquals(List.of("container", "journaldiso"), m.prefixes);
    assertEquals("gpu-1/vllm", m.origin());
    assertEquals("Traceback (most recent call last):", m.message());
    matcher.match(3, "gpu-1 vllm: Traceback (most recent call last):", m);
    assertEquals(List.of(), m.prefixes);
    matcher.match(4, "2025-08-12T10:00:04.123456+00:00 gpu-2 vllm: Traceback (most recent call last):", m);
    assertEquals(List.of("container"), m.prefixes);
  }

  /**
   * Colour codes whose ESC a paste turned into a bracket ("[[36m(VLLMActor pid=50643) [[0m INFO …",
   * real-logs/lifecycle/23-ray-actor-ansi-lost-finished-shutdown-vllm7904.log) are peeled as those
   * that lost their ESC are: the line names its actor and no unknown wrapper (the resync peeled
   * "[[36m" and "[[0m " as wrappers no prefix knows, --explain listing them).
   */
  @Test
  void colourCodesWithTheirEscPastedAsABracketArePeeled() throws Exception {
    String line = Files.readAllLines(Path.of("src/test/resources/real-logs/lifecycle/23-ray-actor-ansi-lost-finished-shutdown-vllm7904.log")).get(0);
    LineMatcher matcher = new LineMatcher(SPEC);
    MatchedLine m = new MatchedLine();
    matcher.match(1, line, m);
    assertEquals(List.of("ansilost", "process", "ansilost", "vllm"), m.prefixes);
    assertEquals("VLLMActor pid=50643", m.origin());
    assertEquals("finished", m.kind.name());
  }

  /** svlogd's time is UTC whatever --tz says (the zone is for local times; svlogd writes none). */
  @Test
  void svlogdsTimeIsUtcUnderAnyTz() throws Exception {
    String line = "2025-08-12_10:00:03.12345 " + INNER.get(0) + "\n";
    dev.tokentime.testing.RecordingSink s = new dev.tokentime.testing.RecordingSink();
    new dev.tokentime.formats.vllm.VllmLogFormat().parse(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("t.log", "r", false, java.time.ZoneId.of("America/Los_Angeles"), 2025), s);
    assertEquals(1754992803123450000L, s.stats.get(0).tsNs);
  }

  /**
   * Fluentd's stdout output as a fluentd daemonset's log shows it (a published excerpt,
   * real-logs/wrapped/fluentd-stdout-k8s-daemonset.log): "TIME +0000 TAG: {record}". The record is
   * read by the layer's envelopes: the line is its "log" (or "message"), at the event's time to the
   * ns, from the record's pod and container. Before, the whole line was the message (a vLLM line
   * in it was read by the resync up to its JSON tail: a stats line was rejected as cut).
   */
  @Test
  void fluentdsStdoutRecordIsReadByItsEnvelope() throws Exception {
    LineMatcher matcher = new LineMatcher(SPEC);
    List<String> lines = Files.readAllLines(Path.of("src/test/resources/real-logs/wrapped/fluentd-stdout-k8s-daemonset.log"));
    MatchedLine m = new MatchedLine();
    matcher.match(1, lines.get(0), m);
    assertEquals("This is stdout #6473", m.message());
    assertEquals("log-demo-ff9cc9745-t6tbd/log-demo", m.origin());
    assertEquals(List.of("fluentd", "docker-json"), m.prefixes);
    matcher.match(2, lines.get(1), m);
    assertEquals("This is error #6473", m.message());
    // a vLLM stats line in the same shape: the bare line's row at the event's time
    String bare = INNER.get(0);
    CollectingSink got = parse("2019-06-18 10:12:44.393970145 +0000 kubernetes.var.log.containers.vllm-0_default_vllm-"
        + "ab".repeat(32) + ".log: " + json(Map.of("log", bare + "\n", "stream", "stdout")));
    assertEquals(List.of(), got.rejects);
    assertEquals(1, got.stats.size());
    String row = parse(bare).stats.get(0).replaceAll("ts=\\d+ ", "");
    assertEquals(row, got.stats.get(0).replaceAll("ts=\\d+ ", ""));
    assertTrue(got.stats.get(0).contains("ts=1560852764393970145 "), got.stats.get(0));
    // not JSON after the tag: the prefix is peeled, the rest is no line of a kind
    matcher.match(3, "2019-06-18 10:12:44.393970145 +0000 kube.x.log: {not json", m);
    assertEquals(List.of("fluentd"), m.prefixes);
    assertEquals(null, m.kind);
  }

  /**
   * Fluent Bit's stdout output as published (real-logs/wrapped/fluentbit-stdout-*.log): "[0] TAG:
   * [[TIME, {}], {record}]" (2.1+) or "[0] TAG: [TIME, {record}]", the record as msgpack-c prints
   * it, strings unescaped. The record is read by the layer's envelopes: the line is its "log", at
   * the event's time to the ns, from the record's pod and container, else the tag's (the tail
   * input's file name). A "log" that ended in a newline is printed with it: the record's rest is a
   * line of its own, an other line. Before, no prefix knew the shape: a vLLM line in it was read
   * by the resync with the record's tail (a stats line was rejected as cut) and no pod.
   */
  @Test
  void fluentBitsStdoutRecordIsReadByItsEnvelope() throws Exception {
    LineMatcher matcher = new LineMatcher(SPEC);
    Path dir = Path.of("src/test/resources/real-logs/wrapped");
    MatchedLine m = new MatchedLine();
    matcher.match(1, Files.readString(dir.resolve("fluentbit-stdout-k8s-cri-fbsandbox.log")).strip(), m);
    assertEquals(List.of("fluentbit", "docker-json"), m.prefixes);
    assertEquals("2025/05/20 13:28:46 localhost 10.244.0.5:33284 \"GET / HTTP/1.1\" 200 19 \"curl/8.7.1\" 20.708\u00b5s", m.message());
    assertEquals("demo-68676bfc4-zz99m/demo", m.origin());
    assertEquals(List.of("1747747726.566696094", "2025-05-20T13:28:46.566696094Z"),
        m.times.stream().map(t -> t.parts()[0]).toList());
    // two pods interleaved, named by the tag alone; each record's rest an other line
    List<String> lines = Files.readAllLines(dir.resolve("fluentbit-stdout-docker-newline.log"));
    matcher.match(1, lines.get(0), m);
    assertEquals("Count 249", m.message());
    assertEquals("simple-app-deployment-dd44b5ff4-2zhps/simple-app", m.origin());
    matcher.match(3, lines.get(2), m);
    assertEquals("simple-app-deployment-dd44b5ff4-58bg4/simple-app", m.origin());
    CollectingSink file = parse(String.join("\n", lines));
    assertEquals(List.of(), file.rejects);
    assertEquals(List.of(0L, 10L), List.of(file.records, file.other));
    // the older shape, a record without a line: the prefix peeled, no kind, no reject
    CollectingSink old = parse(Files.readString(dir.resolve("fluentbit-stdout-v012-237.log")).strip());
    assertEquals(List.of(), old.rejects);
    assertEquals(4, old.other);
    matcher.match(1, "[0] random.0: [1492432065.000872449, {\"rand_value\"=>18018567782972291650}]", m);
    assertEquals(List.of("fluentbit"), m.prefixes);
    // a vLLM stats line in each shape: the bare line's row, at the event's time, of its pod
    String bare = INNER.get(0);
    String row = parse(bare).stats.get(0).replaceAll("ts=\\d+ ", "");
    String tag = "[0] kube.var.log.containers.vllm-1_default_vllm-" + "0123456789abcdef".repeat(4) + ".log: ";
    for (String text : List.of(
        tag + "[[1754992803.123456789, {}], {\"time\"=>\"2025-08-12T10:00:03.123456789Z\", \"stream\"=>\"stdout\", \"_p\"=>\"F\", "
            + "\"log\"=>\"" + bare + "\", \"kubernetes\"=>{\"pod_name\"=>\"vllm-0\", \"namespace_name\"=>\"default\", "
            + "\"labels\"=>{\"app\"=>\"vllm\"}, \"container_name\"=>\"vllm\"}}]",
        tag + "[[1754992803.123456789, {}], {\"log\"=>\"" + bare + "\n\", \"stream\"=>\"stdout\", \"time\"=>\"2025-08-12T10:00:03.123456789Z\"}]")) {
      dev.tokentime.testing.RecordingSink s = new dev.tokentime.testing.RecordingSink();
      new dev.tokentime.formats.vllm.VllmLogFormat().parse(new ByteArrayInputStream((text + "\n").getBytes(StandardCharsets.UTF_8)),
          new ParseContext("t.log", "r", false, null, 2025), s);
      assertEquals(List.of(), s.c.rejects, text);
      assertEquals(1, s.stats.size());
      assertEquals(1754992803123456789L, s.stats.get(0).tsNs);
      boolean split = text.contains("\n");
      // the record's pod over the tag's; the tag's where the record names none
      assertEquals(split ? "vllm-1/vllm / Engine 000" : "vllm-0/vllm / Engine 000", s.stats.get(0).instance);
      assertEquals(List.of(1L, split ? 1L : 0L), List.of(s.c.records, s.c.other));
    }
    CollectingSink got = parse(tag + "[1754992803.123456789, {\"log\"=>\"" + bare + "\"}]");
    assertEquals(row, got.stats.get(0).replaceAll("ts=\\d+ ", ""));
    // no record after the time: the prefix is peeled, the rest is no line of a kind
    matcher.match(3, "[0] kube.x.log: [1754992803.1, {not a record", m);
    assertEquals(List.of("fluentbit"), m.prefixes);
    assertEquals(null, m.kind);
  }

  /**
   * az containerapp logs show's JSON lines (Azure/azure-cli#29767's published line): the line is
   * its "Log", at its "TimeStamp". Before, no envelope had the key: the object was the message.
   */
  @Test
  void azureContainerAppsLogLinesAreAnEnvelope() throws Exception {
    LineMatcher matcher = new LineMatcher(SPEC);
    String line = Files.readString(Path.of("src/test/resources/real-logs/wrapped/azure-containerapp-logs-show-cli29767.log")).strip();
    MatchedLine m = new MatchedLine();
    matcher.match(1, line, m);
    assertEquals("azure-containerapp", m.prefixes.get(0));
    assertTrue(m.message().startsWith("UTC time: 2024-08-22 08:37:18.326665+00:00, IST time") && m.message().endsWith(
        "\"GET /secrets/foobar/?api-version=7.5 HTTP/11\" 401 97"), m.message());
    assertEquals(List.of("2024-08-22T08:37:19.1646828Z"), m.times.stream().map(t -> t.parts()[0]).toList());
    CollectingSink got = parse(json(Map.of("TimeStamp", "2025-08-12T10:00:03.1234567Z", "Log", INNER.get(0))));
    assertEquals(List.of(), got.rejects);
    assertTrue(got.stats.get(0).startsWith("line=1 ts=1754992803123456700 running=1 "), got.stats.get(0));
  }

  /**
   * Older azure-cli wrote the day alone as a Container Apps line's TimeStamp ("2024-04-18T00:00:00",
   * no zone, Azure/azure-cli#28873): every such line was rejected for its time; now the envelope
   * is still peeled and the line has the inner line's own time, never midnight.
   */
  @Test
  void aDayAloneInAzureContainerAppsTimeStampIsNoTime() throws Exception {
    String real = Files.readString(Path.of("src/test/resources/real-logs/wrapped/azure-containerapp-logs-show-cli28873.log")).strip();
    CollectingSink got = parse(real);
    assertEquals(List.of(), got.rejects);
    assertEquals(3, got.other);
    LineMatcher matcher = new LineMatcher(SPEC);
    MatchedLine m = new MatchedLine();
    matcher.match(1, real.lines().findFirst().orElseThrow(), m);
    assertEquals("azure-containerapp", m.prefixes.get(0));
    assertEquals("data: []", m.message());
    assertEquals(List.of(), m.times);
    got = parse(json(Map.of("TimeStamp", "2024-04-18T00:00:00", "Log", INNER.get(0))));
    assertEquals(List.of(), got.rejects);
    // 2025-08-12 10:00:03 UTC: the inner line's month-day time in the context's year
    assertTrue(got.stats.get(0).startsWith("line=1 ts=1754992803000000000 running=1 "), got.stats.get(0));
  }

  /**
   * Docker's json-file and containerd's CRI logs write Go's RFC3339Nano, which drops trailing zeros
   * ("…33.12345678Z" beside "…31.123456789Z"): one clock, so a request keeps its end (each digit
   * count had a clock of its own, and a request whose lines fell on two lost its E2E).
   */
  @Test
  void aNanosecondWritersTrimmedZerosAreOneClock() throws Exception {
    String received = "INFO 09-02 15:53:31 [logger.py:1] Received request chatcmpl-a: prompt: 'x', params: None.";
    String finished = "INFO 09-02 15:53:33 [x.py:1] Finished request chatcmpl-a.";
    List<Long> e2e = List.of(1_999_999_911L, 2_000_000_009L);
    for (String text : List.of(
        json(Map.of("log", received + "\n", "stream", "stdout", "time", "2025-09-02T15:53:31.123456789Z")) + "\n"
            + json(Map.of("log", finished + "\n", "stream", "stdout", "time", "2025-09-02T15:53:33.1234567Z")),
        "2025-09-02T15:53:31.12345678Z stdout F " + received + "\n2025-09-02T15:53:33.123456789Z stdout F " + finished)) {
      dev.tokentime.testing.RecordingSink s = new dev.tokentime.testing.RecordingSink();
      new dev.tokentime.formats.vllm.VllmLogFormat().parse(
          new ByteArrayInputStream((text + "\n").getBytes(StandardCharsets.UTF_8)), new ParseContext("t.log", "r", false, null, 2025), s);
      assertEquals(List.of(), s.c.rejects);
      assertEquals(1, s.requests.size());
      var r = s.requests.get(0);
      assertEquals(e2e.get(e2e.size() == 2 && text.startsWith("{") ? 0 : 1), r.finishedNs - r.arrivalNs, text);
    }
  }

  /**
   * Published lines of collectors' shapes no prefix or envelope read whole before: journald's short
   * form in a Chinese locale around a vLLM traceback (vllm-project/vllm#5376: "6月 10 16:45:05
   * ma-MS-TZZ-Z690M bash[107468]: "; the month "6月" is two characters, so the line named no
   * origin and kept its header in its message), a Fluent Bit record of a CRI log read by its cri
   * parser ("logtag", "message" and the kubernetes filter's metadata: its pod was lost), Filebeat's
   * events in a bulk request and Logstash's json_lines (Elastic's "@timestamp": no time was taken,
   * and no host), torchrun's "[default0]:" before its workers' lines (the line kept it). Each
   * line's message is the collector's text, its origin the collector's.
   */
  @Test
  void realCollectorRecordsNameTheirOriginAndTime() throws Exception {
    LineMatcher matcher = new LineMatcher(SPEC);
    Path dir = Path.of("src/test/resources/real-logs/wrapped");
    List<String> zh = Files.readAllLines(dir.resolve("journald-zh-month-frames-vllm5376.log"));
    assertEquals(10, zh.size());
    for (String line : zh) {
      MatchedLine m = new MatchedLine();
      matcher.match(1, line, m);
      assertEquals(List.of("journald"), m.prefixes, line);
      assertEquals("ma-MS-TZZ-Z690M/bash[107468]", m.origin(), line);
      assertEquals(line.substring(line.indexOf("]: ") + 3), m.message(), line);
    }
    // torchrun's prefix of its workers' tee'd lines, as a Megatron launcher's log has it
    for (String line : Files.readAllLines(dir.resolve("torchrun-role-rank-prefix-launcher.log"))) {
      MatchedLine m = new MatchedLine();
      matcher.match(1, line, m);
      assertEquals("default0", m.origin(), line);
      assertEquals(line.substring("[default0]: ".length()), m.message(), line);
    }
    MatchedLine k8s = new MatchedLine();
    matcher.match(1, Files.readString(dir.resolve("fluentbit-cri-parser-record-k8s.log")).strip(), k8s);
    assertEquals("this is just an event", k8s.message());
    assertEquals("ops-678d8cd7bc-z72r5/humio-operator", k8s.origin());
    List<String> bulk = Files.readAllLines(dir.resolve("filebeat-bulk-ecs-victorialogs.log"));
    List<String> got = new ArrayList<>();
    for (String line : bulk) {
      MatchedLine m = new MatchedLine();
      matcher.match(1, line, m);
      got.add(m.prefixes + " " + m.message() + " " + m.times.stream().map(t -> t.parts()[0]).toList());
    }
    assertEquals(List.of(
        "[] " + bulk.get(0) + " []",
        "[ecs-json] foobar [2023-06-06T04:48:11.735Z]",
        "[] " + bulk.get(2) + " []",
        "[ecs-json] baz [2023-06-06T04:48:12.735Z]",
        "[] " + bulk.get(4) + " []",
        "[ecs-json] xyz [2023-06-06T04:48:13.735Z]"), got);
    got.clear();
    for (String line : Files.readAllLines(dir.resolve("logstash-json-monolog.log"))) {
      MatchedLine m = new MatchedLine();
      matcher.match(1, line, m);
      got.add(m.origin() + " " + m.message() + " " + m.times.stream().map(t -> t.parts()[0]).toList());
    }
    assertEquals(List.of("server Logstash info [2024-01-15T10:00:00.000Z]", "server Logstash error [2024-01-15T10:01:00.000Z]",
        "server Logstash warning [2024-01-15T10:02:00.000Z]"), got);
  }

  /**
   * pm2's JSON logs (log_type "json"): the time under "timestamp" in pm2's log_date_format, local
   * with a year and no zone ("2019-01-24 15:41:06"), and "pm2 logs" printing such a record after its
   * "0|app | ". Before, a timestamp that is no RFC 3339 instant rejected the whole line ("not a
   * valid time"), and the record after pm2's prefix was the message; now the time is a local
   * date-time (one of another shape gives none), the app the line's origin, once.
   */
  @Test
  void pm2sJsonRecordsAreReadWithTheirLocalTime() throws Exception {
    Path dir = Path.of("src/test/resources/real-logs/wrapped");
    String home = Files.readString(dir.resolve("pm2-json-log-date-format-home.log"));
    CollectingSink s = parse(home.strip());
    assertEquals(List.of(), s.rejects);
    assertEquals(4, s.other);
    LineMatcher matcher = new LineMatcher(SPEC);
    MatchedLine m = new MatchedLine();
    matcher.match(1, home.lines().findFirst().orElseThrow(), m);
    assertEquals("home", m.origin());
    assertEquals(List.of("2019-01-24 15:41:06"), m.times.stream().map(t -> t.parts()[0] + " " + t.parts()[1]).toList());
    m = new MatchedLine();
    matcher.match(1, Files.readString(dir.resolve("pm2-logs-json-record-stat-arb.log")).strip(), m);
    assertEquals("stat-arb", m.origin());
    // the app's own "[2025-10-29 10:53:35] " is peeled as the bracketed header it is; its colour codes are gone
    assertEquals("INFO: \uD83D\uDCCA MINA/USDT / POLYX/USDT", m.message());
    assertEquals("2025-10-29 10:53:35", m.times.get(0).parts()[0] + " " + m.times.get(0).parts()[1]);
    // a vLLM line in pm2's JSON: its row at the record's local time, to its digits; a timestamp of
    // another shape (a zone after a space) is no time: the line keeps its own
    String line = INNER.get(0);
    CollectingSink local = parse(json(Map.of("message", line + "\n", "timestamp", "2025-08-12 10:00:03.5", "type", "out",
        "process_id", 0, "app_name", "vllm")));
    assertTrue(local.stats.get(0).startsWith("line=1 ts=1754992803500000000 "), local.stats.get(0));
    CollectingSink zoned = parse(json(Map.of("message", line, "timestamp", "2025-08-12 10:00:03 +02:00", "app_name", "vllm")));
    assertEquals(List.of(), zoned.rejects);
    assertTrue(zoned.stats.get(0).startsWith("line=1 ts=1754992803000000000 "), zoned.stats.get(0));
  }

  /**
   * A terminal capture (script, screen -L, tmux pipe-pane) keeps the screen's control around the
   * lines (constructed/terminal-capture): the cursor hidden before a line ("ESC[?25l"), tput
   * sgr0's "ESC(B", an erase before a carriage return ("ESC[2K\r"), a prompt's window title
   * (OSC, ended by BEL). Before, the first two lines were other lines (the sequence before the
   * header) and the last two rejected for their BEL and CR; now the capture reads as the bare lines.
   */
  @Test
  void terminalCapturesControlIsNoPartOfALine() throws Exception {
    Path dir = Path.of("src/test/resources/constructed/terminal-capture");
    CollectingSink capture = parse(Files.readString(dir.resolve("script-vllm-serve.log")).stripTrailing());
    CollectingSink bare = parse(Files.readString(dir.resolve("bare.log")).stripTrailing());
    assertEquals(List.of(), capture.rejects);
    assertEquals(3, bare.stats.size());
    assertEquals(bare.stats.stream().map(r -> r.replaceFirst("^line=\\d+ ", "")).toList(),
        capture.stats.stream().map(r -> r.replaceFirst("^line=\\d+ ", "")).toList());
    assertEquals(2, capture.other, "script's header and the prompt");
  }

  @Test
  void realWrappedExcerptsAreRead() throws Exception {
    String text = Files.readString(Path.of("src/test/resources/real-logs/wrapped/excerpts.log"));
    CollectingSink s = new CollectingSink();
    long lines = new dev.tokentime.formats.vllm.VllmLogFormat().parse(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("excerpts.log", "r", false, null, 2025), s);
    assertEquals(8, lines);
    assertEquals(List.of(), s.rejects);
    assertEquals(1, s.other, "the route line of #16107 carries no figures");
    assertEquals(3, s.stats.size());
    assertEquals(4, s.requests.size(), "requests 1 and 2 of vllm-rbln, the desktop's and the CI runner's");
  }

  /**
   * vLLM 0.10's rank-tagged worker and Ray Data's two-level actor name: the crash carries its
   * process (its instance was blank: the tags fell to the resync that names nothing).
   */
  @Test
  void realProcessTagsNameTheCrashesInstance() throws Exception {
    Map<String, String> want = Map.of("vllmworker-tp-tag-ascend2497.log", "VllmWorker TP1 pid=21355",
        "raydata-nested-actor-crash.log", "240.248.0.198 / MapWorker(MapBatches(vLLMEngineStageUDF)) pid=589");
    for (Map.Entry<String, String> e : want.entrySet()) {
      dev.tokentime.testing.RecordingSink s = new dev.tokentime.testing.RecordingSink();
      try (var in = Files.newInputStream(Path.of("src/test/resources/real-logs/wrapped", e.getKey()))) {
        new dev.tokentime.formats.vllm.VllmLogFormat().parse(in, new ParseContext(e.getKey(), "r", false, null, 2025), s);
      }
      assertEquals(List.of("crash " + e.getValue()), s.events.stream().map(ev -> ev[1] + " " + ev[3]).toList(), e.getKey());
    }
  }

  static CollectingSink parse(String text) throws Exception {
    CollectingSink s = new CollectingSink();
    new dev.tokentime.formats.vllm.VllmLogFormat().parse(
        new ByteArrayInputStream((text + "\n").getBytes(StandardCharsets.UTF_8)),
        new ParseContext("t.log", "r", false, null, 2025), s);
    return s;
  }
}
