#!/usr/bin/env python3
"""Writes sample-logs/sglang-server/server.log and, from the same made-up run, the numbers tokentime must
read from it (expected/expected.json). No tokentime code: plain Python over the values written.

The run: SGLang 0.5 (`Prefill batch,` / `Decode batch,` lines, `cuda graph`, `input throughput`)
serving Qwen2.5-7B on one GPU, started with --log-requests --log-requests-level 0
--decode-log-interval 4 (so a decode line every 4 decode steps), local time = UTC.
Five requests: a1 alone; b1, b2, b3 together (b3 aborted by a 503 timeout); c1 refused (400);
d1 received while the log ends. Line shapes follow the real excerpts in
src/test/resources/real-logs/sglang/ (PROVENANCE.md there).
Run:  python3 sample-logs/sglang-server/expected/make_sample.py
"""
import json
import os
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
DAY = datetime(2026, 4, 8, tzinfo=timezone.utc)
T0 = int(DAY.timestamp()) + 14 * 3600  # 2026-04-08 14:00:00 UTC


def stamp(sec, ranks=""):
    t = datetime.fromtimestamp(T0 + sec, tz=timezone.utc)
    return "[" + t.strftime("%Y-%m-%d %H:%M:%S") + (" " + ranks if ranks else "") + "] "


def obj(rid, max_new, stream):
    return ("GenerateReqInput(rid='%s', http_worker_ipc=None, video_data=None, sampling_params={'temperature': 0.0, "
            "'max_new_tokens': %d, 'min_new_tokens': 0, 'stop': None}, return_logprob=False, logprob_start_len=-1, "
            "stream=%s, log_metrics=True, modalities=[], lora_id=None, data_parallel_rank=None, priority=None)"
            % (rid, max_new, stream))


lines = []      # (text)
steps = []      # expected step rows: (line_no, kind, ts_s, batch_level, running, waiting, kv_usage)
requests = {}   # expected request rows


def add(text):
    lines.append(text)
    return len(lines)


def prefill(sec, new_seq, new_tok, cached, usage, running, queue, tput):
    n = add(stamp(sec, "TP0") + "Prefill batch, #new-seq: %d, #new-token: %d, #cached-token: %d, token usage: %.2f, "
            "#running-req: %d, #queue-req: %d, cuda graph: False, input throughput (token/s): %.2f"
            % (new_seq, new_tok, cached, usage, running, queue, tput))
    # sampled lane: after a prefill the decode batch is the running requests plus the new ones
    steps.append(dict(line=n, kind="prefill", t=sec, batch=running + new_seq, running=running, waiting=queue,
                      kv_usage=usage, ctx_requests=new_seq, ctx_tokens=new_tok, prompt_tps=tput, gen_tps=None))


def decode(sec, running, tokens, usage, tput, queue):
    n = add(stamp(sec, "TP0") + "Decode batch, #running-req: %d, #token: %d, token usage: %.2f, cuda graph: True, "
            "gen throughput (token/s): %.2f, #queue-req: %d" % (running, tokens, usage, tput, queue))
    steps.append(dict(line=n, kind="decode", t=sec, batch=running, running=running, waiting=queue,
                      kv_usage=usage, gen_requests=running, kv_tokens=tokens, prompt_tps=None, gen_tps=tput))


def receive(sec, rid, max_new, stream):
    return add(stamp(sec) + "Receive: obj=" + obj(rid, max_new, stream))


def finish(sec, rid, max_new, stream, reason, prompt, completion, cached, received, e2e, queue_time):
    finished = received + e2e
    meta = ("{'id': '%s', 'finish_reason': %s, 'prompt_tokens': %d, 'weight_version': 'default', "
            "'total_retractions': 0, 'queue_time': %s, 'prefill_waiting_latency': None, 'completion_tokens': %d, "
            "'cached_tokens': %d, 'e2e_latency': %s, 'request_received_ts': %.6f, "
            "'response_sent_to_client_ts': %.6f, 'request_finished_ts': %.6f, 'decode_throughput': %.2f}"
            % (rid, reason, prompt, repr(queue_time), completion, cached, repr(e2e), T0 + received,
               T0 + received + 0.25, T0 + finished, completion / e2e))
    return add(stamp(sec) + "Finish: obj=" + obj(rid, max_new, stream) + ", out={'meta_info': " + meta + "}")


def access(sec, port, method, path, status, text):
    return add(stamp(sec) + 'INFO:     127.0.0.1:%d - "%s %s HTTP/1.1" %d %s' % (port, method, path, status, text))


# ---- startup ----
add(stamp(0) + "server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B-Instruct', tokenizer_path='Qwen/Qwen2.5-7B-Instruct', "
    "tp_size=1, dp_size=1, mem_fraction_static=0.88, log_level='info', log_requests=True, log_requests_level=0, "
    "enable_metrics=True, decode_log_interval=4, served_model_name='Qwen/Qwen2.5-7B-Instruct')")
add(stamp(3, "TP0") + "Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=62.97 GB, mem usage=14.36 GB.")
add(stamp(4, "TP0") + "max_total_num_tokens=1170000, chunked_prefill_size=8192, max_prefill_tokens=16384, "
    "max_running_requests=4096, context_len=32768, available_gpu_mem=6.27 GB")
add(stamp(5) + "Started server process [4127]")
add(stamp(5) + "Waiting for application startup.")
add(stamp(5) + "Application startup complete.")
add(stamp(5) + "Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)")
access(6, 50120, "GET", "/get_model_info", 200, "OK")
# the warm-up request SGLang sends itself (no --log-requests line: it bypasses the logger)
prefill(7, 1, 7, 0, 0.00, 0, 0, 0.00)
access(8, 50120, "POST", "/generate", 200, "OK")
add(stamp(8) + "The server is fired up and ready to roll!")

# ---- a1: one non-streaming request alone ----
receive(10, "a1", 8, False)
prefill(10, 1, 12, 0, 0.01, 0, 0, 3.50)
decode(11, 1, 16, 0.01, 40.12, 0)
finish(11, "a1", 8, False, "{'type': 'length', 'length': 8}", 12, 8, 0, 10.25, 0.8125, 0.0012)
access(11, 50134, "POST", "/generate", 200, "OK")
requests["a1"] = dict(status="ok", finish_reason="length", prompt=12, output=8, cached=0, e2e_ms=812.5,
                      queue_ms=1.2, http=200, arrival=10.25, finished=10.25 + 0.8125)

# ---- b1..b3: three streaming requests together; b3 aborted by the server's timeout ----
receive(20, "b1", 64, True)
access(20, 50140, "POST", "/v1/chat/completions", 200, "OK")   # streaming: headers go out first
receive(20, "b2", 64, True)
access(20, 50142, "POST", "/v1/chat/completions", 200, "OK")
prefill(20, 2, 410, 0, 0.02, 0, 0, 812.40)
receive(21, "b3", 64, True)
access(21, 50144, "POST", "/v1/chat/completions", 200, "OK")
prefill(21, 1, 96, 64, 0.03, 2, 0, 240.15)
decode(21, 3, 540, 0.03, 96.33, 0)
decode(22, 3, 552, 0.03, 118.02, 0)
decode(23, 3, 564, 0.03, 117.85, 0)
finish(24, "b1", 64, True, "{'type': 'stop', 'matched': 151645}", 180, 37, 0, 20.1, 3.9, 0.0021)
requests["b1"] = dict(status="ok", finish_reason="stop", prompt=180, output=37, cached=0, e2e_ms=3900.0,
                      queue_ms=2.1, http=None, arrival=20.1, finished=24.0)
decode(24, 2, 520, 0.03, 88.60, 0)
finish(25, "b2", 64, True, "{'type': 'length', 'length': 64}", 230, 64, 0, 20.3, 4.7, 0.0034)
requests["b2"] = dict(status="ok", finish_reason="length", prompt=230, output=64, cached=0, e2e_ms=4700.0,
                      queue_ms=3.4, http=None, arrival=20.3, finished=25.0)
finish(26, "b3", 64, True, "{'type': 'abort', 'message': 'Request running timeout reached.', 'status_code': 503, "
       "'err_type': None}", 160, 21, 64, 21.0, 5.25, 0.0)
requests["b3"] = dict(status="error", finish_reason="abort", prompt=160, output=21, cached=64, e2e_ms=5250.0,
                      queue_ms=0.0, http=503, arrival=21.0, finished=26.25,
                      error="Request running timeout reached.")

# ---- c1: refused before the scheduler took it; d1: in flight when the log ends ----
receive(30, "c1", 100000, False)
access(30, 50150, "POST", "/generate", 400, "Bad Request")
requests["c1"] = dict(status="error", http=400, arrival_line_s=30)
access(31, 50152, "GET", "/metrics", 200, "OK")
receive(32, "d1", 16, False)
prefill(32, 1, 44, 0, 0.00, 0, 0, 22.00)
requests["d1"] = dict(status=None, arrival_line_s=32)

with open(os.path.join(OUT, "server.log"), "w") as f:
    f.write("\n".join(lines) + "\n")

# ---- what tokentime must read ----
# other lines: Load weight, max_total_num_tokens, "Waiting for application startup.", the
# /get_model_info and /metrics access lines, and the three streaming access lines that come
# before their request's Finish line (not adjacent to it), and the warm-up /generate access line
other = 3 + 2 + 3 + 1
expected = {
    "lines": len(lines),
    "other_lines": other,
    "records": len(lines) - other,
    "steps": steps,
    "requests": requests,
    "t0_epoch_s": T0,
    "decode_log_interval": 4,
}
with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
print("wrote", len(lines), "lines,", len(steps), "steps,", len(requests), "requests")

# the steps timeline (queries/timeline/_level_segments, basis steps): each logged step holds until
# the next of its lane (line order within a second); a segment of zero length is dropped and the
# last step has no end. batch: a decode line's #running-req; a prefill line's running + new.
segments = []
for a, b in zip(steps, steps[1:]):
    if b["t"] > a["t"]:
        segments.append(dict(t0=T0 + a["t"], t1=T0 + b["t"], batch=a["batch"], running=a["running"],
                             waiting=a["waiting"]))
expected["step_segments"] = segments
with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
