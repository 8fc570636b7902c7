#!/usr/bin/env python3
"""Independent reference for sample-logs/canonical: recomputes, with numpy and the definitions
of docs/metrics.md, what `tokentime summary --format json` must report for the samples, and
writes summary.json beside this script. It shares no code with tokentime: if the two disagree,
one of them is wrong.

    python3 sample-logs/canonical/expected/compute_expected.py

Definitions used (docs/metrics.md):
- measured request: phase != "warmup"; ok: status == "ok"
- TTFT = first token - arrival; pre-queue = queued - arrival; queue = scheduled - queued;
  prefill = first token - scheduled; decode = last token - first token; E2E = last token - arrival
- TPOT = (E2E - TTFT) / (output_tokens - 1), for output_tokens > 1
- ITL = gaps between consecutive tokens_ns of a request, pooled over the ok measured requests
- statistics over ok measured requests; std is population (ddof=0); percentiles numpy linear
- window = first arrival to last finish (finished_ns, else last token) of measured requests
- output tokens/s = sum(output_tokens of ok measured) / window; requests/s = ok measured / window
"""
import glob
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.dirname(HERE)
PCTS = [1, 5, 10, 25, 50, 75, 90, 95, 99]


def stats(values):
    v = np.array(values, dtype=float)
    if len(v) == 0:
        return {"unit": "ms", "count": 0}
    out = {"unit": "ms", "count": int(len(v)), "mean": float(v.mean()), "std": float(v.std()),
           "min": float(v.min()), "max": float(v.max())}
    for p in PCTS:
        out[f"p{p}"] = float(np.percentile(v, p))
    return out


def main():
    runs = {}
    for path in sorted(glob.glob(os.path.join(SAMPLES, "*.jsonl"))):
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    runs.setdefault(r["run"], []).append(r)
    out = []
    for run, reqs in sorted(runs.items(), key=lambda kv: kv[1][0]["concurrency"]):
        measured = [r for r in reqs if r.get("phase") != "warmup"]
        ok = [r for r in measured if r.get("status", "ok") == "ok"]
        ms = lambda a, b: (a - b) / 1e6
        metrics = {
            "ttft_ms": [ms(r["first_token_ns"], r["arrival_ns"]) for r in ok],
            "pre_queue_ms": [ms(r["queued_ns"], r["arrival_ns"]) for r in ok],
            "queue_ms": [ms(r["scheduled_ns"], r["queued_ns"]) for r in ok],
            "prefill_ms": [ms(r["first_token_ns"], r["scheduled_ns"]) for r in ok],
            "decode_ms": [ms(r["last_token_ns"], r["first_token_ns"]) for r in ok],
            "itl_ms": [ms(b, a) for r in ok for a, b in zip(r["tokens_ns"], r["tokens_ns"][1:])],
            "tpot_ms": [(ms(r["last_token_ns"], r["arrival_ns"]) - ms(r["first_token_ns"], r["arrival_ns"]))
                        / (r["output_tokens"] - 1) for r in ok if r["output_tokens"] > 1],
            "e2e_ms": [ms(r["last_token_ns"], r["arrival_ns"]) for r in ok],
        }
        start = min(r["arrival_ns"] for r in measured)
        end = max(r.get("finished_ns") or r["last_token_ns"] for r in measured)
        duration = (end - start) / 1e9
        out.append({
            "run": run,
            "level_kind": "concurrency",
            "level": float(reqs[0]["concurrency"]),
            "requests": {"measured": len(measured), "ok": len(ok), "failed": len(measured) - len(ok),
                         "excluded": len(reqs) - len(measured)},
            "window": {"start_ns": start, "end_ns": end, "duration_s": duration},
            "throughput": {"output_tokens_per_s": sum(r["output_tokens"] for r in ok) / duration,
                           "requests_per_s": len(ok) / duration},
            "tokens": {"input": sum(r["prompt_tokens"] for r in ok),
                       "output": sum(r["output_tokens"] for r in ok),
                       "mean_input": float(np.mean([r["prompt_tokens"] for r in ok])),
                       "mean_output": float(np.mean([r["output_tokens"] for r in ok]))},
            "metrics": {k: stats(v) for k, v in metrics.items()},
        })
    with open(os.path.join(HERE, "summary.json"), "w") as f:
        json.dump({"computed_by": "compute_expected.py (numpy " + np.__version__ + ")", "runs": out}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
