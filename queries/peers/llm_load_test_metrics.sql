-- llm-load-test's summary, computed by tokentime from the canonical tables the way
-- openshift-psap/llm-load-test computes it (docs/metrics.md, "Named variants";
-- src/llm_load_test/result.py and utils.py, write_output and get_summary): a request fails only
-- by its error_text (a 200 without data, error_code set and no error_text, is one of its
-- successes); per request, response_time = end - start, where its end is the [DONE] line (the
-- last chunk of any kind), tt_ack = first chunk of any kind - start, ttft = first content chunk -
-- start, itl = (end - first content) / (N - 1) for N > 1 (tokentime's TPOT formula, to [DONE]),
-- tpot = response_time / N for N > 0 (TTFT included); N = tokentime's output length (usage,
-- else chunks, as the tool counts them). An llm-load-test file's own requests keep the file's
-- figures (null where the tool left them). Statistics as pandas: min, max, median, mean and
-- linear percentiles 80, 90, 95, 99; ttft, itl, tpot and tt_ack only over the successful
-- requests whose tokens all came before the test's end (output_tokens =
-- output_tokens_before_timeout; other runs: every successful one), response_time and the
-- lengths over every successful request. Run figures: throughput_full_duration = output tokens
-- / (last end - first start) of the successful requests; throughput = tokens before the test's
-- end / the configured duration (other runs: tokens over tokentime's window); request counts and
-- failure_rate in percent over every request. Times in ms, as the tool writes them.
-- @grain one row per run per llm-load-test metric per statistic
-- @column run [id] Run name.
-- @column metric [text] llm-load-test's name: tpot, ttft, itl, tt_ack, response_time, output_tokens, output_tokens_before_timeout, input_tokens (statistics, as its summary), or a run figure (throughput_full_duration, full_duration, throughput, total_requests, req_completed_within_test_duration, total_failures, failure_rate).
-- @column stat [text] min, max, median, mean, percentile_80, percentile_90, percentile_95, percentile_99 (as in summary.ttft.median), or value for run figures.
-- @column value [unit] The figure.
-- @column unit [text] ms, tokens, tokens/s, s, requests or %.
CREATE OR REPLACE VIEW llm_load_test_metrics AS
WITH base AS (
    SELECT
        p.run,
        p.source_format = 'llm-load-test-json' AS own,
        -- the tool's own verdict where its file gave one, else tokentime's
        coalesce(q.extras['tool_failed'] = 'true', NOT p.ok) AS failed,
        p.arrival_ns,
        coalesce(p.last_chunk_ns, p.finished_ns) AS end_ns,
        p.first_chunk_ns,
        p.first_content_ns,
        p.output_tokens AS n,
        q.output_tokens AS file_output_tokens,
        q.prompt_tokens AS file_input_tokens,
        p.prompt_tokens,
        q.e2e_ms AS file_response_time,
        q.ttft_ms AS file_ttft,
        q.tpot_ms AS file_itl,
        TRY_CAST(q.extras['llm_load_test_tpot_ms'] AS DOUBLE) AS file_tpot,
        TRY_CAST(q.extras['tt_ack_ms'] AS DOUBLE) AS file_tt_ack,
        TRY_CAST(q.extras['output_tokens_before_timeout'] AS BIGINT) AS file_before_timeout,
        p.e2e_ms,
        p.ttft_ms
    FROM _peer_requests AS p
    JOIN requests AS q USING (request_key)
    WHERE p.measured
),
per_request AS (
    SELECT
        run,
        failed,
        arrival_ns,
        end_ns,
        CASE WHEN own THEN file_output_tokens ELSE n END AS output_tokens,
        CASE WHEN own THEN file_before_timeout ELSE n END AS output_tokens_before_timeout,
        CASE WHEN own THEN file_input_tokens ELSE prompt_tokens END AS input_tokens,
        CASE WHEN own THEN file_response_time
            ELSE coalesce((end_ns - arrival_ns) / 1e6, e2e_ms) END AS response_time,
        CASE WHEN own THEN file_tt_ack ELSE (first_chunk_ns - arrival_ns) / 1e6 END AS tt_ack,
        CASE WHEN own THEN file_ttft
            ELSE coalesce((first_content_ns - arrival_ns) / 1e6, ttft_ms) END AS ttft,
        CASE WHEN own THEN file_itl
            WHEN n > 1 THEN (end_ns - first_content_ns) / 1e6 / (n - 1) END AS itl,
        CASE WHEN own THEN file_tpot
            WHEN n > 0 THEN coalesce((end_ns - arrival_ns) / 1e6, e2e_ms) / n END AS tpot
    FROM base
),
ok AS (
    SELECT *,
        -- pandas compares the two lengths as floats: a missing one (NaN) never equals
        coalesce(output_tokens = output_tokens_before_timeout, false) AS within
    FROM per_request
    WHERE NOT failed
),
samples AS (
    SELECT run, metric, value
    FROM (
        SELECT run,
            CASE WHEN within THEN tpot END AS tpot,
            CASE WHEN within THEN ttft END AS ttft,
            CASE WHEN within THEN itl END AS itl,
            CASE WHEN within THEN tt_ack END AS tt_ack,
            response_time,
            output_tokens::DOUBLE AS output_tokens,
            output_tokens_before_timeout::DOUBLE AS output_tokens_before_timeout,
            input_tokens::DOUBLE AS input_tokens
        FROM ok
    ) UNPIVOT (value FOR metric IN (tpot, ttft, itl, tt_ack, response_time, output_tokens,
        output_tokens_before_timeout, input_tokens))
),
stats AS (
    SELECT run, metric, min(value) AS min, max(value) AS max, avg(value) AS mean,
        quantile_cont(value, [0.5, 0.8, 0.9, 0.95, 0.99]) AS q
    FROM samples
    GROUP BY run, metric
),
configured AS (
    SELECT run, duration_s AS duration FROM _reported_duration WHERE format = 'llm-load-test-json'
),
per_run AS (
    SELECT
        r.run,
        count(*) AS total_requests,
        count(*) FILTER (WHERE r.failed) AS total_failures,
        sum(r.output_tokens) FILTER (WHERE NOT r.failed) AS output_sum,
        sum(r.output_tokens_before_timeout) FILTER (WHERE NOT r.failed) AS before_sum,
        -- the difference of two time.time() floats, as the tool takes it: each instant as the
        -- double nearest its decimal seconds (the ns integer as a DOUBLE would round it to 256 ns)
        CAST(max(r.end_ns) FILTER (WHERE NOT r.failed) // 1000000000 || '.'
            || lpad(CAST(max(r.end_ns) FILTER (WHERE NOT r.failed) % 1000000000 AS VARCHAR), 9, '0') AS DOUBLE)
        - CAST(min(r.arrival_ns) FILTER (WHERE NOT r.failed) // 1000000000 || '.'
            || lpad(CAST(min(r.arrival_ns) FILTER (WHERE NOT r.failed) % 1000000000 AS VARCHAR), 9, '0') AS DOUBLE)
            AS full_duration,
        count(*) FILTER (WHERE NOT r.failed
            AND coalesce(r.output_tokens = r.output_tokens_before_timeout, false)) AS within
    FROM per_request AS r
    GROUP BY r.run
)
SELECT s.run, s.metric, s.stat, s.value, u.unit
FROM (
    SELECT run, metric, min, max, q[1] AS median, mean, q[2] AS percentile_80, q[3] AS percentile_90,
        q[4] AS percentile_95, q[5] AS percentile_99
    FROM stats
) UNPIVOT (value FOR stat IN (min, max, median, mean, percentile_80, percentile_90, percentile_95,
    percentile_99)) AS s
JOIN (VALUES ('tpot', 'ms'), ('ttft', 'ms'), ('itl', 'ms'), ('tt_ack', 'ms'), ('response_time', 'ms'),
    ('output_tokens', 'tokens'), ('output_tokens_before_timeout', 'tokens'), ('input_tokens', 'tokens'))
    AS u(metric, unit) USING (metric)
UNION ALL
SELECT r.run, r.metric, 'value' AS stat, r.value, u.unit
FROM (
    SELECT
        p.run,
        p.output_sum / nullif(p.full_duration, 0) AS throughput_full_duration,
        p.full_duration,
        p.before_sum / nullif(coalesce(c.duration, w.duration_s), 0) AS throughput,
        p.total_requests::DOUBLE AS total_requests,
        p.within::DOUBLE AS req_completed_within_test_duration,
        p.total_failures::DOUBLE AS total_failures,
        100.0 * p.total_failures / p.total_requests AS failure_rate
    FROM per_run AS p
    LEFT JOIN configured AS c USING (run)
    LEFT JOIN run_summary AS w USING (run)
) UNPIVOT (value FOR metric IN (throughput_full_duration, full_duration, throughput, total_requests,
    req_completed_within_test_duration, total_failures, failure_rate)) AS r
JOIN (VALUES ('throughput_full_duration', 'tokens/s'), ('full_duration', 's'), ('throughput', 'tokens/s'),
    ('total_requests', 'requests'), ('req_completed_within_test_duration', 'requests'),
    ('total_failures', 'requests'), ('failure_rate', '%'))
    AS u(metric, unit) USING (metric)
ORDER BY 1, 2, 3
