#!/usr/bin/env python3
"""Baseline for issue 10, target 4: a vLLM server log read with Python regular expressions.

Extracts from every line what tokentime's vllm-log format stages for the request lifecycle and
per-token rows: the container timestamp, the line kind (Received, Added, Generated response,
Finished, engine stats) and the request id, and counts lines per kind. Holds one tuple per
matched line in memory, as a staging script would before writing them out.

Usage: vllm_log_regex.py FILE
"""
import re
import sys

LINE = re.compile(
    r"^(?P<ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z) \(APIServer pid=\d+\) "
    r"(?:INFO \d\d-\d\d \d\d:\d\d:\d\d \[[^\]]+\] )?"
    r"(?:(?P<kind>Received request|Added request|Generated response|Finished request) (?P<id>[^\s:]+?)[.:]?(?:\s|$)"
    r"|(?P<stats>Engine \d+: Avg prompt throughput: (?P<pt>[\d.]+) tokens/s, Avg generation throughput: (?P<gt>[\d.]+) tokens/s, Running: (?P<run>\d+) reqs, Waiting: (?P<wait>\d+) reqs))")


def main(path):
    rows = []
    counts = {}
    lines = 0
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for line in f:
            lines += 1
            m = LINE.match(line)
            if m is None:
                counts["other"] = counts.get("other", 0) + 1
                continue
            kind = m.group("kind") or "stats"
            counts[kind] = counts.get(kind, 0) + 1
            rows.append((m.group("ts"), kind, m.group("id"), m.group("run"), m.group("wait")))
    print("lines %d" % lines)
    for k in sorted(counts):
        print("%-20s %d" % (k, counts[k]))


if __name__ == "__main__":
    main(sys.argv[1])
