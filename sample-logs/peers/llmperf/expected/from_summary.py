#!/usr/bin/env python3
"""Writes llmperf_metrics.json: the figures LLMPerf itself wrote in ../groq_70b_summary.json
(a real run, ray-project/llmperf-leaderboard raw_data @ 3ecc0cbd; see
src/test/resources/real-logs/peers/PROVENANCE.md), as metric -> statistic -> value, for the
statistics tokentime recomputes from ../groq_70b_individual_responses.json."""
import json, os, re

here = os.path.dirname(os.path.abspath(__file__))
s = json.load(open(os.path.join(here, "..", "groq_70b_summary.json")))
out = {}
for k, v in s.items():
    m = re.match(r"^results_(.+)_quantiles_(p\d+)$", k) or re.match(r"^results_(.+)_(mean|min|max|stddev)$", k)
    if m and not k.endswith("_per_min"):
        out.setdefault(m.group(1), {})[m.group(2)] = float(v)
for k in ("num_requests_started", "number_errors", "error_rate", "num_completed_requests"):
    out[k] = {"value": float(s["results_" + k])}
with open(os.path.join(here, "llmperf_metrics.json"), "w") as f:
    json.dump({"computed_by": "LLMPerf itself (its summary.json); from_summary.py only reshapes it", "run": "llmperf",
               "metrics": out}, f, indent=1)
    f.write("\n")
