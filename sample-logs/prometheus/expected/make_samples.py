#!/usr/bin/env python3
"""Writes the Prometheus samples of other engines than vLLM and the numbers tokentime must read
from them (expected/expected.json), in plain Python (no tokentime code):

  ../sglang-server/metrics.prom   two /metrics scrapes of the SGLang server of sample-logs/sglang-server
                                  (sglang:* names and labels as metrics_collector.py writes them)
  trtllm-serve.prom               two scrapes of trtllm-serve's /prometheus/metrics (no prefix,
                                  engine_type/model_name "undefined")
  triton.prom                     two scrapes of Triton's /metrics (nv_inference_*, nv_trt_llm_*)

Each scrape line carries its timestamp (ms), as a federation or `promtool` dump writes it; the
scrapes are 10 s apart. Histogram rows are the per-bucket deltas between the two scrapes.
Run:  python3 sample-logs/prometheus/expected/make_samples.py
"""
import json
import os
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
SGLANG_OUT = os.path.join(os.path.dirname(OUT), "sglang-server")
T_SG = int(datetime(2026, 4, 8, 14, 0, 22, tzinfo=timezone.utc).timestamp()) * 1000
T_TR = int(datetime(2026, 1, 1, 0, 0, 10, tzinfo=timezone.utc).timestamp()) * 1000
expected = {}


def labels(d):
    return "{" + ",".join('%s="%s"' % kv for kv in d.items()) + "}" if d else ""


def fmt(v):
    return repr(float(v))


def histogram(out, name, lab, bounds, counts, total, ts):
    """Cumulative buckets as Prometheus writes them (counts are per bucket, not cumulative)."""
    c = 0
    for le, n in zip(bounds + ["+Inf"], counts):
        c += n
        out.append("%s_bucket%s %s %d" % (name, labels(dict(le=str(le), **lab)), fmt(c), ts))
    out.append("%s_count%s %s %d" % (name, labels(lab), fmt(c), ts))
    out.append("%s_sum%s %s %d" % (name, labels(lab), fmt(total), ts))


# ---- SGLang: two scrapes of one server, during and after b1..b3 ----
sg_lab = dict(engine_type="unified", model_name="Qwen/Qwen2.5-7B-Instruct")
ttft_bounds = [0.1, 0.25, 0.5, 1.0]
scrapes = [
    # ts, running, queue, token_usage, gen_throughput, cache_hit_rate, ttft per-bucket counts
    (T_SG, 3, 0, 0.03, 118.02, 0.0, [0, 2, 1, 0, 0]),
    (T_SG + 10_000, 0, 0, 0.0, 0.0, 0.12, [0, 2, 2, 0, 0]),
]
sg = []
for ts, running, queue, usage, gen, hit, ttft in scrapes:
    sg.append("# HELP sglang:num_running_reqs The number of running requests.")
    sg.append("# TYPE sglang:num_running_reqs gauge")
    sg.append("sglang:num_running_reqs%s %s %d" % (labels(sg_lab), fmt(running), ts))
    sg.append("# TYPE sglang:num_queue_reqs gauge")
    sg.append("sglang:num_queue_reqs%s %s %d" % (labels(sg_lab), fmt(queue), ts))
    sg.append("# TYPE sglang:token_usage gauge")
    sg.append("sglang:token_usage%s %s %d" % (labels(sg_lab), fmt(usage), ts))
    sg.append("# TYPE sglang:gen_throughput gauge")
    sg.append("sglang:gen_throughput%s %s %d" % (labels(sg_lab), fmt(gen), ts))
    sg.append("# TYPE sglang:cache_hit_rate gauge")
    sg.append("sglang:cache_hit_rate%s %s %d" % (labels(sg_lab), fmt(hit), ts))
    sg.append("# TYPE sglang:num_used_tokens gauge")
    sg.append("sglang:num_used_tokens%s %s %d" % (labels(sg_lab), fmt(round(usage * 1170000)), ts))
    sg.append("# TYPE sglang:time_to_first_token_seconds histogram")
    histogram(sg, "sglang:time_to_first_token_seconds", dict(model_name=sg_lab["model_name"]), ttft_bounds, ttft,
              0.3 * sum(ttft), ts)
with open(os.path.join(SGLANG_OUT, "metrics.prom"), "w") as f:
    f.write("\n".join(sg) + "\n")
lines = len(sg)
other = sum(1 for l in sg if l.startswith("#") or "_count" in l or "_sum" in l)
first_buckets = len(ttft_bounds) + 1  # the first scrape's buckets only start their series
expected["sglang"] = dict(
    lines=lines, other_lines=other, records=lines - other,
    engine_stats=[dict(ts_ms=s[0], running=s[1], waiting=s[2], kv_usage=s[3], gen_tokens_per_s=s[4],
                       prefix_hit_rate=s[5], instance="Qwen/Qwen2.5-7B-Instruct") for s in scrapes],
    ttft_deltas=[b - a for a, b in zip(scrapes[0][6], scrapes[1][6])],
)

# ---- trtllm-serve ----
tr_lab = dict(engine_type="undefined", model_name="undefined")
e2e_bounds = [0.3, 0.5, 0.8, 1.0, 1.5, 2.0]
tr_scrapes = [(T_TR, [0, 1, 3, 2, 1, 0, 0], [2, 3, 2, 0, 0]), (T_TR + 10_000, [0, 2, 5, 4, 2, 1, 0], [4, 6, 3, 1, 0])]
tr = []
for ts, e2e, ttft in tr_scrapes:
    tr.append("# HELP e2e_request_latency_seconds Histogram of end to end request latency in seconds.")
    tr.append("# TYPE e2e_request_latency_seconds histogram")
    histogram(tr, "e2e_request_latency_seconds", tr_lab, e2e_bounds, e2e, 0.9 * sum(e2e), ts)
    tr.append("# TYPE time_to_first_token_seconds histogram")
    histogram(tr, "time_to_first_token_seconds", tr_lab, [0.05, 0.1, 0.2, 0.5], ttft, 0.09 * sum(ttft), ts)
    tr.append("# TYPE request_success_total counter")
    tr.append("request_success_total%s %s %d" % (labels(dict(finished_reason="stop", **tr_lab)), fmt(sum(e2e) - 1), ts))
    tr.append("request_success_total%s %s %d" % (labels(dict(finished_reason="length", **tr_lab)), fmt(1), ts))
with open(os.path.join(OUT, "trtllm-serve.prom"), "w") as f:
    f.write("\n".join(tr) + "\n")
lines = len(tr)
other = sum(1 for l in tr if l.startswith("#") or "_count" in l or "_sum" in l)
expected["trtllm"] = dict(
    lines=lines, other_lines=other, records=lines - other,
    e2e_deltas=[b - a for a, b in zip(tr_scrapes[0][1], tr_scrapes[1][1])],
    success_stop_second=sum(tr_scrapes[1][1]) - 1,
)

# ---- Triton ----
tri_lab = dict(model="tensorrt_llm", version="1")
tri_scrapes = [
    # ts, success, failure, count, exec_count, request_us, queue_us, pending, active, kv used, kv max
    (T_TR, 40, 1, 40, 31, 52_400_000, 1_250_000, 2, 6, 310, 1000),
    (T_TR + 10_000, 52, 1, 52, 40, 68_900_000, 1_610_000, 0, 3, 120, 1000),
]
tri = []
for ts, ok, fail, cnt, execs, req_us, q_us, pending, active, used, mx in tri_scrapes:
    tri.append("# HELP nv_inference_request_success Number of successful inference requests, all batch sizes")
    tri.append("# TYPE nv_inference_request_success counter")
    tri.append("nv_inference_request_success%s %d %d" % (labels(tri_lab), ok, ts))
    tri.append("nv_inference_request_failure%s %d %d" % (labels(dict(reason="BACKEND", **tri_lab)), fail, ts))
    tri.append("nv_inference_count%s %d %d" % (labels(tri_lab), cnt, ts))
    tri.append("nv_inference_exec_count%s %d %d" % (labels(tri_lab), execs, ts))
    tri.append("nv_inference_request_duration_us%s %d %d" % (labels(tri_lab), req_us, ts))
    tri.append("nv_inference_queue_duration_us%s %d %d" % (labels(tri_lab), q_us, ts))
    tri.append("nv_inference_pending_request_count%s %d %d" % (labels(tri_lab), pending, ts))
    tri.append("# TYPE nv_trt_llm_request_metrics gauge")
    for kind, v in (("active", active), ("max", 64), ("scheduled", active), ("context", 0)):
        tri.append("nv_trt_llm_request_metrics%s %d %d" % (labels(dict(model="tensorrt_llm", request_type=kind, version="1")), v, ts))
    for kind, v in (("used", used), ("free", mx - used), ("max", mx), ("tokens_per", 64)):
        tri.append("nv_trt_llm_kv_cache_block_metrics%s %d %d"
                   % (labels(dict(kv_cache_block_type=kind, model="tensorrt_llm", version="1")), v, ts))
with open(os.path.join(OUT, "triton.prom"), "w") as f:
    f.write("\n".join(tri) + "\n")
lines = len(tri)
other = sum(1 for l in tri if l.startswith("#"))  # every sample is a record (the pending gauge ends in _count)
expected["triton"] = dict(
    lines=lines, other_lines=other, records=lines - other,
    engine_stats=[dict(ts_ms=s[0], waiting=s[7], running=s[8], kv_usage=s[9] / s[10], success=s[1],
                       request_duration_us=s[5], instance="tensorrt_llm / v1") for s in tri_scrapes],
    # what the counters say of the 10 s between the scrapes: mean request duration (ms)
    mean_request_ms=(tri_scrapes[1][5] - tri_scrapes[0][5]) / (tri_scrapes[1][1] - tri_scrapes[0][1]) / 1000,
)
with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
print("wrote", {k: v["lines"] for k, v in expected.items()})
