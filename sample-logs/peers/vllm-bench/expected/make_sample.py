#!/usr/bin/env python3
"""Writes ../vllm-bench-result.json: a small `vllm bench serve --save-result --save-detailed`
result (constructed: six requests at max_concurrency 16, one failed), whose run figures are
computed here as vllm/benchmarks/serve.py computes them, and vllm_bench_metrics.json with the
same figures for the test. Plain Python, no tokentime code. Deterministic."""
import json, math, os

here = os.path.dirname(os.path.abspath(__file__))
start0 = 1234.5
ttfts, itls, starts, lats, ins, outs, errors = [], [], [], [], [], [], []
for i in range(6):
    ok = i != 4
    starts.append(round(start0 + 0.05 * i, 6))
    ins.append(200 + 25 * i)
    if ok:
        ttfts.append(round(0.09 + 0.012 * i, 6))
        itl = [round(0.018 + 0.004 * ((i + j) % 4), 6) for j in range(3 + i)]
        itls.append(itl)
        outs.append(len(itl) + 1)
        lats.append(round(ttfts[-1] + sum(itl), 9))
        errors.append("")
    else:
        ttfts.append(0.0); itls.append([]); outs.append(0); lats.append(0.0)
        errors.append("aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected")
duration = 0.95

def pct(v, p):
    v = sorted(v); pos = (len(v) - 1) * p / 100; a = math.floor(pos); b = math.ceil(pos)
    return v[a] + (v[b] - v[a]) * (pos - a)

def block(name, values):
    v = [x * 1000 for x in values]; m = sum(v) / len(v)
    return {"mean_%s_ms" % name: m, "median_%s_ms" % name: pct(v, 50),
            "std_%s_ms" % name: math.sqrt(sum((x - m) ** 2 for x in v) / len(v)), "p99_%s_ms" % name: pct(v, 99)}

okidx = [i for i in range(6) if not errors[i]]
tpots = [(lats[i] - ttfts[i]) / (outs[i] - 1) for i in okidx if outs[i] > 1]
result = {"date": "20260101-000000", "endpoint_type": "openai-chat", "backend": "openai-chat", "label": None,
          "model_id": "meta-llama/Llama-3.1-8B-Instruct", "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct",
          "num_prompts": 6, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 16,
          "duration": duration, "completed": len(okidx), "failed": 6 - len(okidx),
          "total_input_tokens": sum(ins[i] for i in okidx), "total_output_tokens": sum(outs),
          "request_throughput": len(okidx) / duration, "request_goodput": None,
          "output_throughput": sum(outs) / duration,
          "total_token_throughput": (sum(ins[i] for i in okidx) + sum(outs)) / duration}
result.update(block("ttft", [ttfts[i] for i in okidx]))
result.update(block("tpot", tpots))
result.update(block("itl", [g for i in okidx for g in itls[i]]))
result.update(block("e2el", [lats[i] for i in okidx]))
result.update({"input_lens": ins, "output_lens": outs, "ttfts": ttfts, "itls": itls, "start_times": starts,
               "latencies": lats, "generated_texts": ["x" * o for o in outs], "errors": errors})
with open(os.path.join(here, "..", "vllm-bench-result.json"), "w") as f:
    json.dump(result, f)
    f.write("\n")
expected = {}
for k, v in result.items():
    for stat in ("mean", "median", "std", "p99"):
        if k.startswith(stat + "_") and k.endswith("_ms"):
            expected.setdefault(k[len(stat) + 1:-3], {})[stat] = v
for k in ("duration", "completed", "failed", "request_throughput", "output_throughput", "total_token_throughput",
          "total_input_tokens", "total_output_tokens"):
    expected[k] = {"value": float(result[k])}
with open(os.path.join(here, "vllm_bench_metrics.json"), "w") as f:
    json.dump({"computed_by": "make_sample.py (vLLM's formulas in plain Python)", "run": "vllm-bench",
               "metrics": expected}, f, indent=1)
    f.write("\n")
