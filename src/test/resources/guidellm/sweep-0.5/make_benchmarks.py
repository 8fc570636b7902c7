# Writes benchmarks.json of this folder: a report in GuideLLM 0.5's layout (two benchmarks of a
# sweep, concurrent streams=2 and constant rate=4) whose records are made here and whose metrics
# are computed by GuideLLM's own code: DistributionSummary of vllm-project/guidellm
# src/guidellm/schemas/statistics.py at commit ee7a77457ba668b4b5ccb40f110518829893b36a
# (Apache-2.0), importable as glstats: its first 635 lines, with its import of
# guidellm.schemas.base replaced by `from pydantic import BaseModel as StandardBaseModel`.
# The per-request figures follow src/guidellm/schemas/request_stats.py at that commit.
# Usage: PYTHONPATH=<folder of glstats.py> python3 make_benchmarks.py benchmarks.json
import json, random, sys
import glstats
D = glstats.DistributionSummary

def rec(rid, start, ttft_s, n, itl_s, status='completed', prompt=100, error=None, end_extra=0.003):
    first = None if ttft_s is None else round(start + ttft_s, 6)
    last = None if first is None else round(first + itl_s * max(n - 1, 0), 6)
    end = round((last if last is not None else start + 0.5) + end_extra, 6)
    start = round(start, 6)
    t = {"targeted_start": start - 0.001, "queued": start - 0.0008, "dequeued": start - 0.0006,
         "scheduled_at": start - 0.0004, "resolve_start": start - 0.0002, "request_start": start,
         "first_request_iteration": first, "first_token_iteration": first, "last_token_iteration": last,
         "last_request_iteration": last, "request_iterations": n + 2, "token_iterations": n,
         "request_end": end, "resolve_end": end + 0.0001, "finalized": end + 0.0002}
    r = {"type_": "generative_request_stats", "request_id": rid, "request_type": "chat_completions",
         "response_id": "chatcmpl-" + rid[:8], "request_args": None, "output": None,
         "info": {"request_id": rid, "status": status, "scheduler_node_id": 0, "scheduler_process_id": 0,
                  "scheduler_start_time": start - 1, "timings": t, "error": error,
                  "started_at": start, "completed_at": end},
         "prompt_tokens": prompt, "output_tokens": n if status == 'completed' else None}
    lat = end - start
    r["request_start_time"] = start
    r["request_end_time"] = end
    r["request_latency"] = lat
    r["time_to_first_token_ms"] = None if first is None else 1000 * (first - start)
    lt = last if last is not None else end
    r["time_per_output_token_ms"] = None if not n or first is None else 1000 * (lt - start) / n
    r["inter_token_latency_ms"] = None if first is None or n <= 1 else 1000 * (last - first) / (n - 1)
    r["output_tokens_per_second"] = None if not n else n / lat
    return r

def within(r, a, b):
    return r["request_end_time"] >= a and r["request_start_time"] <= b

def metrics(succ):
    def dist(vals):
        return D.from_values(vals).model_dump()
    out = {}
    def put(name, vals):
        out[name] = {"successful": dist(vals), "errored": dist([]), "incomplete": dist([]), "total": dist(vals)}
    put("request_latency", [r["request_latency"] or 0.0 for r in succ])
    put("prompt_token_count", [r["prompt_tokens"] or 0.0 for r in succ])
    put("output_token_count", [r["output_tokens"] or 0.0 for r in succ])
    put("time_to_first_token_ms", [r["time_to_first_token_ms"] or 0.0 for r in succ])
    put("time_per_output_token_ms", [(r["time_per_output_token_ms"] or 0.0, r["output_tokens"] or 0.0) for r in succ])
    put("inter_token_latency_ms", [(r["inter_token_latency_ms"] or 0.0, (r["output_tokens"] or 1.0) - 1.0) for r in succ])
    out["request_totals"] = {"successful": len(succ), "errored": 0, "incomplete": 0, "total": len(succ)}
    return out

def benchmark(idx, strategy, reqs, errored, incomplete, a, b):
    succ_in = [r for r in reqs if within(r, a, b)]
    return {"type_": "generative_benchmark",
            "config": {"id_": "bench-%d" % idx, "run_id": "run-1", "run_index": idx, "strategy": strategy,
                       "constraints": {}, "sample_requests": None},
            "scheduler_state": {"node_id": 0, "num_processes": 1, "start_time": a - 2, "end_time": b + 2},
            "scheduler_metrics": {"start_time": a - 2, "request_start_time": a - 1, "measure_start_time": a,
                                  "measure_end_time": b, "request_end_time": b + 1, "end_time": b + 2,
                                  "requests_made": {"successful": len(reqs), "errored": len(errored),
                                                    "incomplete": len(incomplete), "total": len(reqs) + len(errored) + len(incomplete)}},
            "metrics": metrics(succ_in),
            "requests": {"successful": reqs, "errored": errored, "incomplete": incomplete, "total": None},
            "start_time": a, "end_time": b, "duration": b - a, "warmup_duration": 0.0, "cooldown_duration": 0.0}

random.seed(7)
T0 = 1764000000.0
# benchmark 1: concurrent, 2 streams
b1 = []
ttfts = [0.0213, 0.0187, 0.0213, 0.0301, 0.0256, 0.0199, 0.0422, 0.0231, 0.0213, 0.0278, 0.0190, 0.0345, 0.0266]
ns = [128, 64, 128, 32, 100, 128, 1, 77, 128, 50, 90, 128, 60]
itls = [0.0052, 0.0061, 0.0049, 0.0070, 0.0055, 0.0050, 0.0060, 0.0058, 0.0051, 0.0066, 0.0057, 0.0053, 0.0062]
t = T0 + 10
for i in range(13):
    b1.append(rec("c%02d-%s" % (i, "a" * 30), t, ttfts[i], ns[i], itls[i], prompt=100 + 7 * i))
    t += 0.9 + 0.07 * i
warm = rec("c-warm-" + "b" * 30, T0 + 8.2, 0.0250, 10, 0.005)  # ends before the window opens
b1.insert(0, warm)
err1 = [rec("c-err-" + "c" * 30, T0 + 12.0, None, 0, 0.0, status='errored', error="HTTPStatusError: 500 Internal Server Error")]
inc1 = [rec("c-inc-" + "d" * 30, T0 + 20.0, 0.0300, 20, 0.005, status='cancelled', error="Request was cancelled")]
inc1[0]["output_tokens"] = None
bench1 = benchmark(0, {"type_": "concurrent", "streams": 2, "rampup_duration": 0.0, "worker_count": 2, "max_concurrency": 2},
                   b1, err1, inc1, T0 + 9.0, T0 + 40.0)
# benchmark 2: constant rate 4/s
b2 = []
t = T0 + 100
for i in range(9):
    b2.append(rec("r%02d-%s" % (i, "e" * 30), t, 0.015 + 0.0031 * ((i * 5) % 9), 40 + 11 * i, 0.0045 + 0.0002 * i, prompt=256))
    t += 0.25
bench2 = benchmark(1, {"type_": "constant", "rate": 4.0, "max_concurrency": None, "worker_count": 2},
                   b2, [], [], T0 + 99.0, T0 + 140.0)
doc = {"metadata": {"version": 1, "guidellm_version": "0.5.0", "python_version": "3.12.3", "platform": "Linux"},
       "args": {"target": "http://localhost:8000", "profile": "sweep", "rate": None, "outputs": ["json"]},
       "benchmarks": [bench1, bench2]}
json.dump(doc, open(sys.argv[1], "w"))
