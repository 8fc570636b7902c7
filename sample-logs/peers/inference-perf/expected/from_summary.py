#!/usr/bin/env python3
"""Writes inference_perf_metrics.json: the figures inference-perf itself wrote in
../summary_lifecycle_metrics.json (computed by its report code from ../per_request_lifecycle_metrics.json;
kubernetes-sigs/inference-perf's golden corpus, see src/test/resources/real-logs/tools/PROVENANCE.md),
as metric -> statistic -> value, for the figures tokentime recomputes from the per-request file."""
import json, os

here = os.path.dirname(os.path.abspath(__file__))
s = json.load(open(os.path.join(here, "..", "summary_lifecycle_metrics.json")))
out = {}
for metric, stats in s["successes"]["latency"].items():
    out[metric] = {k: float(v) for k, v in stats.items()}
for metric in ("input_tokens_per_sec", "output_tokens_per_sec", "total_tokens_per_sec", "requests_per_sec"):
    out[metric] = {"value": float(s["successes"]["throughput"][metric])}
with open(os.path.join(here, "inference_perf_metrics.json"), "w") as f:
    json.dump({"computed_by": "inference-perf itself (its summary_lifecycle_metrics.json); from_summary.py only reshapes it",
               "run": "inference-perf", "metrics": out}, f, indent=1)
    f.write("\n")
