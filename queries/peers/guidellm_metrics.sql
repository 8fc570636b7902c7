-- GuideLLM's figures, computed by tokentime from the canonical tables the way GuideLLM computes
-- its benchmarks' metrics (vllm-project/guidellm, src/guidellm/benchmark/schemas/metrics.py and
-- schemas/statistics.py; docs/metrics.md, "Named variants"): only successful requests inside the
-- benchmark's measured window (a request outside it has phase warmup); a missing value counts as
-- 0 (GuideLLM's `or 0.0`). TTFT = first token - request start; request latency = end - start, in
-- s; ITL = (last token - first token) / (N - 1), weighted by N - 1; TPOT = (last token - request
-- start) / N, INCLUDING the TTFT, weighted by N (GuideLLM 0.4 and later; a report of 0.2-0.3, whose
-- records keep their times on the record, is given its own definition, (last - first token) / N).
-- N is the output length as the report states it. Statistics over the weighted distribution as
-- GuideLLM's DistributionSummary: equal values merged, zero weights dropped; mean and POPULATION
-- variance weighted; percentiles nearest-rank, the first value whose cumulative probability
-- reaches p (no interpolation; GuideLLM adds the probabilities up as floats, so where the running
-- sum equals p exactly its rounding may pick the neighbouring value); median = p50; mode = the
-- value of the largest weight; count = the sum of the weights (for TPOT the output tokens).
-- GuideLLM's rates and concurrency over time (requests_per_second, output_tokens_per_second,
-- request_concurrency) are not recomputed: its report's own figures are in reported_metrics.
-- @grain one row per run per GuideLLM metric per statistic
-- @column run [id] Run name (one per GuideLLM benchmark).
-- @column metric [text] GuideLLM's name: request_latency, prompt_token_count, output_token_count, time_to_first_token_ms, time_per_output_token_ms, inter_token_latency_ms.
-- @column stat [text] mean, median, mode, std_dev, min, max, count, p001, p01, p05, p10, p25, p50, p75, p90, p95, p99, p999 (GuideLLM's keys: p001 is the 0.1th percentile, p999 the 99.9th).
-- @column value [unit] The figure.
-- @column unit [text] s, ms, tokens or count.
CREATE OR REPLACE VIEW guidellm_metrics AS
WITH req AS (
    SELECT
        p.run,
        coalesce(r.extras['guidellm_layout'], '0.4') AS layout,
        p.arrival_ns,
        p.first_content_ns AS first_ns,
        p.last_content_ns AS last_ns,
        p.finished_ns,
        p.prompt_tokens,
        p.output_tokens
    FROM _peer_requests AS p
    JOIN requests AS r USING (request_key)
    WHERE p.measured AND p.ok
),
-- 0.2-0.3 leave requests without the value out (no prompt or no output tokens; ITL needs two
-- tokens) where 0.4 and later count the value as 0
samples AS (
    SELECT run, layout, 'request_latency' AS metric, coalesce((finished_ns - arrival_ns) / 1e9, 0.0) AS value,
        1.0 AS weight
    FROM req
    UNION ALL
    SELECT run, layout, 'prompt_token_count', coalesce(prompt_tokens, 0)::DOUBLE, 1.0
    FROM req WHERE layout <> '0.2' OR prompt_tokens > 0
    UNION ALL
    SELECT run, layout, 'output_token_count', coalesce(output_tokens, 0)::DOUBLE, 1.0
    FROM req WHERE layout <> '0.2' OR output_tokens > 0
    UNION ALL
    SELECT run, layout, 'time_to_first_token_ms', coalesce((first_ns - arrival_ns) / 1e6, 0.0), 1.0
    FROM req WHERE layout <> '0.2' OR output_tokens > 0
    UNION ALL
    SELECT run, layout, 'time_per_output_token_ms',
        coalesce(CASE WHEN layout = '0.2' THEN (last_ns - first_ns)
            ELSE coalesce(last_ns, finished_ns) - arrival_ns END / 1e6 / nullif(output_tokens, 0), 0.0),
        coalesce(output_tokens, 0)::DOUBLE
    FROM req WHERE layout <> '0.2' OR output_tokens > 0
    UNION ALL
    SELECT run, layout, 'inter_token_latency_ms',
        coalesce(CASE WHEN output_tokens > 1 THEN (last_ns - first_ns) / 1e6 / (output_tokens - 1) END, 0.0),
        coalesce(output_tokens, 1)::DOUBLE - 1.0
    FROM req WHERE layout <> '0.2' OR output_tokens > 1
),
-- equal values merged, zero weights dropped (DistributionSummary.from_values)
merged AS (
    SELECT run, metric, value, sum(weight) AS w
    FROM samples
    GROUP BY run, metric, value
),
totals AS (
    SELECT run, metric, sum(weight) AS total_w,
        -- 0.4 and later: the weights' sum; 0.2-0.3: the number of values
        CASE WHEN any_value(layout) = '0.2' THEN count(*) ELSE round(sum(weight)) END AS n
    FROM samples
    GROUP BY run, metric
),
pdf AS (
    SELECT m.run, m.metric, m.value, m.w / t.total_w AS prob, t.n
    FROM merged AS m
    JOIN totals AS t USING (run, metric)
    WHERE m.w > 0
),
cdf AS (
    SELECT *, sum(prob) OVER (PARTITION BY run, metric ORDER BY value ROWS UNBOUNDED PRECEDING) AS cum
    FROM pdf
),
moments AS (
    SELECT run, metric, sum(value * prob) AS mean
    FROM pdf
    GROUP BY run, metric
),
stats AS (
    SELECT
        c.run,
        c.metric,
        any_value(m.mean) AS mean,
        sum((c.value - m.mean) * (c.value - m.mean) * c.prob) AS variance,
        min(c.value) AS min,
        max(c.value) AS max,
        any_value(c.n) AS count,
        -- nearest rank: the first value whose running probability reaches p (numpy searchsorted, left)
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.001), max(c.value)) AS p001,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.01), max(c.value)) AS p01,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.05), max(c.value)) AS p05,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.1), max(c.value)) AS p10,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.25), max(c.value)) AS p25,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.5), max(c.value)) AS p50,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.75), max(c.value)) AS p75,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.9), max(c.value)) AS p90,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.95), max(c.value)) AS p95,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.99), max(c.value)) AS p99,
        coalesce(min(c.value) FILTER (WHERE c.cum >= 0.999), max(c.value)) AS p999
    FROM cdf AS c
    JOIN moments AS m USING (run, metric)
    GROUP BY c.run, c.metric
),
-- the mode: the value of the largest weight, the smallest such value (numpy argmax); 0.4 and
-- later merge equal values first, 0.2-0.3 take single values
modes AS (
    SELECT run, metric, min(value) AS mode
    FROM (
        SELECT run, metric, value, w, max(w) OVER (PARTITION BY run, metric) AS top
        FROM (
            SELECT run, metric, value, w FROM merged
            WHERE (run, metric) NOT IN (SELECT (run, metric) FROM samples WHERE layout = '0.2')
            UNION ALL
            SELECT run, metric, value, weight FROM samples WHERE layout = '0.2'
        )
    )
    WHERE w = top
    GROUP BY run, metric
)
SELECT s.run, s.metric, s.stat, s.value, CASE WHEN s.stat = 'count' THEN 'count' ELSE u.unit END AS unit
FROM (
    SELECT run, metric, mean, p50 AS median, mode, sqrt(variance) AS std_dev, min, max, count,
        p001, p01, p05, p10, p25, p50, p75, p90, p95, p99, p999
    FROM stats
    JOIN modes USING (run, metric)
) UNPIVOT (value FOR stat IN (mean, median, mode, std_dev, min, max, count, p001, p01, p05, p10, p25, p50,
    p75, p90, p95, p99, p999)) AS s
JOIN (VALUES ('request_latency', 's'), ('prompt_token_count', 'tokens'), ('output_token_count', 'tokens'),
    ('time_to_first_token_ms', 'ms'), ('time_per_output_token_ms', 'ms'), ('inter_token_latency_ms', 'ms'))
    AS u(metric, unit) USING (metric)
