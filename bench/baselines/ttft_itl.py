#!/usr/bin/env python3
"""Baseline for issue 10, target 3: the script an engineer writes first.

Reads tokentime's canonical JSONL (per-request lines with a tokens_ns array, or a request line
followed by one line per token), keeps every TTFT and ITL sample in memory, sorts them and prints
P50/P90/P99 of TTFT, ITL and E2E with throughput, using json and lists only (no storage, no
numpy). Definitions as tokentime's defaults (docs/metrics.md): TTFT = first token - arrival,
ITL = gaps between consecutive tokens of a request, E2E = last token - arrival, over ok,
measured (non warm-up) requests; percentiles by linear interpolation.

Usage: ttft_itl.py FILE
"""
import json
import sys


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    k = (len(sorted_values) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def main(path):
    ttft, itl, e2e = [], [], []
    last_token = {}  # token-per-line form: request -> previous ts
    arrival = {}
    first_ns, last_ns, tokens = None, None, 0
    with open(path, "rb") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            rid = r["request_id"]
            if "ts_ns" in r:  # one token
                ts = r["ts_ns"]
                prev = last_token.get(rid)
                if prev is None:
                    if rid in arrival:
                        ttft.append((ts - arrival[rid]) / 1e6)
                else:
                    itl.append((ts - prev) / 1e6)
                last_token[rid] = ts
                tokens += 1
                last_ns = ts if last_ns is None else max(last_ns, ts)
                continue
            if r.get("phase") == "warmup" or r.get("status", "ok") != "ok":
                continue
            a = r.get("arrival_ns")
            first_ns = a if first_ns is None else min(first_ns, a)
            toks = r.get("tokens_ns")
            if toks is None:  # token lines follow
                arrival[rid] = a
                if r.get("last_token_ns"):
                    e2e.append((r["last_token_ns"] - a) / 1e6)
                continue
            if not toks:
                continue
            ttft.append((toks[0] - a) / 1e6)
            for prev, cur in zip(toks, toks[1:]):
                itl.append((cur - prev) / 1e6)
            e2e.append((toks[-1] - a) / 1e6)
            tokens += len(toks)
            last_ns = toks[-1] if last_ns is None else max(last_ns, toks[-1])
    for name, values in (("ttft_ms", ttft), ("itl_ms", itl), ("e2e_ms", e2e)):
        values.sort()
        print("%-8s n=%d p50=%.3f p90=%.3f p99=%.3f" % (
            name, len(values), percentile(values, 0.5), percentile(values, 0.9), percentile(values, 0.99)))
    if first_ns is not None and last_ns is not None and last_ns > first_ns:
        print("output_tokens_per_s %.1f" % (tokens / ((last_ns - first_ns) / 1e9)))


if __name__ == "__main__":
    main(sys.argv[1])
