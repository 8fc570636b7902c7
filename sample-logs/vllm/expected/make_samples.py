#!/usr/bin/env python3
"""Writes the vLLM samples of sample-logs/vllm/ and, from the same made-up run, the numbers
tokentime must report for them (expected/summary.json). No tokentime code: the numbers follow
from the definitions of docs/metrics.md, computed here with numpy.

The run: vLLM V1 (0.11-style lines) serving 6 streaming chat requests between 15:38:01 and
15:38:11 UTC on 2026-03-17, seen three ways (arrivals 0.5 s apart, so up to 5 run at once):
  server.log    the server log with --enable-log-requests --enable-log-outputs (vLLM's own
                1-second timestamps), stats lines every 10 s and a 40 s silence, startup lines
  spans.jsonl   the OTLP/JSON llm_request spans of the same requests (collector file exporter)
  metrics.prom  two /metrics scrapes (with sample timestamps) 10 s apart
Run:  python3 sample-logs/vllm/expected/make_samples.py
"""
import json
import math
import os
from datetime import datetime, timezone

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
T0 = int(datetime(2026, 3, 17, 15, 38, 0, tzinfo=timezone.utc).timestamp())  # epoch seconds
MS = 1_000_000  # ns per ms

PRE = 0.004
QUEUE = [0.012, 0.018, 0.240, 0.410, 0.055, 0.016]
PREFILL = [0.121, 0.133, 0.152, 0.118, 0.140, 0.127]
OUTPUT = [40, 60, 30, 50, 45, 35]
PROMPT = [120, 340, 88, 512, 64, 230]
REASON = ["stop", "stop", "stop", "length", "stop", "stop"]
STEP = 0.045  # seconds between streamed tokens
IDS = ["chatcmpl-%s" % h for h in ["5f1c0a9e2b7d4c31", "8a0e6d1f93c24b57", "c4b9e07a1d5f3268",
                                    "19d7f3e2a6c0b845", "e2a58c1b0f7d4936", "7b3f0d9c5e1a2864"]]


def req(i):
    a_ns = (T0 + 1) * 10**9 + 250 * MS + 500 * MS * i  # arrival, ns
    q_ns, p_ns = round(QUEUE[i] * 1e9), round(PREFILL[i] * 1e9)
    ttft_ns = round(PRE * 1e9) + q_ns + p_ns
    first = a_ns + ttft_ns
    toks = [first + round(STEP * 1e9) * k for k in range(OUTPUT[i])]
    return dict(id=IDS[i], a=a_ns, sched=a_ns + round(PRE * 1e9) + q_ns, queue_ns=q_ns, prefill_ns=p_ns,
                ttft_ns=ttft_ns, toks=toks, last=toks[-1], end=toks[-1] + 1_300_000,
                n=OUTPUT[i], m=PROMPT[i], reason=REASON[i])


REQS = [req(i) for i in range(6)]


def stamp(ns):
    """vLLM's own log time: local (here UTC) month-day time, truncated to the second."""
    return datetime.fromtimestamp(ns // 10**9, tz=timezone.utc).strftime("%m-%d %H:%M:%S")


def server_log():
    events = []  # (ns, order, text)
    def line(ns, src, msg, order=0, proc="APIServer pid=1"):
        events.append((ns, order, f"({proc}) INFO {stamp(ns)} [{src}] {msg}"))
    boot = T0 * 10**9 - 30 * 10**9
    line(boot, "api_server.py:1790", "vLLM API server version 0.11.0")
    line(boot + 1, "utils.py:233", "non-default args: {'model': 'Qwen/Qwen2.5-7B-Instruct', 'enable_log_requests': True, 'enable_log_outputs': True}")
    line(boot + 2 * 10**9, "launcher.py:34", "Started server process [1]", 0)
    events.append((boot + 2 * 10**9 + 1, 1, "(APIServer pid=1) INFO:     Waiting for application startup."))
    line(boot + 3 * 10**9, "launcher.py:44", "Uvicorn running on http://0.0.0.0:8000")
    line(boot + 3 * 10**9 + 1, "launcher.py:44", "Application startup complete.")
    events.append((boot + 5 * 10**9, 0, '(APIServer pid=1) INFO:     10.0.0.9:40412 - "GET /health HTTP/1.1" 200 OK'))
    for k, r in enumerate(REQS):
        line(r["a"], "logger.py:43", f"Received request {r['id']}: params: SamplingParams(n=1, temperature=0.7, max_tokens={r['n'] + 4}), lora_request: None.")
        events.append((r["a"] + 1000, 0, f'(APIServer pid=1) INFO:     10.0.0.7:{51200 + k} - "POST /v1/chat/completions HTTP/1.1" 200 OK'))
        line(r["a"] + 2000, "async_llm.py:346", f"Added request {r['id']}.")
        for j, t in enumerate(r["toks"]):
            fin = r["reason"] if j == len(r["toks"]) - 1 else "None"
            line(t, "logger.py:71", f"Generated response {r['id']} (streaming delta): output: 'tok{j}', output_token_ids: [{1000 + j}], finish_reason: {fin}")
    for s in (3, 13, 23, 63):
        t = (T0 + s) * 10**9
        running = sum(1 for r in REQS if r["sched"] <= t < r["end"])
        waiting = sum(1 for r in REQS if r["a"] + round(PRE * 1e9) <= t < r["sched"])
        prompt_tps = sum(r["m"] for r in REQS if t - 10**10 < r["sched"] <= t) / 10
        gen_tps = sum(1 for r in REQS for x in r["toks"] if t - 10**10 < x <= t) / 10
        line(t, "loggers.py:123", f"Engine 000: Avg prompt throughput: {prompt_tps:.1f} tokens/s, Avg generation throughput: {gen_tps:.1f} tokens/s, Running: {running} reqs, Waiting: {waiting} reqs, GPU KV cache usage: {2.5 * running:.1f}%, Prefix cache hit rate: 0.0%")
        STATS.append(dict(t=t, running=running, waiting=waiting, kv=2.5 * running / 100))
    events.sort(key=lambda e: (e[0], e[1]))
    return "\n".join(e[2] for e in events) + "\n"


STATS = []


def spans():
    lines = []
    for r in REQS:
        attrs = [
            ("gen_ai.request.id", {"stringValue": r["id"]}),
            ("gen_ai.response.model", {"stringValue": "Qwen/Qwen2.5-7B-Instruct"}),
            ("gen_ai.usage.prompt_tokens", {"intValue": str(r["m"])}),
            ("gen_ai.usage.completion_tokens", {"intValue": str(r["n"])}),
            ("gen_ai.latency.time_in_queue", {"doubleValue": r["queue_ns"] / 1e9}),
            ("gen_ai.latency.time_to_first_token", {"doubleValue": r["ttft_ns"] / 1e9}),
            ("gen_ai.latency.e2e", {"doubleValue": (r["last"] - r["a"]) / 1e9}),
            ("gen_ai.latency.time_in_model_prefill", {"doubleValue": r["prefill_ns"] / 1e9}),
            ("gen_ai.latency.time_in_model_decode", {"doubleValue": (r["last"] - r["a"] - r["ttft_ns"]) / 1e9}),
            ("gen_ai.latency.time_in_model_inference", {"doubleValue": (r["last"] - r["sched"]) / 1e9}),
            ("gen_ai.response.finish_reasons", {"stringValue": json.dumps([r["reason"]])}),
        ]
        doc = {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "vllm"}}]},
               "scopeSpans": [{"scope": {"name": "vllm.llm_engine"}, "spans": [{
                   "traceId": "%032x" % (0xabc000 + REQS.index(r)), "spanId": "%016x" % (0x51 + REQS.index(r)),
                   "name": "llm_request", "kind": 2,
                   "startTimeUnixNano": str(r["a"]), "endTimeUnixNano": str(r["end"]),
                   "attributes": [{"key": k, "value": v} for k, v in attrs]}]}]}]}
        lines.append(json.dumps(doc, separators=(",", ":")))
    return "\n".join(lines) + "\n"


LE = [0.1, 0.25, 0.5, 1.0, float("inf")]


def metrics_prom():
    out = []
    for s in (3, 13):
        t = (T0 + s) * 10**9
        ms = t // MS
        lab = 'engine="0",model_name="Qwen/Qwen2.5-7B-Instruct"'
        running = sum(1 for r in REQS if r["sched"] <= t < r["end"])
        waiting = sum(1 for r in REQS if r["a"] + round(PRE * 1e9) <= t < r["sched"])
        out.append("# HELP vllm:num_requests_running Number of requests in model execution batches.")
        out.append("# TYPE vllm:num_requests_running gauge")
        out.append(f"vllm:num_requests_running{{{lab}}} {float(running)} {ms}")
        out.append("# TYPE vllm:num_requests_waiting gauge")
        out.append(f"vllm:num_requests_waiting{{{lab}}} {float(waiting)} {ms}")
        out.append("# TYPE vllm:kv_cache_usage_perc gauge")
        out.append(f"vllm:kv_cache_usage_perc{{{lab}}} {0.025 * running} {ms}")
        out.append("# TYPE vllm:time_to_first_token_seconds histogram")
        done = [r for r in REQS if r["a"] + r["ttft_ns"] <= t]
        for le in LE:
            c = sum(1 for r in done if r["ttft_ns"] / 1e9 <= le)
            les = "+Inf" if math.isinf(le) else repr(le)
            out.append(f'vllm:time_to_first_token_seconds_bucket{{{lab},le="{les}"}} {float(c)} {ms}')
        out.append(f"vllm:time_to_first_token_seconds_count{{{lab}}} {float(len(done))} {ms}")
        out.append(f"vllm:time_to_first_token_seconds_sum{{{lab}}} {sum(r['ttft_ns'] for r in done) / 1e9} {ms}")
        PROM.append(dict(t=t, running=running, waiting=waiting, kv=0.025 * running,
                         buckets=[sum(1 for r in done if r["ttft_ns"] / 1e9 <= le) for le in LE]))
    return "\n".join(out) + "\n"


PROM = []


def stats(values):
    v = np.array(values, dtype=float)
    q = np.percentile(v, [1, 5, 10, 25, 50, 75, 90, 95, 99])  # linear, numpy's default
    return {"unit": "ms", "count": int(len(v)), "mean": float(v.mean()), "std": float(v.std()),
            "min": float(v.min()), "max": float(v.max()),
            **{f"p{p}": float(x) for p, x in zip([1, 5, 10, 25, 50, 75, 90, 95, 99], q)}}


def expected():
    ttft = [r["ttft_ns"] / MS for r in REQS]
    queue = [r["queue_ns"] / MS for r in REQS]
    prefill = [r["prefill_ns"] / MS for r in REQS]
    e2e = [(r["last"] - r["a"]) / MS for r in REQS]
    decode = [(r["last"] - r["a"] - r["ttft_ns"]) / MS for r in REQS]
    tpot = [(e - t) / (r["n"] - 1) for e, t, r in zip(e2e, ttft, REQS)]
    # ITL from the log's streaming-delta lines: their time is whole seconds
    itl = []
    for r in REQS:
        secs = [x // 10**9 for x in r["toks"]]
        itl += [(b - a) * 1000.0 for a, b in zip(secs, secs[1:])]
    start = min(r["a"] for r in REQS)
    end = max(r["end"] for r in REQS)
    duration = (end - start) / 1e9
    out_tokens = sum(r["n"] for r in REQS)
    # the log's stats lines: spacing 10, 10, 40 s -> usual 10 s, one gap of 40 - 10 = 30 s
    snaps = [(s["running"], s["waiting"], s["kv"]) for s in STATS] + [(p["running"], p["waiting"], p["kv"]) for p in PROM]
    deltas = [b - a for a, b in zip(PROM[0]["buckets"], PROM[1]["buckets"])]
    return {
        "run": "vllm",
        "requests": {"measured": 6, "ok": 6, "failed": 0, "excluded": 0},
        "window": {"start_ns": start, "end_ns": end, "duration_s": duration},
        "throughput": {"output_tokens_per_s": out_tokens / duration, "requests_per_s": 6 / duration},
        "tokens": {"input": sum(PROMPT), "output": out_tokens, "mean_input": float(np.mean(PROMPT)),
                   "mean_output": float(np.mean(OUTPUT))},
        "metrics": {"ttft_ms": stats(ttft), "queue_ms": stats(queue), "prefill_ms": stats(prefill),
                    "decode_ms": stats(decode), "itl_ms": stats(itl), "tpot_ms": stats(tpot),
                    "e2e_ms": stats(e2e)},
        "engine": {"snapshots": len(snaps), "instances": 2,
                   "running_mean": float(np.mean([s[0] for s in snaps])), "running_max": max(s[0] for s in snaps),
                   "waiting_mean": float(np.mean([s[1] for s in snaps])), "waiting_max": max(s[1] for s in snaps),
                   "kv_usage_max": max(s[2] for s in snaps), "gaps": 1, "no_data_s": 30.0,
                   "basis": "vllm-log (4 snapshots, 1 s clock); vllm-prometheus (2 snapshots, 1 ms clock)"},
        "basis": {"ttft_ms": "vllm-otlp-json requests (6, 1 ns clock)",
                  "queue_ms": "vllm-otlp-json requests (6, 1 ns clock)",
                  "itl_ms": "vllm-log token rows (%d, 1 s clock)" % len(itl)},
        "histogram_deltas": {"metric": "vllm:time_to_first_token_seconds",
                             "le": ["0.1", "0.25", "0.5", "1.0", "+Inf"], "count": [float(d) for d in deltas]},
        "log_lines": None,
    }


if __name__ == "__main__":
    log = server_log()
    with open(os.path.join(OUT, "server.log"), "w") as f:
        f.write(log)
    with open(os.path.join(OUT, "spans.jsonl"), "w") as f:
        f.write(spans())
    with open(os.path.join(OUT, "metrics.prom"), "w") as f:
        f.write(metrics_prom())
    e = expected()
    e["log_lines"] = len(log.splitlines())
    with open(os.path.join(HERE, "summary.json"), "w") as f:
        json.dump({"runs": [e]}, f, indent=2)
        f.write("\n")
