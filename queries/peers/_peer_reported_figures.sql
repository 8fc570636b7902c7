-- Every figure a peer tool reported for a run (reported_metrics), under the tool's convention,
-- one value per figure where the tool wrote it in several files, with what makes it ms when its
-- unit is a time (the GKE generator's requests/s "throughput" of September 2024 left out: no token
-- rate). Shared by peer_comparison and peer_reported.
-- @grain one row per run per convention per tool figure per statistic
-- @column convention [text] The tool (as _peer_names); NULL for a format no convention covers.
-- @column run [id] Run name.
-- @column tool_metric [text] The tool's own name for the figure.
-- @column tool_stat [text] The tool's own name for the statistic.
-- @column value [tool's unit] The figure as the tool reported it.
-- @column to_ms [ratio] What takes the value to ms when its stated unit is a time; NULL for other units.
-- @column unit [text] The unit the tool stated (reported_metrics.unit).
CREATE OR REPLACE VIEW _peer_reported_figures AS
SELECT convention, run, tool_metric, tool_stat, figure.value AS value, figure.to_ms AS to_ms, figure.unit AS unit
FROM (
    SELECT
        CASE s.format
            WHEN 'genai-perf-summary' THEN 'genai-perf'
            WHEN 'aiperf-summary' THEN 'aiperf'
            WHEN 'vllm-bench-json' THEN 'vllm'
            WHEN 'sglang-bench-jsonl' THEN 'sglang'
            WHEN 'llmperf-json' THEN 'llmperf'
            WHEN 'vllm-bench-console' THEN 'vllm'
            WHEN 'sglang-bench-console' THEN 'sglang'
            WHEN 'genai-perf-console' THEN 'genai-perf'
            WHEN 'genai-perf-analyze-csv' THEN 'genai-perf'
            WHEN 'aiperf-console' THEN 'aiperf'
            WHEN 'llmperf-console' THEN 'llmperf'
            WHEN 'guidellm-json' THEN 'guidellm'
            WHEN 'guidellm-console' THEN 'guidellm'
            WHEN 'guidellm-csv' THEN 'guidellm'
            WHEN 'inference-perf-json' THEN 'inference-perf'
            WHEN 'genai-bench-json' THEN 'genai-bench'
            WHEN 'llm-load-test-json' THEN 'llm-load-test'
            WHEN 'mlperf-summary' THEN 'mlperf'
            WHEN 'mlperf-detail' THEN 'mlperf'
            WHEN 'mlperf-endpoints-json' THEN 'mlperf'
            WHEN 'mlperf-endpoints-console' THEN 'mlperf'
            WHEN 'inference-benchmarker-json' THEN 'inference-benchmarker'
            WHEN 'gke-lpg-json' THEN 'gke-lpg'
            WHEN 'evalscope-perf' THEN 'evalscope'
            WHEN 'locust-stats-csv' THEN 'llm-bench'
        END AS convention,
        m.run,
        m.metric AS tool_metric,
        m.stat AS tool_stat,
        -- a run's figure in several of the tool's files (AIPerf writes JSON, CSV and a console
        -- table): the JSON's, written to full precision, before the CSV's and the console's (LoadGen's
        -- :::MLLOG detail before its printed summary, rounded to two decimals); with
        -- what makes it ms when its unit is a time (genai-perf of 2024, 24.06, printed its table in
        -- ns: "Request latency (ns)"), NULL for other units
        arg_max({'value': m.value, 'unit': m.unit, 'to_ms': CASE lower(trim(m.unit))
                WHEN 'ns' THEN 1e-6 WHEN 'nsec' THEN 1e-6 WHEN 'nanoseconds' THEN 1e-6
                WHEN 'us' THEN 1e-3 WHEN 'µs' THEN 1e-3 WHEN 'μs' THEN 1e-3 WHEN 'usec' THEN 1e-3
                WHEN 'microseconds' THEN 1e-3
                WHEN 'ms' THEN 1.0 WHEN 'msec' THEN 1.0 WHEN 'milliseconds' THEN 1.0
                WHEN 's' THEN 1e3 WHEN 'sec' THEN 1e3 WHEN 'secs' THEN 1e3 WHEN 'seconds' THEN 1e3
            END}, CASE WHEN s.format LIKE '%-console' THEN 0
            WHEN lower(s.path) LIKE '%.csv' OR s.format = 'mlperf-summary' THEN 1 ELSE 2 END) AS figure
    FROM reported_metrics AS m
    JOIN sources AS s USING (source_id)
    GROUP BY ALL
)
-- the GKE generator's throughput was requests/s for four days of September 2024: no token rate
WHERE NOT (convention = 'gke-lpg' AND tool_metric = 'throughput' AND figure.unit = 'requests/s')
