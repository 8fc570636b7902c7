-- vllm bench serve's latency figures per class of request: the requests of each run grouped by
-- an attribute (the dataset class or any other field a request carries in requests.extras, e.g.
-- a tokentime-jsonl line's "dataset": "sharegpt") or, when no field is named, by prompt length in
-- buckets of the width given; in each class the figures are vLLM's (vllm_bench_metrics): TTFT to
-- the first chunk with choices, E2EL to the last such chunk, TPOT (E2EL - TTFT) / (output_len -
-- 1) for output_len > 1, ITL pooling the gaps between consecutive choice-bearing chunks of the
-- class's requests. Only successful measured requests. Statistics as numpy: mean, median,
-- population std, linear p90 and p99, in ms. A run's figures over all classes are
-- vllm_bench_metrics'.
-- @grain one row per run per class per metric
-- @example SELECT * FROM vllm_bench_class_metrics('dataset', NULL)
-- @param class_field Name of the request field (requests.extras key) holding the class, or NULL to bucket by prompt length.
-- @param bucket_tokens Width of the prompt-length buckets in tokens (used when class_field is NULL).
-- @column run [id] Run name.
-- @column class [text] The class: the field's value ('(none)' when a request lacks it), or the prompt-length bucket 'lo-hi' in tokens ('(unknown)' without a prompt length).
-- @column completed [count] Successful requests of the class.
-- @column metric [text] vLLM's metric: ttft, tpot, itl or e2el.
-- @column n [count] Values the statistics are over (requests; chunk gaps for itl).
-- @column mean [ms] Mean.
-- @column median [ms] Median.
-- @column std [ms] Population standard deviation.
-- @column p90 [ms] 90th percentile (linear).
-- @column p99 [ms] 99th percentile (linear).
CREATE OR REPLACE MACRO vllm_bench_class_metrics(class_field, bucket_tokens) AS TABLE
WITH valid AS (
    SELECT
        p.run,
        p.request_key,
        p.output_tokens,
        CASE
            WHEN class_field IS NOT NULL THEN coalesce(r.extras[class_field], '(none)')
            WHEN p.prompt_tokens IS NULL THEN '(unknown)'
            ELSE (p.prompt_tokens // bucket_tokens * bucket_tokens)::VARCHAR || '-'
                || (p.prompt_tokens // bucket_tokens * bucket_tokens + bucket_tokens - 1)::VARCHAR
        END AS class,
        coalesce((p.first_choice_ns - p.arrival_ns) / 1e6, p.ttft_ms) AS ttft,
        coalesce(CASE WHEN p.engine = 'vllm-bench' THEN p.reported_e2e_ms END,
            (p.last_choice_ns - p.arrival_ns) / 1e6, p.e2e_ms) AS e2el
    FROM _peer_requests AS p
    JOIN requests AS r USING (request_key)
    WHERE p.measured AND p.ok
),
gaps AS (
    SELECT v.run, v.class, 'itl' AS metric,
        (t.ts_ns - lag(t.ts_ns) OVER (PARTITION BY t.request_key ORDER BY t.seq)) / 1e6 AS value
    FROM tokens AS t
    JOIN valid AS v USING (request_key)
    WHERE t.chunk_kind IN ('content', 'reasoning', 'role', 'empty')
),
samples AS (
    SELECT run, class, 'ttft' AS metric, ttft AS value FROM valid
    UNION ALL
    SELECT run, class, 'e2el', e2el FROM valid
    UNION ALL
    SELECT run, class, 'tpot', (e2el - ttft) / (output_tokens - 1) FROM valid WHERE output_tokens > 1
    UNION ALL
    SELECT run, class, metric, value FROM gaps
),
counts AS (
    SELECT run, class, count(*) AS completed FROM valid GROUP BY run, class
)
SELECT
    s.run, s.class, c.completed, s.metric,
    count(s.value) AS n,
    avg(s.value) AS mean,
    median(s.value) AS median,
    stddev_pop(s.value) AS std,
    quantile_cont(s.value, 0.90) AS p90,
    quantile_cont(s.value, 0.99) AS p99
FROM samples AS s
JOIN counts AS c USING (run, class)
WHERE s.value IS NOT NULL
GROUP BY s.run, s.class, c.completed, s.metric
ORDER BY s.run, s.class, list_position(['ttft', 'tpot', 'itl', 'e2el'], s.metric)
