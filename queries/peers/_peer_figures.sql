-- Each peer tool's headline figures under each of its statistics: _peer_names by _peer_stat_names
-- for the latencies; a throughput is one run-level figure, which genai-perf and AIPerf call avg.
-- Shared by peer_comparison and peer_reported.
-- @grain one row per convention per tool figure per statistic
-- @column convention [text] The tool (as _peer_names).
-- @column tool_metric [text] The tool's own name for the figure.
-- @column metric [text] tokentime's metric.
-- @column factor [ratio] What takes the tool's value to tokentime's unit when the tool states none.
-- @column why [text] How the tool's definition differs from tokentime's.
-- @column stat [text] tokentime's statistic: mean, std, p50, p90, p99 or value.
-- @column tool_stat [text] The tool's own name for the statistic.
CREATE OR REPLACE VIEW _peer_figures AS
SELECT n.convention, n.tool_metric, n.metric, n.factor, n.why, sn.stat, sn.tool_stat
FROM _peer_names AS n
JOIN _peer_stat_names AS sn USING (convention)
WHERE n.metric NOT IN ('output_tokens_per_s', 'requests_per_s') AND sn.stat <> 'value'
UNION ALL
SELECT n.convention, n.tool_metric, n.metric, n.factor, n.why, 'value' AS stat,
    CASE WHEN n.convention IN ('genai-perf', 'aiperf') THEN 'avg' ELSE 'value' END AS tool_stat
FROM _peer_names AS n
WHERE n.metric IN ('output_tokens_per_s', 'requests_per_s')
