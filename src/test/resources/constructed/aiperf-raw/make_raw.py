"""Writes profile_export_raw.jsonl beside this script from the real AIPerf 0.12.0 run's
profile_export.jsonl, as RawRecordWriterProcessor @1286d55 lays a RawRecordInfo out (see README.md).
The perf-counter origin, the chunk texts, usage chunks and the request bodies are made up."""
import json
import pathlib

HERE = pathlib.Path(__file__).parent
JSONL = HERE / "../../real-logs/tools/aiperf-0.12-mlx-probe-c1/profile_export.jsonl"
PERF_BASE = 86_400_123_456_789  # perf_counter_ns has an arbitrary origin (here a day after boot)
MODEL = "Qwen/Qwen3-0.6B"


def sse(perf_ns, value):
    return {"perf_ns": perf_ns, "packets": [{"name": "data", "value": value}]}


def chunk(n, delta, finish=None):
    return json.dumps({"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "created": 1789877457,
                       "model": MODEL, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]},
                      separators=(",", ":"))


records = [json.loads(line) for line in JSONL.read_text().splitlines() if line.strip()]
t0 = records[0]["metadata"]["request_start_ns"]
out = []
for k, rec in enumerate(records):
    m = rec["metadata"]
    x = rec["metrics"]
    start_perf = PERF_BASE + (m["request_start_ns"] - t0)
    end_perf = start_perf + (m["request_end_ns"] - m["request_start_ns"])
    at = start_perf + round(x["time_to_first_token"]["value"] * 1e6)
    gaps = [round(g * 1e6) for g in x["inter_chunk_latency"]["value"]]
    responses = []
    if k == 0:
        # a role-only first delta, at the moment the response began (request_ack_ns)
        responses.append(sse(start_perf + (m["request_ack_ns"] - m["request_start_ns"]),
                             chunk(k, {"role": "assistant", "content": ""})))
    for i in range(len(gaps) + 1):
        if i > 0:
            at += gaps[i - 1]
        last = i == len(gaps)
        responses.append(sse(at, chunk(k, {"content": f" w{i}"}, "length" if last else None)))
    assert at <= end_perf, (k, at, end_perf)
    usage = {"prompt_tokens": x["input_sequence_length"]["value"],
             "completion_tokens": x["output_sequence_length"]["value"],
             "total_tokens": x["input_sequence_length"]["value"] + x["output_sequence_length"]["value"]}
    responses.append(sse(at + (end_perf - at) // 2, json.dumps(
        {"id": f"chatcmpl-{k}", "object": "chat.completion.chunk", "created": 1789877457, "model": MODEL,
         "choices": [], "usage": usage}, separators=(",", ":"))))
    responses.append(sse(end_perf, "[DONE]"))
    raw = {
        "metadata": m,
        "start_perf_ns": start_perf,
        "request_headers": {"Content-Type": "application/json", "User-Agent": "aiperf/0.12.0",
                            "X-Request-ID": m["x_request_id"], "X-Correlation-ID": m["x_correlation_id"]},
        "status": 200,
        "responses": responses,
        # payload_bytes is spliced in last (orjson.Fragment after model_dump)
        "payload": {"messages": [{"role": "user", "content": "(a made-up prompt)"}], "model": MODEL,
                    "stream": True, "max_completion_tokens": 128, "temperature": 0,
                    "chat_template_kwargs": {"enable_thinking": False}},
    }
    out.append(json.dumps(raw, separators=(",", ":")))
# the aggregator concatenates each record processor's file: not the JSONL's order
order = [1, 0, 2, 4, 3]
(HERE / "profile_export_raw.jsonl").write_text("".join(out[i] + "\n" for i in order))
