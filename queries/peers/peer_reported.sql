-- The headline figures a load-test tool reported itself for a run (its summary or console output
-- was ingested), in tokentime's metrics and units: the `reported_value` column of peer_comparison
-- without the figures tokentime computes, so it reads reported_metrics alone and costs nothing at
-- any size. `tokentime summary` shows it for the runs whose files hold no request rows (MLPerf
-- LoadGen's summary, a GKE or perf_analyzer result, a summary file alone), where tokentime has no
-- times of its own to compute from. Each figure is under the tool's own definition: `why` says
-- how it differs from tokentime's (docs/metrics.md).
-- @grain one row per run per convention per metric per statistic the tool reported
-- @column run [id] Run name.
-- @column convention [text] The tool whose figure it is (as peer_comparison.convention).
-- @column metric [text] tokentime's metric: ttft_ms, itl_ms, tpot_ms, e2e_ms, output_tokens_per_s or requests_per_s.
-- @column stat [text] mean, std, p50, p90, p99 (latencies) or value (throughputs).
-- @column tool_metric [text] The tool's own name for the figure and its statistic.
-- @column reported_value [ms or 1/s] The figure the tool reported, in tokentime's unit.
-- @column why [text] How the tool's definition differs from tokentime's.
CREATE OR REPLACE VIEW peer_reported AS
SELECT
    r.run,
    f.convention,
    f.metric,
    f.stat,
    f.tool_metric || ' ' || f.tool_stat AS tool_metric,
    r.value * (CASE WHEN f.metric LIKE '%\_ms' ESCAPE '\' THEN coalesce(r.to_ms, f.factor) ELSE f.factor END)
        AS reported_value,
    f.why
FROM _peer_reported_figures AS r
JOIN _peer_figures AS f ON f.convention = r.convention AND f.tool_metric = r.tool_metric AND f.tool_stat = r.tool_stat
WHERE r.value IS NOT NULL
ORDER BY natural_sort_key(r.run), r.run,
    list_position(['ttft_ms', 'itl_ms', 'tpot_ms', 'e2e_ms', 'output_tokens_per_s', 'requests_per_s'], f.metric),
    list_position(['mean', 'std', 'p50', 'p90', 'p99', 'value'], f.stat),
    f.convention
