"""Writes output-003.json with llm-load-test's own writer (openshift-psap/llm-load-test @ b27aad1,
src/llm_load_test/result.py and utils.py): RequestResult.calculate_results() fills each result's
figures and utils.write_output() computes the summary with pandas, as the tool does after a run.

Usage: python3 generate.py <path of llm-load-test's src/ at b27aad1>
The results are filled as the openai plugin fills them (streaming): see README.md.
"""
import sys
import types

sys.path.insert(0, sys.argv[1])
# utils imports every plugin (grpc, requests clients): the writer needs none of them
plugins = types.ModuleType("llm_load_test.plugins")
for name in ("dummy_plugin", "hf_tgi_plugin", "openai_plugin", "tgis_grpc_plugin"):
    setattr(plugins, name, types.ModuleType(name))
sys.modules["llm_load_test.plugins"] = plugins

from llm_load_test import utils  # noqa: E402
from llm_load_test.result import RequestResult  # noqa: E402

T0 = 1733563200.125  # 2024-12-07 09:20:00.125 UTC, the run's first send
DURATION = 10


def ok(user, input_id, start, ack, first, end, tokens, before, input_tokens, stop="length"):
    r = RequestResult(user, input_id)
    r.start_time, r.ack_time, r.first_token_time, r.end_time = T0 + start, T0 + ack, T0 + first, T0 + end
    r.output_tokens, r.output_tokens_before_timeout, r.input_tokens = tokens, before, input_tokens
    r.output_text = "x" * tokens
    r.stop_reason = stop
    r.calculate_results()
    return r


def failed(user, input_id, start, end, code, text, tokens=None):
    # the plugin returns at once after an HTTP or connection error: no calculate_results()
    r = RequestResult(user, input_id)
    r.start_time, r.end_time = T0 + start, T0 + end
    r.error_code, r.error_text, r.output_tokens = code, text, tokens
    return r


results = [
    ok(0, 11, 0.0, 0.05, 0.25, 2.25, 21, 21, 120),
    ok(0, 12, 2.26, 2.3, 2.42, 4.02, 17, 17, 80, stop="stop"),
    ok(0, 13, 4.03, 4.08, 4.13, 4.13, 1, 1, 64, stop="stop"),  # one token: no itl
    ok(0, 14, 4.14, 4.2, 4.5, 12.5, 41, 29, 200),  # ends after the 10 s: out of ttft/itl/tpot/tt_ack
    ok(1, 21, 0.01, 0.08, 0.31, 3.31, 31, 31, 150),
    failed(1, 22, 3.32, 3.4, 500,
           "HTTPError('500 Server Error: Internal Server Error for url: http://vllm:8000/v1/completions')"),
    ok(1, 23, 3.41, 3.45, 3.71, 5.71, 26, 26, 99, stop="stop"),
    failed(1, 24, 5.72, 5.9, 200, "ChunkedEncodingError(ProtocolError('Response ended prematurely'))", tokens=3),
    ok(2, 31, 0.02, 0.06, 0.52, 2.52, 11, 11, 300),
    failed(2, 32, 2.53, 2.54, None,
           "ConnectionError(MaxRetryError(\"HTTPConnectionPool(host='vllm', port=8000): Max retries exceeded\"))"),
    ok(2, 33, 2.55, 2.6, 2.8, 6.8, 51, 51, 40),
    # a 200 whose stream held no data line: the plugin sets error_code and no error_text, so the
    # tool counts it a success (its response_time stays null)
    failed(2, 34, 6.81, 6.9, 200, None, tokens=0),
]

config = {
    "output": {"format": "json", "dir": sys.argv[2] if len(sys.argv) > 2 else ".", "file": "output-{concurrency:03d}.json"},
    "storage": {"type": "local"},
    "dataset": {"file": "datasets/openorca_large_subset_011.jsonl", "max_queries": 1000, "min_input_tokens": 0,
                "max_input_tokens": 1024, "min_output_tokens": 0, "max_output_tokens": 1024,
                "max_sequence_tokens": 2048, "custom_prompt_format": None},
    "load_options": {"type": "constant", "concurrency": 3, "duration": DURATION},
    "plugin": "openai_plugin",
    "plugin_options": {"use_tls": False, "streaming": True, "model_name": "granite-3.1-8b-instruct",
                       "host": "http://vllm:8000", "endpoint": "/v1/completions", "authorization": ""},
    "extra_metadata": {"replicas": 1},
}
utils.write_output(config, results, concurrency=3, duration=DURATION)
