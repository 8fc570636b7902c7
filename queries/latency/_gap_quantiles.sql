-- Exact percentiles, mean, standard deviation, min and max of the pooled chunk gaps of each run
-- (see _gap_quantiles_live for how they are computed in bounded memory). The chunk_gap figures
-- of the default scope — no analysis window or warm-up variable set (_scope_is_default) — are
-- read from _gap_stats, which the derive step fills with _gap_quantiles_live('chunk_gap') for
-- each run an ingest touched: summary, report, metric_stats and itl_distribution then read a few
-- rows instead of every gap. With a window set, and for per_token, they
-- are computed from the gaps. Both branches are filtered on constants, so only one runs.
-- _gap_stats keeps the tails after the nine in one list (q); a database whose figures were kept
-- before the tails were has nine values there, and q_tails NULL until its runs are derived again.
-- @grain one row per run with at least one gap
-- @param which The variant: 'chunk_gap' or 'per_token'.
-- @column run [id] Run name.
-- @column variant [text] chunk_gap or per_token (token_gaps' gap_ns or gap_per_token_ms).
-- @column n [count] Gaps the statistics are over (measured, ok requests).
-- @column mean_ms [ms] Mean.
-- @column std_ms [ms] Population standard deviation.
-- @column min_ms [ms] Smallest gap.
-- @column max_ms [ms] Largest gap.
-- @column q [ms] Percentiles p1, p5, p10, p25, p50, p75, p90, p95, p99, in that order.
-- @column q_tails [ms] Percentiles p0.1 and p99.9, in that order (NULL where not kept).
CREATE OR REPLACE MACRO _gap_quantiles(which) AS TABLE
SELECT run, variant, n, mean_ms, std_ms, min_ms, max_ms, q[1:9] AS q,
    CASE WHEN len(q) = 11 THEN q[10:11] END AS q_tails
FROM _gap_stats
WHERE variant = which AND which = 'chunk_gap' AND _scope_is_default()
UNION ALL
SELECT run, variant, n, mean_ms, std_ms, min_ms, max_ms, q, q_tails
FROM _gap_quantiles_live(which)
WHERE NOT (which = 'chunk_gap' AND _scope_is_default())
