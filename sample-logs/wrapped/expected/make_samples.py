#!/usr/bin/env python3
"""Writes sample-logs/wrapped/*.log: one short vLLM 0.11 log (a server start, one streamed
request, one stats line) in each wrapper a log collector puts around lines, and
expected.json: what each file must give, computed here from the times the lines were written
with (no tokentime code). Shapes of the wrappers: expected/PROVENANCE.md.

Each file is its own hour of 2025 so the files of the run `wrapped` do not overlap; its request
ids carry the file's name. Times are UTC unless the wrapper says otherwise:
 - a wrapper time with a year (RFC 3339, syslog 5424, journald JSON, docker json-file, docker
   desktop) is the line's time, at its own resolution; vLLM's own header then tells its zone;
 - else the line's time is vLLM's own MM-DD HH:MM:SS (1 s) in UTC (the year from --year 2025).
Run: python3 make_samples.py (from this folder)."""
import csv, io, json, os
from datetime import datetime, timedelta, timezone

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
UTC = timezone.utc


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def ns(dt):
    d = dt - EPOCH
    return (d.days * 86400 + d.seconds) * 1_000_000_000 + d.microseconds * 1000


def inner_lines(name, t0, proc):
    """The bare vLLM lines: (offset in ms from t0, text after vLLM's header or None for uvicorn)."""
    rid = "chatcmpl-" + name.replace("-", "")
    p = proc + " " if proc else ""
    L = []
    def hdr(t, src):
        return f"{p}INFO {t:%m-%d %H:%M:%S} [{src}] "
    L.append((0, lambda t: hdr(t, "api_server.py:1790") + "vLLM API server version 0.11.0"))
    L.append((1200, lambda t: hdr(t, "logger.py:43") + f"Received request {rid}: params: SamplingParams(n=1, temperature=0.7, max_tokens=16), prompt_token_ids: [101, 102, 103, 104], lora_request: None."))
    L.append((1210, lambda t: f'{p}INFO:     10.0.0.7:51200 - "POST /v1/chat/completions HTTP/1.1" 200 OK'))
    L.append((1215, lambda t: hdr(t, "async_llm.py:346") + f"Added request {rid}."))
    for i, off in enumerate((1420, 1650, 2880)):
        fin = "stop" if i == 2 else "None"
        L.append((off, (lambda i, fin: lambda t: hdr(t, "logger.py:71") + f"Generated response {rid} (streaming delta): output: 'tok{i}', output_token_ids: [{1000 + i}], finish_reason: {fin}")(i, fin)))
    L.append((3100, lambda t: hdr(t, "loggers.py:127") + "Engine 000: Avg prompt throughput: 0.4 tokens/s, Avg generation throughput: 0.3 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, Prefix cache hit rate: 0.0%"))
    return rid, L


def build(name, hour, wrap, proc="(APIServer pid=1)", inner_tz=UTC, wrapper_exact=True,
          ident=None, stats_ident=None, extra=None, ext=".log", head=None):
    """wrap(t_utc, text) -> list of physical lines; wrapper_exact: the wrapper's time is the line's."""
    t0 = datetime(2025, 8, 12, hour, 0, 0, tzinfo=UTC)
    rid, L = inner_lines(name, t0, proc)
    phys = [] if head is None else [head]
    times = []
    for off, f in L:
        t = t0 + timedelta(milliseconds=off)
        local = t.astimezone(inner_tz)
        text = f(local)
        phys.extend(wrap(t, text))
        line_t = ns(t) if wrapper_exact else ns(t.replace(microsecond=0))
        times.append(line_t)
    # expected: lines 1 version (event), 2 received, 3 access (tied), 4 added, 5-7 deltas, 8 stats
    proc_name = None if proc is None else proc.strip("()")
    inst = " / ".join(x for x in (ident, proc_name) if x) or None
    sinst = " / ".join(x for x in (stats_ident if stats_ident is not None else ident, "Engine 000") if x)
    exp = {
        "file": name + ext,
        "lines": len(phys),
        "records": 8, "other": len(phys) - 8, "rejected": 0,
        "request": {"request_id": rid, "arrival_ns": times[1], "queued_ns": times[3],
                    "first_token_ns": times[4], "last_token_ns": times[6], "finished_ns": times[6],
                    "prompt_tokens": 4, "output_tokens": 3, "status": "ok", "http_status": 200,
                    "instance": inst},
        "stats": {"ts_ns": times[7], "running": 1, "waiting": 0, "kv_usage": 0.001, "instance": sinst},
        "version_ts_ns": times[0],
    }
    if extra:
        exp.update(extra)
    with open(os.path.join(OUT, name + ext), "w") as f:
        f.write("".join(l + "\n" for l in phys))
    return exp


def to_ms(e):
    """A wrapper that keeps milliseconds: the expected times rounded down to them."""
    for k in ("arrival_ns", "queued_ns", "first_token_ns", "last_token_ns", "finished_ns"):
        e["request"][k] = e["request"][k] // 1_000_000 * 1_000_000
    e["stats"]["ts_ns"] = e["stats"]["ts_ns"] // 1_000_000 * 1_000_000
    e["version_ts_ns"] = e["version_ts_ns"] // 1_000_000 * 1_000_000


def rfc(t, digits):
    frac = f"{t.microsecond:06d}" + "000"
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ("." + frac[:digits] if digits else "") + "Z"


expected = []
# Kubernetes CRI (containerd): the Received line (long) split into two P pieces and an F
def cri(t, text):
    ts = rfc(t, 9)
    if "Received request" in text:
        a, b = text[:60], text[60:120]
        return [f"{ts} stdout P {a}", f"{ts} stdout P {b}", f"{ts} stdout F {text[120:]}"]
    return [f"{ts} stdout F {text}"]
expected.append(build("cri", 0, cri, extra={"other_note": "2 partial pieces joined into the Received line, 1 /health-free log: other = the 2 P lines"}))

# kubectl logs --timestamps: UTC with 9 digits; vLLM's own header in the pod's zone (-07:00, as
# in vllm-project/vllm#16107)
PDT = timezone(timedelta(hours=-7))
expected.append(build("kubectl-timestamps", 1, lambda t, x: [f"{rfc(t, 9)} {x}"], proc=None, inner_tz=PDT,
                      extra={"inner_tz": "-07:00"}))

# docker json-file
def dj(t, x):
    return [json.dumps({"log": x + "\n", "stream": "stdout", "time": rfc(t, 9)}, separators=(",", ":"))]
expected.append(build("docker-json", 2, dj))

# docker json-file with a line over 16 KB: the driver writes it as records of 16384 bytes of text
# without a newline, then the rest with it (moby daemon/logger: the 16K log buffer, "partial"
# messages; each record has its own read time). The Received line carries a 40 000-character
# prompt here; its pieces are joined back before matching, the line's time is the first piece's.
def dj_partial(t, x):
    if "Received request" not in x:
        return dj(t, x)
    x = x.replace(": params:", ": prompt: '" + "Summarise the incident report. " * 1300 + "', params:")
    pieces = [x[i:i + 16384] for i in range(0, len(x), 16384)]
    out = []
    for k, piece in enumerate(pieces):
        last = k == len(pieces) - 1
        out.append(json.dumps({"log": piece + ("\n" if last else ""), "stream": "stdout",
                               "time": rfc(t + timedelta(microseconds=40 * k), 9)}, separators=(",", ":")))
    return out
expected.append(build("docker-json-partial", 17, dj_partial,
                      extra={"other_note": "the Received line in 3 records: the 2 partial ones are other lines"}))

# docker compose: no time of its own
expected.append(build("compose", 3, lambda t, x: [f"vllm-1  | {x}"], wrapper_exact=False, ident="vllm-1"))

# docker desktop: the host's local time (+02:00), ms, and a year; vLLM in UTC
CEST = timezone(timedelta(hours=2))
def desk(t, x):
    lt = t.astimezone(CEST)
    return [f"{lt:%Y-%m-%d %H:%M:%S}.{lt.microsecond // 1000:03d} | {x}"]
expected.append(build("docker-desktop", 4, desk, proc=None, extra={"wrapper_tz": "+02:00"}))
# docker desktop keeps ms: round the expected times to ms
to_ms(expected[-1])

# stern: "pod container " (no time)
expected.append(build("stern", 5, lambda t, x: [f"vllm-test-fix-39064 vllm {x}"], wrapper_exact=False,
                      ident="vllm-test-fix-39064/vllm"))

# journald short form: its time is not used (no year, localised months)
expected.append(build("journald", 6, lambda t, x: [f"{t:%b %d %H:%M:%S} gpu-node-1 vllm[2107]: {x}"],
                      wrapper_exact=False, ident="gpu-node-1/vllm[2107]"))

# journalctl -o json: __REALTIME_TIMESTAMP in µs
def jj(t, x):
    us = ns(t) // 1000
    return [json.dumps({"__REALTIME_TIMESTAMP": str(us), "_HOSTNAME": "gpu-node-1", "SYSLOG_IDENTIFIER": "vllm",
                        "_PID": "2107", "PRIORITY": "6", "MESSAGE": x}, separators=(",", ":"))]
expected.append(build("journald-json", 7, jj, ident="gpu-node-1/vllm[2107]"))

# RFC 3164 syslog (no year: vLLM's time is used)
expected.append(build("syslog-3164", 8, lambda t, x: [f"<14>{t:%b %d %H:%M:%S} gpu-node-1 vllm[2107]: {x}"],
                      wrapper_exact=False, ident="gpu-node-1/vllm[2107]"))

# RFC 5424 syslog: µs, a year
expected.append(build("syslog-5424", 9, lambda t, x: [f"<14>1 {rfc(t, 6)} gpu-node-1 vllm 2107 - - {x}"],
                      ident="gpu-node-1/vllm[2107]"))
e = expected[-1]

# CI runner: "[ISO-8601] " in UTC, whole seconds; vLLM's own clock 7 h behind (the excerpt)
def ci(t, x):
    return [f"[{rfc(t, 0)}] {x}"]
expected.append(build("ci-runner", 10, ci, inner_tz=PDT, wrapper_exact=False, extra={"inner_tz": "-07:00"}))

# GitHub Actions raw log: 7 fractional digits
expected.append(build("github-actions", 11, lambda t, x: [f"{rfc(t, 7)} {x}"]))

# Ray Serve replica actor, with the dedup suffix on the stats line
def ray(t, x):
    s = f"(ServeReplica:default:VLLMDeployment pid=4152) {x}"
    if "Avg prompt throughput" in x:
        s += " [repeated 2x across cluster]"
    return [s]
expected.append(build("ray", 12, ray, proc=None, wrapper_exact=False, ident=None))
e = expected[-1]
e["request"]["instance"] = "ServeReplica:default:VLLMDeployment pid=4152"
# the replica is an identity: its engine's stats are its own (replicas interleave in Ray's stream)
e["stats"]["instance"] = "ServeReplica:default:VLLMDeployment pid=4152 / Engine 000"

# a fork's tag before the level (vllm-rbln)
# (uvicorn's access lines come from its own logger: untagged)
expected.append(build("tagged", 13, lambda t, x: [x if x.startswith("INFO:") else f"[vllm-rbln] {x}"],
                      proc=None, wrapper_exact=False, ident="vllm-rbln"))

# ANSI colours (vLLM's coloured formatter)
def ansi(t, x):
    return [x.replace("INFO ", "\x1b[32mINFO\x1b[0m ", 1)]
expected.append(build("ansi", 14, ansi, wrapper_exact=False))

# nested: CRI + Ray worker + vLLM process
expected.append(build("nested", 15, lambda t, x: [f"{rfc(t, 9)} stderr F (pid=4153, ip=10.0.0.5) {x}"],
                      proc="(EngineCore pid=925)", ident="10.0.0.5"))
e = expected[-1]
e["request"]["instance"] = "10.0.0.5 / pid=4153 / EngineCore pid=925"

# a collector no prefix knows (a custom sidecar, vllm-project/vllm#9818): its own tag, an RFC 3339
# instant with ms and a stream before vLLM's line; vLLM's own header in the host's zone (-08:00).
# The text before the line's first known start is peeled (the spec's resync); its instant is the
# line's time.
PST = timezone(timedelta(hours=-8))
expected.append(build("unknown-collector", 16,
                      lambda t, x: [f"[VllmSidecar kooEr8Ccal1cqylW5f5cz]: {rfc(t, 3)} 1 stdout: {x}"],
                      inner_tz=PST, extra={"inner_tz": "-08:00"}))
to_ms(expected[-1])

# launchers. SkyPilot's job output (no time): "(head, rank=0, pid=18260) " names the node and rank
expected.append(build("skypilot", 18, lambda t, x: [f"(head, rank=0, pid=18260) {x}"], proc=None,
                      wrapper_exact=False))
e = expected[-1]
e["request"]["instance"] = "head, rank=0 pid=18260"
e["stats"]["instance"] = "Engine 000"

# mpirun --tag-output --timestamp-output: a ctime (whole seconds: vLLM's own time is as fine), no
# space before the line; "[job,rank]" is the tag
expected.append(build("mpirun", 19, lambda t, x: [f"{t:%a %b %d %H:%M:%S %Y}[1,0]<stdout>:{x}"],
                      wrapper_exact=False, ident="[1,0]"))

# Slurm srun --label: the task number before the line
expected.append(build("srun", 20, lambda t, x: [f"0: {x}"], wrapper_exact=False, ident="task 0"))

# aws logs tail (--format detailed, its default): the event's time to the µs with "+00:00", then
# the log stream (a SageMaker endpoint's instance); vLLM's own header in the instance's zone
expected.append(build("aws-logs-tail", 21,
                      lambda t, x: [f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond:06d}+00:00 AllTraffic/i-0f1e2d3c4b5a69788 {x}"],
                      inner_tz=PDT, ident="AllTraffic/i-0f1e2d3c4b5a69788", extra={"inner_tz": "-07:00"}))

# stern --timestamps: "pod container " then the time (RFC 3339, 9 digits)
expected.append(build("stern-timestamps", 22, lambda t, x: [f"vllm-0 vllm {rfc(t, 9)} {x}"],
                      ident="vllm-0/vllm"))

# CloudWatch's console download of a log stream as CSV (timestamp,message: epoch ms, the line
# quoted where it holds a comma or a quote, as aws-samples/amazon-sagemaker-generativeai#111 shows)
def cloudwatch_csv(t, x):
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow([str(ns(t) // 1_000_000), x])
    return [out.getvalue()]
expected.append(build("cloudwatch-export", 23, cloudwatch_csv, inner_tz=PDT, ext=".csv", head="timestamp,message",
                      extra={"inner_tz": "-07:00"}))
to_ms(expected[-1])
e = expected[-1]
e["other"] = e["lines"] - 8  # its header

# gcloud logging read --format=json: a list of LogEntry (keys sorted, indented by 2), each line a
# textPayload at the entry's time to the ns, the GKE pod under resource.labels
def gcloud_json(t, x):
    entry = {"insertId": f"{ns(t) % 0xffffffffffff:012x}", "logName": "projects/demo/logs/stdout",
             "receiveTimestamp": rfc(t + timedelta(milliseconds=412), 9),
             "resource": {"labels": {"cluster_name": "inference", "container_name": "vllm", "location": "us-central1",
                                     "namespace_name": "default", "pod_name": "vllm-0", "project_id": "demo"},
                          "type": "k8s_container"},
             "severity": "INFO", "textPayload": x, "timestamp": rfc(t, 9)}
    lines = ["  " + l for l in json.dumps(entry, indent=2, sort_keys=True).split("\n")]
    lines[-1] += ","
    return lines
expected.append(build("gcloud-logging-read", 0, gcloud_json, ext=".json", head="[", ident="pod/vllm-0"))
e = expected[-1]
path = os.path.join(OUT, e["file"])
with open(path) as f:
    text = f.read()
with open(path, "w") as f:
    f.write(text[:-len("},\n")] + "}\n]\n")  # no comma after the last entry; the list's end
e["lines"] += 1
e["other"] = e["lines"] - 8  # the brackets and every entry's other fields

# a PaaS's stream after its RFC 3339 time: Heroku's (and Flynn's) "app[web.1]: ", the µs and the
# offset as logplex writes them; Fly.io's "app[<machine>] <region> [info]" with no space after it
expected.append(build("heroku", 1, lambda t, x: [f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond:06d}+00:00 app[web.1]: {x}"],
                      ident="app/web.1"))
expected.append(build("fly", 2, lambda t, x: [f"{t:%Y-%m-%dT%H:%M:%S}Z app[148e03d7f09018] ewr [info]{x}"],
                      wrapper_exact=False, ident="app/148e03d7f09018"))
# Tilt's log pane: "vllm │ "
expected.append(build("tilt", 3, lambda t, x: [f"vllm │ {x}"], wrapper_exact=False, ident="vllm"))
# argo logs: the step's pod, "vllm-serve-x7k2p: "
expected.append(build("argo", 4, lambda t, x: [f"vllm-serve-x7k2p: {x}"], wrapper_exact=False, ident="vllm-serve-x7k2p"))
# pm2 started with --time: its prefix, then "2025-08-12T05:00:01: " (whole seconds, with the year)
expected.append(build("pm2-time", 5, lambda t, x: [f"0|vllm     | {t:%Y-%m-%dT%H:%M:%S}: {x}"], wrapper_exact=False,
                      ident="vllm"))
# rsyslog's file format (RSYSLOG_FileFormat) for a sender that gave no pid: the µs and the offset
# of RFC 3339, the host and the tag; read only before a start a log line has
expected.append(build("rsyslog-file", 6,
                      lambda t, x: [f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond:06d}+00:00 gpu-node-1 vllm: {x}"],
                      ident="gpu-node-1/vllm"))
# runit's svlogd -tt: UTC without a zone written, in units of 10 µs
def svlogd(t, x):
    return [f"{t:%Y-%m-%d_%H:%M:%S}.{t.microsecond // 10:05d} {x}"]
expected.append(build("svlogd", 7, svlogd))
e = expected[-1]
for k in ("arrival_ns", "queued_ns", "first_token_ns", "last_token_ns", "finished_ns"):
    e["request"][k] = e["request"][k] // 10_000 * 10_000
e["stats"]["ts_ns"] = e["stats"]["ts_ns"] // 10_000 * 10_000
e["version_ts_ns"] = e["version_ts_ns"] // 10_000 * 10_000
# Fluentd's stdout output (a fluentd daemonset's own log): the event's time to the ns with its
# offset, the tag, the record as JSON with the kubernetes filter's metadata
def fluentd(t, x):
    cid = "5f0c" * 16
    rec = {"log": x + "\n", "stream": "stdout", "docker": {"container_id": cid},
           "kubernetes": {"container_name": "vllm", "namespace_name": "inference", "pod_name": "vllm-0",
                          "host": "gpu-node-1"}}
    return [f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond:06d}000 +0000 kubernetes.var.log.containers.vllm-0_inference_vllm-{cid}.log: "
            + json.dumps(rec, separators=(",", ":"))]
expected.append(build("fluentd-stdout", 8, fluentd, ident="vllm-0/vllm"))
# az containerapp logs show (Azure Container Apps' console log stream, --format json): the line
# under "Log", its time under "TimeStamp" (7 digits, UTC)
expected.append(build("azure-containerapp", 9,
                      lambda t, x: [json.dumps({"TimeStamp": rfc(t, 7), "Log": x})]))
# Fluent Bit's stdout output (a fluent-bit pod's own log, 2.1+): the record's number, the tail
# input's tag, the event's time (epoch seconds to the ns) with its metadata, the record as msgpack-c
# prints it (strings unescaped) with the kubernetes filter's metadata (containerd: "_p", no newline)
def fluentbit(t, x):
    cid = "7a3e" * 16
    return [f"[0] kube.var.log.containers.vllm-0_inference_vllm-{cid}.log: [[{ns(t) // 10**9}.{ns(t) % 10**9:09d}, {{}}], "
            f'{{"time"=>"{rfc(t, 9)}", "stream"=>"stdout", "_p"=>"F", "log"=>"{x}", "kubernetes"=>{{"pod_name"=>"vllm-0", '
            f'"namespace_name"=>"inference", "labels"=>{{"app"=>"vllm"}}, "host"=>"gpu-node-1", "container_name"=>"vllm", '
            f'"docker_id"=>"{cid}"}}}}]']
expected.append(build("fluentbit-stdout", 10, fluentbit, ident="vllm-0/vllm"))

# Fluent Bit's (or Fluentd's) records of a CRI log read by its cri parser, written as JSON lines
# (Fluent Bit's file output, format plain): the CRI time, stream, the piece's flag as "logtag" and
# the text as "message", with the kubernetes filter's metadata; the Received line in pieces (P, P,
# then F), as containerd wrote it and the parser kept it
def fluentbit_cri(t, x):
    def rec(flag, text):
        return json.dumps({"time": rfc(t, 9), "stream": "stdout", "logtag": flag, "message": text,
                           "kubernetes": {"pod_name": "vllm-0", "namespace_name": "inference",
                                          "container_name": "vllm", "host": "gpu-node-1"}}, separators=(",", ":"))
    if "Received request" in x:
        return [rec("P", x[:60]), rec("P", x[60:120]), rec("F", x[120:])]
    return [rec("F", x)]
expected.append(build("fluentbit-cri-json", 11, fluentbit_cri, ident="vllm-0/vllm",
                      extra={"other_note": "the Received line in 3 records: the 2 partial ones are other lines"}))
# Filebeat's events, one JSON object a line (its file or console output; Elastic's Common Schema):
# "@timestamp" to the ms, the host and the pod's metadata
def filebeat(t, x):
    return [json.dumps({"@timestamp": rfc(t, 3), "@metadata": {"beat": "filebeat", "type": "_doc", "version": "8.11.0"},
                        "message": x, "input": {"type": "container"}, "stream": "stdout",
                        "host": {"name": "gpu-node-1"},
                        "kubernetes": {"pod": {"name": "vllm-0"}, "container": {"name": "vllm"},
                                       "namespace": "inference"}}, separators=(",", ":"))]
expected.append(build("filebeat-ecs", 12, filebeat, ident="gpu-node-1/vllm-0/vllm"))
to_ms(expected[-1])
# journald's short form in a Chinese locale: the month "8月" (no year: not used)
expected.append(build("journald-zh", 13,
                      lambda t, x: [f"{t.month}月 {t:%d %H:%M:%S} gpu-node-1 vllm[2107]: {x}"],
                      wrapper_exact=False, ident="gpu-node-1/vllm[2107]"))
# stern --output json: the line under "message" with the pod's names (no time)
expected.append(build("stern-json", 14,
                      lambda t, x: [json.dumps({"message": x, "nodeName": "gpu-node-1", "namespace": "inference",
                                                "podName": "vllm-0", "containerName": "vllm"}, separators=(",", ":"))],
                      wrapper_exact=False, ident="vllm-0/vllm"))

with open(os.path.join(OUT, "expected", "expected.json"), "w") as f:
    json.dump({"year": 2025, "files": expected}, f, indent=1)
    f.write("\n")
