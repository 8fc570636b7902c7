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
-- variance weighted; percentiles nearest-rank, the first value whose running probability
-- reaches p (no interpolation), the probabilities added up as numpy's cumsum adds them (so 9 of 10
-- equal weights, 0.8999999999999999, fall short of p90); median = p50; mode = the value of the largest weight (GuideLLM's ties are of its
-- float differences of epoch seconds, tokentime's of the times to the ns, so modes can differ);
-- count = the sum of the weights (for TPOT the output tokens; 0.2-0.3: the values); a metric with
-- no weight at all is zeros, as GuideLLM writes it. The October 2025 main build
-- (first_iteration) is computed with 0.4's rules, not its own (unweighted, unmerged).
-- GuideLLM's rates and concurrency over time (requests_per_second, output_tokens_per_second,
-- request_concurrency) are not recomputed: its report's own figures are in reported_metrics.
-- @grain one row per run per GuideLLM metric per statistic
-- @column run [id] Run name (one per GuideLLM benchmark).
-- @column metric [text] GuideLLM's name: request_latency, prompt_token_count, output_token_count, time_to_first_token_ms, time_per_output_token_ms, inter_token_latency_ms.
-- @column stat [text] mean, median, mode, std_dev, min, max, count, p001, p01, p05, p10, p25, p50, p75, p90, p95, p99, p999 (GuideLLM's keys: p001 is the 0.1th percentile, p999 the 99.9th).
-- @column value [unit] The figure.
-- @column unit [text] s, ms, tokens or count.
CREATE OR REPLACE VIEW guidellm_metrics AS
WITH RECURSIVE req AS (
    SELECT
        p.run,
        coalesce(r.extras['guidellm_layout'], '0.4') AS layout,
        p.arrival_ns,
        p.first_content_ns AS first_ns,
        p.last_content_ns AS last_ns,
        p.finished_ns,
        p.prompt_tokens,
        p.output_tokens,
        -- another tool's request without the times GuideLLM records (a vLLM result without
        -- start_times, LLMPerf's records): tokentime's figures of it, never a made-up 0
        CASE WHEN p.source_format <> 'guidellm-json' THEN p.ttft_ms END AS other_ttft_ms,
        CASE WHEN p.source_format <> 'guidellm-json' THEN p.e2e_ms END AS other_e2e_ms
    FROM _peer_requests AS p
    JOIN requests AS r USING (request_key)
    WHERE p.measured AND p.ok
),
-- 0.2-0.3 leave requests without the value out (no prompt or no output tokens; ITL needs two
-- tokens) where 0.4 and later count the value as 0
samples AS (
    SELECT run, layout, 'request_latency' AS metric, coalesce((finished_ns - arrival_ns) / 1e9, other_e2e_ms / 1e3, 0.0) AS value,
        1.0 AS weight
    FROM req
    UNION ALL
    SELECT run, layout, 'prompt_token_count', coalesce(prompt_tokens, 0)::DOUBLE, 1.0
    FROM req WHERE layout <> '0.2' OR prompt_tokens > 0
    UNION ALL
    SELECT run, layout, 'output_token_count', coalesce(output_tokens, 0)::DOUBLE, 1.0
    FROM req WHERE layout <> '0.2' OR output_tokens > 0
    UNION ALL
    SELECT run, layout, 'time_to_first_token_ms', coalesce((first_ns - arrival_ns) / 1e6, other_ttft_ms, 0.0), 1.0
    FROM req WHERE layout <> '0.2' OR output_tokens > 0
    UNION ALL
    SELECT run, layout, 'time_per_output_token_ms',
        coalesce(CASE WHEN layout = '0.2' THEN (last_ns - first_ns)
            ELSE coalesce(last_ns, finished_ns) - arrival_ns END / 1e6 / nullif(output_tokens, 0),
            other_e2e_ms / nullif(output_tokens, 0), 0.0),
        coalesce(output_tokens, 0)::DOUBLE
    FROM req WHERE layout <> '0.2' OR output_tokens > 0
    UNION ALL
    SELECT run, layout, 'inter_token_latency_ms',
        coalesce(CASE WHEN output_tokens > 1 THEN coalesce((last_ns - first_ns) / 1e6,
            other_e2e_ms - other_ttft_ms) / (output_tokens - 1) END, 0.0),
        -- Python's `(output_tokens or 1) - 1`: 0 tokens weigh nothing, as 1
        coalesce(nullif(output_tokens, 0), 1)::DOUBLE - 1.0
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
-- the distribution: equal values merged (0.4 and later), or each value on its own (0.2-0.3)
dist AS (
    SELECT run, metric, value, w FROM merged
    WHERE w > 0 AND (run, metric) NOT IN (SELECT (run, metric) FROM samples WHERE layout = '0.2')
    UNION ALL
    SELECT run, metric, value, weight FROM samples WHERE weight > 0 AND layout = '0.2'
),
pdf AS (
    SELECT d.run, d.metric, d.value, d.w, d.w / t.total_w AS prob, t.total_w, t.n
    FROM dist AS d
    JOIN totals AS t USING (run, metric)
),
-- the running share of the weights, exactly: the weights are whole numbers (1, N, N - 1), so
-- their running sum is exact in any order of addition, and cum_w / total_w >= p is tested as
-- cum_w x 1000 >= p x 1000 x total_w in integers
-- (and the values numbered in the same order, for the percentiles to pick from: one sort for both)
cdf AS (
    SELECT *, sum(w::HUGEINT) OVER (PARTITION BY run, metric ORDER BY value, w ROWS UNBOUNDED PRECEDING) AS cum_w,
        row_number() OVER (PARTITION BY run, metric ORDER BY value, w) AS rn
    FROM pdf
),
moments AS (
    SELECT run, metric, sum(value * prob) AS mean
    FROM pdf
    GROUP BY run, metric
),
-- the distribution's values numbered in order, for the percentiles to pick from
numbered AS (
    SELECT run, metric, value, prob, rn
    FROM cdf
),
sizes AS (
    SELECT run, metric, count(*) AS n
    FROM pdf
    GROUP BY run, metric
),
targets (name, p, k) AS (
    VALUES ('p001', 0.001::DOUBLE, 1), ('p01', 0.01::DOUBLE, 10), ('p05', 0.05::DOUBLE, 50),
        ('p10', 0.1::DOUBLE, 100), ('p25', 0.25::DOUBLE, 250), ('p50', 0.5::DOUBLE, 500),
        ('p75', 0.75::DOUBLE, 750), ('p90', 0.9::DOUBLE, 900), ('p95', 0.95::DOUBLE, 950),
        ('p99', 0.99::DOUBLE, 990), ('p999', 0.999::DOUBLE, 999)
),
-- per target, how many values lie before the first whose exact share reaches p, and whether that
-- share equals p (the float sum decides then). A value's share is short of p = k / 1000 exactly
-- when its share in thousandths, rounded down (kk), is below k: the values are counted per kk
-- (at most 1,001 groups a metric) before they meet the eleven targets
shares AS (
    SELECT run, metric, (cum_w * 1000) // total_w::HUGEINT AS kk, count(*) AS n,
        bool_or((cum_w * 1000) % total_w::HUGEINT = 0) AS exact
    FROM cdf
    GROUP BY run, metric, kk
),
ranks AS (
    SELECT c.run, c.metric, q.name, any_value(q.p) AS p,
        coalesce(sum(c.n) FILTER (WHERE c.kk < q.k), 0) AS before,
        coalesce(bool_or(c.exact) FILTER (WHERE c.kk = q.k), false) AS tie
    FROM shares AS c, targets AS q
    GROUP BY c.run, c.metric, q.name
),
-- numpy's running sum of the probabilities, for the percentiles: GuideLLM takes the first value
-- whose float cumsum reaches p, and where the exact share equals p the float sum can fall a hair
-- short (9 x 0.1 = 0.8999999999999999), taking the next value. The sum is repeated here as numpy
-- adds (left to right, one probability after another) up to each such tie, once for all of a
-- metric's ties: the probabilities between one tie's position and the next (a segment) are added
-- on to the sum before them, segment after segment. (Summing from the first value for each tie
-- added the same values again for each; joining each metric's whole list of values to every
-- target held 66 copies of them, beyond DuckDB's memory at a day's requests.)
tie_points AS (
    SELECT run, metric, upto,
        row_number() OVER (PARTITION BY run, metric ORDER BY upto) AS j,
        coalesce(lag(upto) OVER (PARTITION BY run, metric ORDER BY upto), 0) AS after
    FROM (SELECT DISTINCT run, metric, before + 1 AS upto FROM ranks WHERE tie)
),
segments AS MATERIALIZED (
    SELECT s.run, s.metric, s.j, list(nb.prob ORDER BY nb.rn) AS probs
    FROM tie_points AS s
    JOIN numbered AS nb ON nb.run = s.run AND nb.metric = s.metric AND nb.rn > s.after AND nb.rn <= s.upto
    GROUP BY s.run, s.metric, s.j
),
running (run, metric, j, cum_p) AS (
    SELECT run, metric, j, list_reduce(probs, (a, b) -> a + b, 0.0::DOUBLE)
    FROM segments
    WHERE j = 1
    UNION ALL
    SELECT g.run, g.metric, g.j, list_reduce(g.probs, (a, b) -> a + b, r.cum_p)
    FROM running AS r
    JOIN segments AS g ON g.run = r.run AND g.metric = r.metric AND g.j = r.j + 1
),
tie_sums AS (
    SELECT r.run, r.metric, r.name, x.cum_p
    FROM ranks AS r
    JOIN tie_points AS s ON s.run = r.run AND s.metric = r.metric AND s.upto = r.before + 1
    JOIN running AS x ON x.run = s.run AND x.metric = s.metric AND x.j = s.j
    WHERE r.tie
),
percentiles AS (
    SELECT r.run, r.metric, r.name,
        CASE
            WHEN r.before >= z.n THEN lv.value
            -- the values before it and this one, summed as numpy does: short of p, the next value
            WHEN r.tie AND r.before + 1 < z.n AND t.cum_p < r.p THEN v2.value
            ELSE v1.value
        END AS value
    FROM ranks AS r
    JOIN sizes AS z USING (run, metric)
    LEFT JOIN tie_sums AS t USING (run, metric, name)
    LEFT JOIN numbered AS v1 ON v1.run = r.run AND v1.metric = r.metric AND v1.rn = r.before + 1
    LEFT JOIN numbered AS v2 ON v2.run = r.run AND v2.metric = r.metric AND v2.rn = r.before + 2
    LEFT JOIN numbered AS lv ON lv.run = r.run AND lv.metric = r.metric AND lv.rn = z.n
),
stats AS (
    SELECT
        c.run,
        c.metric,
        any_value(m.mean) AS mean,
        sum((c.value - m.mean) * (c.value - m.mean) * c.prob) AS variance,
        min(c.value) AS min,
        max(c.value) AS max
    FROM cdf AS c
    JOIN moments AS m USING (run, metric)
    GROUP BY c.run, c.metric
),
pcts AS (
    SELECT run, metric,
        max(value) FILTER (WHERE name = 'p001') AS p001, max(value) FILTER (WHERE name = 'p01') AS p01,
        max(value) FILTER (WHERE name = 'p05') AS p05, max(value) FILTER (WHERE name = 'p10') AS p10,
        max(value) FILTER (WHERE name = 'p25') AS p25, max(value) FILTER (WHERE name = 'p50') AS p50,
        max(value) FILTER (WHERE name = 'p75') AS p75, max(value) FILTER (WHERE name = 'p90') AS p90,
        max(value) FILTER (WHERE name = 'p95') AS p95, max(value) FILTER (WHERE name = 'p99') AS p99,
        max(value) FILTER (WHERE name = 'p999') AS p999
    FROM percentiles
    GROUP BY run, metric
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
-- a metric whose every weight is 0 (every response one token long, for ITL) has an empty
-- distribution, which GuideLLM reports as zeros
SELECT s.run, s.metric, s.stat, s.value, CASE WHEN s.stat = 'count' THEN 'count' ELSE u.unit END AS unit
FROM (
    SELECT t.run, t.metric, coalesce(st.mean, 0.0) AS mean, coalesce(pc.p50, 0.0) AS median,
        coalesce(mo.mode, 0.0) AS mode, coalesce(sqrt(st.variance), 0.0) AS std_dev, coalesce(st.min, 0.0) AS min,
        coalesce(st.max, 0.0) AS max, t.n::DOUBLE AS count, coalesce(pc.p001, 0.0) AS p001,
        coalesce(pc.p01, 0.0) AS p01, coalesce(pc.p05, 0.0) AS p05, coalesce(pc.p10, 0.0) AS p10,
        coalesce(pc.p25, 0.0) AS p25, coalesce(pc.p50, 0.0) AS p50, coalesce(pc.p75, 0.0) AS p75,
        coalesce(pc.p90, 0.0) AS p90, coalesce(pc.p95, 0.0) AS p95, coalesce(pc.p99, 0.0) AS p99,
        coalesce(pc.p999, 0.0) AS p999
    FROM totals AS t
    LEFT JOIN stats AS st USING (run, metric)
    LEFT JOIN pcts AS pc USING (run, metric)
    LEFT JOIN modes AS mo USING (run, metric)
) UNPIVOT (value FOR stat IN (mean, median, mode, std_dev, min, max, count, p001, p01, p05, p10, p25, p50,
    p75, p90, p95, p99, p999)) AS s
JOIN (VALUES ('request_latency', 's'), ('prompt_token_count', 'tokens'), ('output_token_count', 'tokens'),
    ('time_to_first_token_ms', 'ms'), ('time_per_output_token_ms', 'ms'), ('inter_token_latency_ms', 'ms'))
    AS u(metric, unit) USING (metric)
ORDER BY s.run, list_position(['request_latency', 'prompt_token_count', 'output_token_count',
    'time_to_first_token_ms', 'time_per_output_token_ms', 'inter_token_latency_ms'], s.metric),
    list_position(['mean', 'median', 'mode', 'std_dev', 'min', 'max', 'count', 'p001', 'p01', 'p05', 'p10',
        'p25', 'p50', 'p75', 'p90', 'p95', 'p99', 'p999'], s.stat)
