#!/usr/bin/env python3
"""Writes ../profile_export.json (a small perf_analyzer export, constructed) and
genai_perf_metrics.json: genai-perf's figures for it, computed here the way genai-perf's
llm_profile_data_parser computes them (plain Python, no tokentime code). Deterministic."""
import json, math, os

here = os.path.dirname(os.path.abspath(__file__))
T0 = 1767225600000000000
MS = 1_000_000

def chunk(delta):
    return {"response": "data: " + json.dumps({"object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta}]}) + "\n\n"}

requests = []
for i in range(6):
    send = T0 + i * 50 * MS
    first = send + (80 + 15 * i) * MS
    ts, out = [first - 5 * MS], [chunk({"role": "assistant"})]
    t, tokens, n = first, 0, 5 + i
    for j in range(n):
        if j > 0:
            t += (20 + (j * 3) % 7) * MS + i * 1001
        k = 2 if j % 3 == 2 else 1
        tokens += k
        ts.append(t)
        out.append(chunk({"content": "w" * k}))
        if i == 5 and j == 1:
            ts.append(t + 1 * MS)
            out.append({"response": "event: error: upstream closed\n\n"})
            break
    if i != 5:
        ts.append(t + 1 * MS)
        out.append({"response": "data: " + json.dumps({"object": "chat.completion.chunk", "choices": [],
                    "usage": {"prompt_tokens": 100 + 10 * i, "completion_tokens": tokens}}) + "\n\n"})
    ts.append(ts[-1] + 1 * MS)
    out.append({"response": "data: [DONE]\n\n"})
    requests.append({"timestamp": send, "request_inputs": {"payload": "{}"},
                     "response_timestamps": ts, "response_outputs": out})

doc = {"service_kind": "openai", "endpoint": "v1/chat/completions",
       "experiments": [{"experiment": {"mode": "concurrency", "value": 8}, "requests": requests}]}
with open(os.path.join(here, "..", "profile_export.json"), "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")

# ---- genai-perf's definitions
def text_of(resp):
    body = resp["response"].strip()
    if not body.startswith("data:"):
        return None
    payload = body[5:].strip()
    if payload == "[DONE]":
        return ""
    d = json.loads(payload)
    return d["choices"][0]["delta"].get("content", "") if d["choices"] else ""

lat, ttft, ttst, itl, tpu, osl, isl = [], [], [], [], [], [], []
lo, hi = math.inf, 0
for r in requests:
    kept = [(t, text_of(o)) for t, o in zip(r["response_timestamps"], r["response_outputs"])]
    kept = [(t, x) for t, x in kept if x]            # responses without content are removed
    usage = [json.loads(o["response"].strip()[5:])["usage"] for o in r["response_outputs"]
             if '"usage"' in o["response"]]
    n = usage[0]["completion_tokens"] if usage else len(kept)   # tokentime: usage, else chunks
    if usage:
        isl.append(usage[0]["prompt_tokens"])
    ts = [t for t, _ in kept]
    lo, hi = min(lo, r["timestamp"]), max(hi, ts[-1])
    lat.append(ts[-1] - r["timestamp"]); ttft.append(ts[0] - r["timestamp"])
    if len(ts) > 1:
        ttst.append(ts[1] - ts[0])
    if n > 1:
        v = round((lat[-1] - ttft[-1]) / (n - 1))   # Python round: half to even
        itl.append(v)
        if v > 0:
            tpu.append(1 / (v / 1e9))
    osl.append(n)
dur = (hi - lo) / 1e9

def stats(values, scale=1.0):
    v = sorted(x * scale for x in values)
    m = sum(v) / len(v)
    def pct(p):
        pos = (len(v) - 1) * p / 100; a = math.floor(pos); b = math.ceil(pos)
        return v[a] + (v[b] - v[a]) * (pos - a)
    out = {"avg": m, "min": v[0], "max": v[-1], "std": math.sqrt(sum((x - m) ** 2 for x in v) / len(v))}
    for p in (1, 5, 10, 25, 50, 75, 90, 95, 99):
        out["p%d" % p] = pct(p)
    return out

expected = {
    "request_latency": stats(lat, 1e-6), "time_to_first_token": stats(ttft, 1e-6),
    "time_to_second_token": stats(ttst, 1e-6), "inter_token_latency": stats(itl, 1e-6),
    "output_token_throughput_per_user": stats(tpu), "output_sequence_length": stats(osl),
    "input_sequence_length": stats(isl),
    "request_throughput": {"avg": len(requests) / dur}, "output_token_throughput": {"avg": sum(osl) / dur},
    "request_count": {"avg": float(len(lat))},
}
with open(os.path.join(here, "genai_perf_metrics.json"), "w") as f:
    json.dump({"computed_by": "make_sample.py (genai-perf's formulas in plain Python)", "run": "genai-perf",
               "metrics": expected}, f, indent=1)
    f.write("\n")

# ---- the summary genai-perf writes beside its export (profile_export_genai_perf.json), from the
# same figures: what the tool would report about this run, for peer_comparison
units = {"request_throughput": "requests/sec", "output_token_throughput": "tokens/sec", "request_count": "count",
         "output_token_throughput_per_user": "tokens/sec/user", "output_sequence_length": "tokens",
         "input_sequence_length": "tokens"}
summary = {k: dict({"unit": units.get(k, "ms")}, **v) for k, v in expected.items()}
summary["input_config"] = {"perf_analyzer": {"stimulus": {"concurrency": 8}}}
with open(os.path.join(here, "..", "profile_export_genai_perf.json"), "w") as f:
    json.dump(summary, f, indent=1)
    f.write("\n")
