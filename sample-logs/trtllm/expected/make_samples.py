#!/usr/bin/env python3
"""Writes the TensorRT-LLM / Triton samples under sample-logs/trtllm/ and, beside this script,
trtllm_expected.json with the numbers tokentime must find in them. Plain Python, no tokentime code.
Deterministic. All times are whole microseconds here (ints), as TensorRT-LLM's timedelta seconds are.

trtllm-serve/   a simulated in-flight batching server: eight requests; two /perf_metrics polls
                (one compact array per line) with per-step token times; two /metrics polls of
                IterationStats whose second lost iterations 6 and 7 (a concurrent drain).
trtllm-disagg/  three disaggregated records from a disagg server's /perf_metrics, pretty-printed.
triton-trace/   a Triton trace (--trace-config triton) of three streamed generate_stream requests,
                fragments interleaved as Triton writes them.
trtllm-bench/   trtllm-bench --request_json (six requests) and --report_json, the report's figures
                computed as tensorrt_llm/bench/dataclasses/{statistics,reporting}.py compute them.
"""
import datetime
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")


def out(path, text):
    p = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def sec(us):
    """Microseconds as TensorRT-LLM's float seconds (repr of the nearest double: exact decimals)."""
    return us / 1e6


def ms(us):
    return us / 1000.0


# ---------------------------------------------------------------- trtllm-serve
# steady clock: microseconds since boot; the host's wall clock is steady + OFFSET
OFFSET_US = 1_767_225_600_000_000 - 4_000_000_000  # wall 2026-01-01 00:00:00 UTC at steady 4000 s
START = 4_000_000_000
arrivals = [0, 4_000, 11_000, 15_000, 26_000, 30_000, 41_000, 52_000]
prompts = [120, 80, 200, 64, 150, 96, 300, 40]
outputs = [4, 6, 3, 7, 5, 4, 3, 6]
MAX_BATCH = 3


class Req:
    pass


reqs = []
for i, a in enumerate(arrivals):
    r = Req()
    r.id = i + 1
    r.arrival = START + a
    r.server_arrival = r.arrival - 800 - 100 * i
    r.prompt = prompts[i]
    r.out = outputs[i]
    r.tokens = []
    r.first_iter = r.last_iter = None
    reqs.append(r)

iters = []  # one dict per iteration
t = START + 2_000
k = 0
waiting, running = [], []
pending = list(reqs)
while pending or waiting or running:
    while pending and pending[0].arrival <= t:
        waiting.append(pending.pop(0))
    if not waiting and not running:
        t = pending[0].arrival + 1_000  # idle until the next arrival is picked up
        continue
    k += 1
    admitted = []
    while waiting and len(running) + len(admitted) < MAX_BATCH:
        admitted.append(waiting.pop(0))
    decoding = list(running)
    dur = 4_000 + 500 * len(decoding) + 10 * sum(r.prompt for r in admitted)
    end = t + dur
    for r in admitted:
        r.first_scheduled = t
        r.first_iter = k
    for r in admitted + decoding:
        r.tokens.append(end)  # the iteration's token, ready when it ends
        r.last_iter = k
    # the statistics are stamped a little after the iteration's tokens are ready
    iters.append({"iter": k, "start": t, "end": end, "ts": end + 150 + 37 * (k % 3),
                  "ctx": len(admitted), "gen": len(decoding),
                  "ctx_tokens": sum(r.prompt for r in admitted), "waiting": len(waiting),
                  "active": len(admitted) + len(decoding)})
    running = [r for r in admitted + decoding if len(r.tokens) < r.out]
    for r in admitted + decoding:
        if len(r.tokens) == r.out:
            r.last_token = end
    t = end + 200  # host overhead between iterations

for r in reqs:
    r.first_token = r.tokens[0]
    r.server_first_token = r.first_token + 300


def perf_record(r):
    return {"request_id": r.id,
            "perf_metrics": {"first_iter": r.first_iter, "last_iter": r.last_iter,
                             "timing_metrics": {"server_arrival_time": sec(r.server_arrival),
                                                "arrival_time": sec(r.arrival),
                                                "first_scheduled_time": sec(r.first_scheduled),
                                                "first_token_time": sec(r.first_token),
                                                "server_first_token_time": sec(r.server_first_token),
                                                "last_token_time": sec(r.last_token)},
                             "kv_cache_metrics": {"num_total_allocated_blocks": 1 + r.prompt // 64,
                                                  "num_new_allocated_blocks": 1 + r.prompt // 64,
                                                  "num_reused_blocks": 0, "num_missed_blocks": 1}},
            "time_breakdown_metrics": {"step_metrics": [{"iter": r.first_iter + j, "token_time": sec(tt)}
                                                        for j, tt in enumerate(r.tokens[1:], start=1)]}}


by_end = sorted(reqs, key=lambda r: (r.last_token, r.id))
poll1 = [perf_record(r) for r in by_end[:4]]
poll2 = [perf_record(r) for r in by_end[4:]]
out("trtllm-serve/perf_metrics.json",
    json.dumps(poll1, separators=(",", ":")) + "\n" + json.dumps(poll2, separators=(",", ":")) + "\n")


def stamp(us_steady):
    wall = datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=us_steady + OFFSET_US)
    return wall.strftime("%m-%d-%Y %H:%M:%S.%f")


LOST = {6, 7}


def iter_stats(it):
    return {"cpuMemUsage": 0, "gpuMemUsage": 20_000_000_000,
            "inflightBatchingStats": {"avgNumDecodedTokensPerIter": 1.0, "microBatchId": 0,
                                      "numContextRequests": it["ctx"], "numCtxTokens": it["ctx_tokens"],
                                      "numGenRequests": it["gen"], "numPausedRequests": 0,
                                      "numScheduledRequests": it["ctx"] + it["gen"]},
            "iter": it["iter"], "iterLatencyMS": ms(it["end"] - it["start"]),
            "kvCacheStats": {"freeNumBlocks": 100 - 4 * it["active"], "maxNumBlocks": 100,
                             "tokensPerBlock": 64, "usedNumBlocks": 4 * it["active"]},
            "numActiveRequests": it["active"], "numQueuedRequests": it["waiting"],
            "timestamp": stamp(it["ts"])}


kept = [it for it in iters if it["iter"] not in LOST]
half = len(kept) // 2
out("trtllm-serve/iteration_stats.json",
    json.dumps([iter_stats(it) for it in kept[:half]], separators=(",", ":")) + "\n"
    + json.dumps([iter_stats(it) for it in kept[half:]], separators=(",", ":")) + "\n")

serve_requests = {}
for r in reqs:
    serve_requests[str(r.id)] = {
        "queue_ms": ms(r.first_scheduled - r.arrival), "prefill_ms": ms(r.first_token - r.first_scheduled),
        "ttft_ms": ms(r.first_token - r.arrival), "decode_ms": ms(r.last_token - r.first_token),
        "e2e_ms": ms(r.last_token - r.arrival), "output_tokens": r.out,
        "itl_mean_ms": ms(r.last_token - r.first_token) / (r.out - 1),
        "tpot_ms": ms(r.last_token - r.first_token) / (r.out - 1)}

phases = {}
for r in reqs:
    phases[str(r.id)] = {"http_pre_queue_ms": ms(r.arrival - r.server_arrival),
                         "post_processing_ms": ms(r.server_first_token - r.first_token),
                         "http_ttft_ms": ms(r.server_first_token - r.server_arrival)}

by_iter = {it["iter"]: it for it in kept}
batches = {}
for r in reqs:
    found = [k for k in range(r.first_iter, r.last_iter + 1) if k in by_iter]
    dec = [by_iter[k] for k in found if k > r.first_iter]
    b = {"steps_found": len(found), "decode_steps": len(dec)}
    if r.first_iter in by_iter:
        b["prefill_batch"] = by_iter[r.first_iter]["ctx"] + by_iter[r.first_iter]["gen"]
    if dec:
        sizes = [it["ctx"] + it["gen"] for it in dec]
        b["decode_batch_mean"] = sum(sizes) / len(sizes)
        b["decode_batch_max"] = max(sizes)
        b["decode_ctx_requests_mean"] = sum(it["ctx"] for it in dec) / len(dec)
    batches[str(r.id)] = b

gaps = []
for a, b in zip(kept, kept[1:]):
    if b["iter"] > a["iter"] + 1:
        gaps.append({"after_iter": a["iter"], "next_iter": b["iter"], "missing": b["iter"] - a["iter"] - 1,
                     "gap_ms": ms(b["ts"] - a["ts"])})

# batch_size_timeline_at(0.01), method steps: each kept step holds from its stamp to the next kept one
W = 10_000
segs = [(a["ts"], b["ts"], a["ctx"] + a["gen"]) for a, b in zip(kept, kept[1:])]
t0 = segs[0][0]
timeline = []
bucket = 0
while t0 + bucket * W < segs[-1][1]:
    lo, hi = t0 + bucket * W, t0 + (bucket + 1) * W
    cover = [(min(e, hi) - max(s, lo), v) for s, e, v in segs if s < hi and e > lo]
    if cover:
        covered = sum(o for o, _ in cover)
        timeline.append({"t_s": bucket * W / 1e6, "batch_mean": sum(o * v for o, v in cover) / covered,
                         "batch_max": max(v for _, v in cover), "coverage": covered / W})
    bucket += 1

# the offset as trtllm_clock_offsets estimates it: iteration stamp (wall) minus last token (steady),
# median (the lower middle of an even count) and spread; the true offset is OFFSET_US
readings = sorted((by_iter[r.last_iter]["ts"] + OFFSET_US) - r.last_token for r in reqs if r.last_iter in by_iter)
clock = {"pairs": len(readings), "offset_ns": readings[(len(readings) - 1) // 2] * 1000,
         "spread_ms": (readings[-1] - readings[0]) / 1000.0, "true_offset_ns": OFFSET_US * 1000}

# ---------------------------------------------------------------- trtllm-disagg
disagg_records, disagg_phases = [], {}
for j in range(3):
    b = 7_000_000_000 + 100_000 * j  # the disagg server's arrival (aligned steady clock)
    c_sa, c_a, c_s, c_f, c_sf = b + 1_500, b + 2_100, b + 5_000 + 1_000 * j, b + 35_000 + 2_000 * j, 0
    c_sf = c_f + 400
    g_sa, g_a = c_sf + 1_200, c_sf + 1_900
    kv_s, kv_e = g_a + 600, g_a + 600 + 2_500 + 500 * j
    g_s, g_f, g_sf = kv_e + 800, kv_e + 9_000, kv_e + 9_350
    g_l = g_f + 12_000 * (4 + j)
    d_f = g_sf + 700
    disagg_records.append({
        "ctx_server": "ctx-0:8001", "gen_server": "gen-0:8002", "disagg_server_arrival_time": sec(b),
        "disagg_ctx_dispatch_time": sec(b + 900), "disagg_server_first_token_time": sec(d_f),
        "ctx_perf_metrics": {"request_id": 100 + j, "perf_metrics": {
            "first_iter": 10 + j, "last_iter": 10 + j,
            "timing_metrics": {"server_arrival_time": sec(c_sa), "arrival_time": sec(c_a),
                               "first_scheduled_time": sec(c_s), "first_token_time": sec(c_f),
                               "server_first_token_time": sec(c_sf), "last_token_time": sec(c_f)}}},
        "gen_perf_metrics": {"request_id": 200 + j, "ctx_request_id": 100 + j, "perf_metrics": {
            "first_iter": 50 + 5 * j, "last_iter": 50 + 5 * j + 4 + j,
            "timing_metrics": {"server_arrival_time": sec(g_sa), "arrival_time": sec(g_a),
                               "first_scheduled_time": sec(g_s), "first_token_time": sec(g_f),
                               "server_first_token_time": sec(g_sf), "last_token_time": sec(g_l),
                               "kv_cache_size": 2_097_152 * (j + 1), "kv_cache_transfer_start": sec(kv_s),
                               "kv_cache_transfer_end": sec(kv_e)}}}})
    disagg_phases[str(100 + j)] = {
        "http_pre_queue_ms": ms(c_a - c_sa), "queue_ms": ms(c_s - c_a), "prefill_ms": ms(c_f - c_s),
        "ttft_ms": ms(c_f - c_a), "post_processing_ms": ms(c_sf - c_f), "http_ttft_ms": ms(d_f - b),
        "decode_ms": ms(g_l - c_f), "disagg_routing_ms": ms(c_sa - b), "relay_ms": ms(g_sa - c_sf),
        "gen_pre_queue_ms": ms(g_a - g_sa), "gen_queue_ms": ms(kv_s - g_a), "kv_transfer_ms": ms(kv_e - kv_s),
        "post_transfer_ms": ms(g_s - kv_e), "kv_cache_size_bytes": 2_097_152 * (j + 1)}
out("trtllm-disagg/perf_metrics.json", json.dumps(disagg_records, indent=2) + "\n")

# ---------------------------------------------------------------- triton-trace (ns)
frags_by_time = []
trace_requests = {}
for j in range(3):
    base = 9_000_000_000_000 + 7_000_000 * j
    recv, req_start, queue, compute = base, base + 40_000, base + 55_000, base + 70_000 + 10_000 * j
    responses = [compute + 30_000_000 + 1_000_000 * j + 12_000_000 * n + 137 * n * n for n in range(4 + j)]
    compute_end = responses[-1] + 20_000
    req_end = compute_end + 15_000
    tid = 11 + j
    frags_by_time.append((recv - 1, {"id": tid, "model_name": "tensorrt_llm", "model_version": 1,
                                     "request_id": "client-%d" % j}))
    stamps = [("HTTP_RECV_START", recv), ("HTTP_RECV_END", recv + 9_000), ("REQUEST_START", req_start),
              ("QUEUE_START", queue), ("COMPUTE_START", compute), ("COMPUTE_END", compute_end),
              ("REQUEST_END", req_end)] + [("INFER_RESPONSE_COMPLETE", x) for x in responses]
    for name, ns in stamps:
        frags_by_time.append((ns, {"id": tid, "timestamps": [{"name": name, "ns": ns}]}))
    first, last = responses[0], responses[-1]
    trace_requests[str(tid)] = {"pre_queue_ms": (queue - recv) / 1e6, "queue_ms": (compute - queue) / 1e6,
                                "prefill_ms": (first - compute) / 1e6, "ttft_ms": (first - recv) / 1e6,
                                "decode_ms": (last - first) / 1e6, "e2e_ms": (last - recv) / 1e6,
                                "itl_mean_ms": (last - first) / 1e6 / (len(responses) - 1),
                                "content_chunks": len(responses)}
frags_by_time.sort(key=lambda x: x[0])
out("triton-trace/trace.json", "[\n" + ",\n".join(json.dumps(f) for _, f in frags_by_time) + "\n]\n")

# ---------------------------------------------------------------- trtllm-bench (client perf_counter_ns)
bench_records = []
for j in range(6):
    start = 812_000_000_000 + 3_000_000 * j
    first = start + 40_000_000 + 5_000_000 * (j % 3)
    n_out = 16 + 4 * j
    end = first + (n_out - 1) * (7_000_000 + 250_000 * j)
    bench_records.append({"id": j, "num_input_tokens": 128, "error_tokens": 0, "start_timestamp": start,
                          "first_token_timestamp": first, "end_timestamp": end, "decode_iteration": n_out - 1,
                          "num_output_tokens": n_out, "num_generated_tokens": n_out - 1,
                          "generation_time": end - first, "time_to_first_token": first - start,
                          "intertoken_latency": (end - first) / (n_out - 1), "end_to_end_latency": end - start,
                          "total_token_throughput": n_out / (end - start),
                          "output_token_throughput": (n_out - 1) / (end - first),
                          "output": "x" * n_out, "output_tokens": n_out})
out("trtllm-bench/requests.json", json.dumps(bench_records) + "\n")


def percentiles(values):
    """PercentileStats.from_iterable: sorted values at int(n * p), as trtllm-bench picks them."""
    s = sorted(values)
    n = len(s)
    return {"p50": s[int(n * 0.50)], "p90": s[int(n * 0.90)], "p95": s[int(n * 0.95)], "p99": s[int(n * 0.99)],
            "minimum": min(s), "maximum": max(s), "average": sum(s) / n}


starts = [r["start_timestamp"] for r in bench_records]
ends = [r["end_timestamp"] for r in bench_records]
total_ns = max(ends) - min(starts)
n_req = len(bench_records)
total_out = sum(r["num_output_tokens"] for r in bench_records)
lat = percentiles([r["end_to_end_latency"] for r in bench_records])
ttft = percentiles([r["time_to_first_token"] for r in bench_records])
tpot = percentiles([r["intertoken_latency"] for r in bench_records])
report = {
    "engine": {"model": "meta-llama/Llama-3.1-8B-Instruct", "model_path": "None", "engine_dir": "None",
               "version": "1.0.0", "backend": "Pytorch", "dtype": "bfloat16"},
    "world_info": {"tp_size": 1, "pp_size": 1, "ep_size": None, "world_size": 1, "max_batch_size": 64,
                   "max_num_tokens": 8192, "scheduling_policy": "GUARANTEED_NO_EVICT", "kv_cache_percentage": 0.9},
    "request_info": {"num_requests": n_req, "avg_input_length": 128.0, "avg_output_length": total_out / n_req},
    "performance": {"total_latency_ms": total_ns / 1e6, "avg_request_latency_ms": lat["average"] / 1e6,
                    "request_throughput_req_s": n_req / total_ns * 1e9,
                    "system_output_throughput_tok_s": total_out / total_ns * 1e9,
                    "request_latency_percentiles_ms": {k: v / 1e6 for k, v in lat.items()}},
    "streaming_metrics": {"avg_ttft_ms": ttft["average"] / 1e6, "avg_tpot_ms": tpot["average"] / 1e6,
                          "tpot_percentiles": {k: v / 1e6 for k, v in tpot.items()},
                          "ttft_percentiles": {k: v / 1e6 for k, v in ttft.items()}}}
out("trtllm-bench/report.json", json.dumps(report, indent=4) + "\n")
bench_requests = {str(r["id"]): {"ttft_ms": r["time_to_first_token"] / 1e6, "e2e_ms": r["end_to_end_latency"] / 1e6,
                                 "tpot_ms": r["intertoken_latency"] / 1e6, "output_tokens": r["num_output_tokens"]}
                  for r in bench_records}
reported = {"request_throughput_req_s/value": report["performance"]["request_throughput_req_s"],
            "total_latency_ms/value": report["performance"]["total_latency_ms"],
            "avg_ttft_ms/value": report["streaming_metrics"]["avg_ttft_ms"],
            "ttft/p50": report["streaming_metrics"]["ttft_percentiles"]["p50"],
            "tpot/avg": report["streaming_metrics"]["tpot_percentiles"]["average"],
            "request_latency/max": report["performance"]["request_latency_percentiles_ms"]["maximum"]}

expected = {
    "computed_by": "make_samples.py (plain Python, integer microseconds / nanoseconds)",
    "request_latency": {"trtllm-serve": serve_requests, "trtllm-disagg": {
        k: {m: v for m, v in p.items() if m in ("queue_ms", "prefill_ms", "ttft_ms", "decode_ms")}
        for k, p in disagg_phases.items()}, "triton-trace": trace_requests, "trtllm-bench": bench_requests},
    "trtllm_request_phases": {"trtllm-serve": phases, "trtllm-disagg": disagg_phases},
    "trtllm_request_batches": {"trtllm-serve": batches},
    "trtllm_iteration_gaps": {"trtllm-serve": gaps},
    "batch_size_timeline_steps_10ms": {"trtllm-serve": timeline},
    "trtllm_clock_offsets": {"trtllm-serve": clock},
    "reported_metrics": {"trtllm-bench": reported},
    "counts": {"trtllm-serve": {"requests": len(reqs), "steps": len(kept), "iterations": len(iters)},
               "trtllm-disagg": {"requests": 3}, "triton-trace": {"requests": 3,
                                                                   "fragments": len(frags_by_time)},
               "trtllm-bench": {"requests": n_req}},
}
with open(os.path.join(HERE, "trtllm_expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
