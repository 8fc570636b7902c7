#!/usr/bin/env python3
"""Writes vLLM llm_request spans as three trace stores hand them out, and the request rows
tokentime must make of them (expected/expected.json), in plain Python:

  jaeger.json   Jaeger's query API / UI export: {"data": [{"traceID", "spans": [...], "processes"}]}
                (startTime and duration in microseconds, typed tags), with a child span of another name
  zipkin.json   Zipkin v2: a list of spans (timestamp and duration in microseconds, string tags)
  tempo.json    Grafana Tempo's /api/traces/<id>: {"batches": [{"resource", "scopeSpans": [...]}]}
                (OTLP protobuf-JSON: ns as strings, base64 ids, typed attribute values)

The attributes are those vLLM's tracing sets (vllm/tracing.py SpanAttributes); each file has its
own requests (ids differ), one of them in error. Run: python3 sample-logs/traces/expected/make_samples.py
"""
import base64
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
T0_US = 1775656900_000000  # 2026-04-08 14:01:40 UTC, µs

# id, start offset (µs), queue, ttft, prefill, decode, e2e (s), prompt, completion, finish, error
REQS = {
    "jaeger": [("cmpl-j1", 0, 0.0021, 0.1342, 0.1203, 1.2517, 1.3861, 512, 128, "length", False),
               ("cmpl-j2", 250_000, 0.0450, 0.2108, 0.1601, 0.9033, 1.1141, 1024, 96, "stop", False),
               ("cmpl-j3", 400_000, 0.0007, 0.0911, 0.0870, 0.0000, 0.0920, 64, 0, "abort", True)],
    "zipkin": [("cmpl-z1", 1_000_000, 0.0033, 0.1501, 0.1420, 2.0004, 2.1505, 300, 200, "length", False),
               ("cmpl-z2", 1_500_000, 0.0102, 0.1688, 0.1511, 0.4112, 0.5800, 900, 41, "stop", False)],
    "tempo": [("cmpl-t1", 2_000_000, 0.0015, 0.0977, 0.0931, 0.7710, 0.8688, 128, 64, "stop", False),
              ("cmpl-t2", 2_100_000, 0.0810, 0.2930, 0.2050, 1.5120, 1.8050, 2048, 128, "length", True)],
}
MODEL = "meta-llama/Llama-3.1-8B-Instruct"


def attrs(r):
    rid, _, q, ttft, pre, dec, e2e, p, c, fin, _ = r
    return [("gen_ai.response.model", "string", MODEL), ("gen_ai.request.id", "string", rid),
            ("gen_ai.request.temperature", "float64", 0.0), ("gen_ai.request.top_p", "float64", 1.0),
            ("gen_ai.request.max_tokens", "int64", 128), ("gen_ai.request.n", "int64", 1),
            ("gen_ai.usage.prompt_tokens", "int64", p), ("gen_ai.usage.completion_tokens", "int64", c),
            ("gen_ai.response.finish_reasons", "string", json.dumps([fin])),
            ("gen_ai.latency.time_in_queue", "float64", q), ("gen_ai.latency.time_to_first_token", "float64", ttft),
            ("gen_ai.latency.e2e", "float64", e2e), ("gen_ai.latency.time_in_model_prefill", "float64", pre),
            ("gen_ai.latency.time_in_model_decode", "float64", dec),
            ("gen_ai.latency.time_in_model_inference", "float64", round(pre + dec, 4))]


def span_us(r):
    start = T0_US + r[1]
    return start, int(round(r[6] * 1e6))  # the span lasts e2e


expected = {}
# ---- Jaeger ----
traces = []
for i, r in enumerate(REQS["jaeger"]):
    tid = "%032x" % (0x5e1f00 + i)
    start, dur = span_us(r)
    tags = [{"key": k, "type": t, "value": v} for k, t, v in attrs(r)]
    tags.append({"key": "span.kind", "type": "string", "value": "server"})
    if r[10]:
        tags.append({"key": "otel.status_code", "type": "string", "value": "ERROR"})
    spans = [{"traceID": tid, "spanID": "%016x" % (0xa0 + i), "operationName": "llm_request", "references": [],
              "startTime": start, "duration": dur, "tags": tags, "logs": [], "processID": "p1", "warnings": None},
             {"traceID": tid, "spanID": "%016x" % (0xb0 + i), "operationName": "POST /v1/completions",
              "references": [{"refType": "CHILD_OF", "traceID": tid, "spanID": "%016x" % (0xa0 + i)}],
              "startTime": start - 900, "duration": dur + 1500, "tags": [], "logs": [], "processID": "p1",
              "warnings": None}]
    traces.append({"traceID": tid, "spans": spans,
                   "processes": {"p1": {"serviceName": "vllm", "tags": [{"key": "host.name", "type": "string",
                                                                         "value": "gpu-node-3"}]}},
                   "warnings": None})
with open(os.path.join(OUT, "jaeger.json"), "w") as f:
    json.dump({"data": traces, "total": 0, "limit": 0, "offset": 0, "errors": None}, f, indent=2)

# ---- Zipkin v2 ----
zs = []
for i, r in enumerate(REQS["zipkin"]):
    start, dur = span_us(r)
    tags = {k: (v if isinstance(v, str) else repr(v)) for k, _, v in attrs(r)}
    tags["otel.library.name"] = "vllm.llm_engine"
    if r[10]:
        tags["otel.status_code"] = "ERROR"
        tags["error"] = "true"
    zs.append({"traceId": "%032x" % (0x21b000 + i), "id": "%016x" % (0xc0 + i), "kind": "SERVER",
               "name": "llm_request", "timestamp": start, "duration": dur,
               "localEndpoint": {"serviceName": "vllm", "ipv4": "10.0.0.7"}, "tags": tags})
with open(os.path.join(OUT, "zipkin.json"), "w") as f:
    json.dump(zs, f, indent=2)

# ---- Tempo (OTLP protobuf-JSON) ----
tspans = []
for i, r in enumerate(REQS["tempo"]):
    start, dur = span_us(r)
    start_ns = start * 1000 + 123  # OTLP keeps ns
    end_ns = start_ns + int(round(r[6] * 1e9))
    a = []
    for k, t, v in attrs(r):
        key = {"string": "stringValue", "float64": "doubleValue", "int64": "intValue"}[t]
        a.append({"key": k, "value": {key: str(v) if t == "int64" else v}})
    s = {"traceId": base64.b64encode(bytes.fromhex("%032x" % (0x7e3900 + i))).decode(),
         "spanId": base64.b64encode(bytes.fromhex("%016x" % (0xd0 + i))).decode(),
         "name": "llm_request", "kind": "SPAN_KIND_SERVER",
         "startTimeUnixNano": str(start_ns), "endTimeUnixNano": str(end_ns), "attributes": a,
         "status": {"code": "STATUS_CODE_ERROR"} if r[10] else {}}
    tspans.append((s, start_ns, end_ns))
with open(os.path.join(OUT, "tempo.json"), "w") as f:
    json.dump({"batches": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "vllm"}}]},
                            "scopeSpans": [{"scope": {"name": "vllm.llm_engine"}, "spans": [t[0] for t in tspans]}]}]},
              f, indent=2)

# ---- the rows ----
rows = {}
for store, reqs in REQS.items():
    for i, r in enumerate(reqs):
        rid, _, q, ttft, pre, dec, e2e, p, c, fin, err = r
        if store == "tempo":
            arrival, finished = tspans[i][1], tspans[i][2]
        else:
            start, dur = span_us(r)
            arrival, finished = start * 1000, (start + dur) * 1000
        rows[rid] = dict(format={"jaeger": "vllm-jaeger-json", "zipkin": "vllm-zipkin-json",
                                 "tempo": "vllm-otlp-json"}[store],
                         arrival_ns=arrival, finished_ns=finished, queue_ms=q * 1000, ttft_ms=ttft * 1000,
                         prefill_ms=pre * 1000, decode_ms=dec * 1000, e2e_ms=e2e * 1000,
                         first_token_ns=arrival + int(round(ttft * 1e9)), prompt_tokens=p, output_tokens=c,
                         finish_reason=fin, status="error" if err else ("cancelled" if fin == "abort" else "ok"),
                         instance="vllm")
expected["requests"] = rows
# units: Jaeger 6 spans (3 llm_request + 3 HTTP children, other), Zipkin 2, Tempo 2
expected["units"] = {"vllm-jaeger-json": [6, 3, 3], "vllm-zipkin-json": [2, 2, 0], "vllm-otlp-json": [2, 2, 0]}
with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
print("wrote", len(rows), "requests")
