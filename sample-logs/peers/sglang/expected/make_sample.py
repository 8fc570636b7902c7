#!/usr/bin/env python3
"""Writes ../sglang-bench.jsonl: one `python -m sglang.bench_serving --output-file ...
--output-details` line (constructed: five requests, no start times), whose figures are computed
here as sglang/bench_serving.py computes them (E2E from the per-request latency the arrays
imply: TTFT + sum of ITLs, as no [DONE] time is saved), and sglang_bench_metrics.json.
Plain Python, no tokentime code. Deterministic."""
import json, math, os

here = os.path.dirname(os.path.abspath(__file__))
ttfts, itls, ins, outs = [], [], [], []
for i in range(5):
    ttfts.append(round(0.06 + 0.01 * i, 6))
    itl = [round(0.012 + 0.003 * ((2 * i + j) % 5), 6) for j in range(2 + 2 * i)]
    itls.append(itl); outs.append(len(itl) + 1); ins.append(300 + i)
e2e = [t + sum(g) for t, g in zip(ttfts, itls)]
duration = 0.5

def pct(v, p):
    v = sorted(v); pos = (len(v) - 1) * p / 100; a = math.floor(pos); b = math.ceil(pos)
    return v[a] + (v[b] - v[a]) * (pos - a)

def block(name, values, extra=()):
    v = [x * 1000 for x in values]; m = sum(v) / len(v)
    out = {"mean_%s_ms" % name: m, "median_%s_ms" % name: pct(v, 50),
           "std_%s_ms" % name: math.sqrt(sum((x - m) ** 2 for x in v) / len(v)), "p99_%s_ms" % name: pct(v, 99)}
    for p in extra:
        out["p%d_%s_ms" % (p, name)] = pct(v, p)
    return out

tpot = [(e - t) / (o - 1) for e, t, o in zip(e2e, ttfts, outs) if o > 1]
line = {"backend": "sglang", "dataset_name": "random", "request_rate": float("inf"), "max_concurrency": None,
        "sharegpt_output_len": None, "random_input_len": 300, "random_output_len": 16, "random_range_ratio": 0.0,
        "duration": duration, "completed": 5, "total_input_tokens": sum(ins), "total_output_tokens": sum(outs),
        "total_output_tokens_retokenized": sum(outs), "request_throughput": 5 / duration,
        "input_throughput": sum(ins) / duration, "output_throughput": sum(outs) / duration}
line.update(block("e2e_latency", e2e)); line.update(block("ttft", ttfts)); line.update(block("tpot", tpot))
line.update(block("itl", [g for x in itls for g in x], extra=(95,)))
line["max_itl_ms"] = max(g for x in itls for g in x) * 1000
line["concurrency"] = sum(e2e) / duration
line.update({"input_lens": ins, "output_lens": outs, "ttfts": ttfts, "itls": itls,
             "generated_texts": ["y" * o for o in outs], "errors": [""] * 5})
with open(os.path.join(here, "..", "sglang-bench.jsonl"), "w") as f:
    f.write(json.dumps(line) + "\n")   # Python writes the infinite rate as Infinity, as SGLang does
expected = {}
for k, v in line.items():
    for stat in ("mean", "median", "std", "p99", "p95", "max"):
        if k.startswith(stat + "_") and k.endswith("_ms"):
            expected.setdefault(k[len(stat) + 1:-3], {})[stat] = v
for k in ("duration", "completed", "request_throughput", "input_throughput", "output_throughput", "concurrency"):
    expected[k] = {"value": float(line[k])}
with open(os.path.join(here, "sglang_bench_metrics.json"), "w") as f:
    json.dump({"computed_by": "make_sample.py (SGLang's formulas in plain Python)", "run": "sglang",
               "metrics": expected}, f, indent=1)
    f.write("\n")
