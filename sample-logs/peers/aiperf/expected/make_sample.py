#!/usr/bin/env python3
"""Writes ../profile_export.jsonl (small AIPerf records, constructed in the later schema: one
warm-up, eight profiling records, one cancelled, one server error) and aiperf_metrics.json:
AIPerf's figures for it, computed here the way AIPerf's metric classes compute them (plain
Python, no tokentime code). Deterministic."""
import json, math, os

here = os.path.dirname(os.path.abspath(__file__))
T0 = 1767225700000000000
MS = 1_000_000
lines, valid = [], []

def record(i, phase, start, ttft, icl, osl, isl, error=None, cancelled=False):
    end = start + round((ttft + sum(icl)) * MS)
    metrics = None
    if error is None:
        metrics = {"input_sequence_length": {"value": isl, "unit": "tokens"},
                   "time_to_first_token": {"value": ttft, "unit": "ms"},
                   "request_latency": {"value": ttft + sum(icl), "unit": "ms"},
                   "inter_chunk_latency": {"value": icl, "unit": "ms"},
                   "output_sequence_length": {"value": osl, "unit": "tokens"}}
        if osl >= 2:
            metrics["inter_token_latency"] = {"value": sum(icl) / (osl - 1), "unit": "ms"}
    else:
        metrics = {"error_isl": {"value": isl, "unit": "tokens"}}
    return {"metadata": {"session_num": i, "x_request_id": "req-%02d" % i, "x_correlation_id": "corr-%02d" % i,
                         "conversation_id": "conv-%02d" % i, "turn_index": 0, "request_start_ns": start,
                         "request_ack_ns": start + MS if error is None else None, "request_end_ns": end,
                         "worker_id": "worker_%d" % (i % 2), "record_processor_id": "record_processor_0",
                         "benchmark_phase": phase, "was_cancelled": cancelled,
                         "cancellation_time_ns": end if cancelled else None},
            "metrics": metrics, "error": error}

lines.append(record(0, "warmup", T0, 50.0, [10.0], 2, 64))
for i in range(1, 9):
    start = T0 + 200 * MS + i * 40 * MS
    icl = [round(15 + (i * j) % 9 + 0.25 * j, 3) for j in range(1, 3 + i)]
    osl = len(icl) + 1 + (i % 3)             # some chunks carry more than one token
    r = record(i, "profiling", start, 90.0 + 7.5 * i, icl, osl, 128 + i)
    lines.append(r)
    valid.append(r)
lines.append(record(9, "profiling", T0 + 600 * MS, 0, [], 0, 130,
                    {"code": 499, "type": "RequestCancellationError", "message": "Request was cancelled after 0.002 seconds"},
                    cancelled=True))
lines.append(record(10, "profiling", T0 + 640 * MS, 0, [], 0, 131,
                    {"code": 500, "type": "InternalServerError", "message": "Server encountered an internal error"}))
with open(os.path.join(here, "..", "profile_export.jsonl"), "w") as f:
    for r in lines:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")

def stats(v):
    v = sorted(v); n = len(v); m = sum(v) / n
    def pct(p):
        pos = (n - 1) * p / 100; a = math.floor(pos); b = math.ceil(pos)
        return v[a] + (v[b] - v[a]) * (pos - a)
    out = {"count": float(n), "avg": m, "min": v[0], "max": v[-1], "std": math.sqrt(sum((x - m) ** 2 for x in v) / n)}
    for p in (1, 5, 10, 25, 50, 75, 90, 95, 99):
        out["p%d" % p] = pct(p)
    return out

m = lambda r, k: r["metrics"][k]["value"]
ttft = [m(r, "time_to_first_token") for r in valid]
lat = [m(r, "request_latency") for r in valid]
itl = [(m(r, "request_latency") - m(r, "time_to_first_token")) / (m(r, "output_sequence_length") - 1) for r in valid]
icl = [g for r in valid for g in m(r, "inter_chunk_latency")]
osl = [m(r, "output_sequence_length") for r in valid]
starts = [r["metadata"]["request_start_ns"] for r in valid]
dur = (max(s + l * 1e6 for s, l in zip(starts, lat)) - min(starts)) / 1e9
expected = {"time_to_first_token": stats(ttft), "request_latency": stats(lat), "inter_token_latency": stats(itl),
            "inter_chunk_latency": stats(icl), "output_token_throughput_per_user": stats([1000 / x for x in itl]),
            "output_sequence_length": stats(osl),
            "benchmark_duration": {"avg": dur}, "request_throughput": {"avg": len(valid) / dur},
            "output_token_throughput": {"avg": sum(osl) / dur}, "request_count": {"avg": float(len(valid))},
            "error_request_count": {"avg": 2.0}}
with open(os.path.join(here, "aiperf_metrics.json"), "w") as f:
    json.dump({"computed_by": "make_sample.py (AIPerf's formulas in plain Python)", "run": "aiperf",
               "metrics": expected}, f, indent=1)
    f.write("\n")

# ---- the summary AIPerf writes beside its records (profile_export_aiperf.json, later layout)
units = {"benchmark_duration": "sec", "request_throughput": "requests/sec", "output_token_throughput": "tokens/sec",
         "request_count": "requests", "error_request_count": "requests", "output_sequence_length": "tokens",
         "output_token_throughput_per_user": "tokens/sec/user"}
summary = {k: dict({"unit": units.get(k, "ms")}, **v) for k, v in expected.items()}
summary.update({"input_config": {"loadgen": {"request_count": 10}}, "was_cancelled": False,
                "error_summary": [{"error_details": {"code": 499, "type": "RequestCancellationError"}, "count": 1},
                                  {"error_details": {"code": 500, "type": "InternalServerError"}, "count": 1}]})
with open(os.path.join(here, "..", "profile_export_aiperf.json"), "w") as f:
    json.dump(summary, f, indent=1)
    f.write("\n")
