-- The benchmark duration a tool reported for a run (vLLM's and SGLang's `duration`, the wall time
-- of the main run, warm-ups excluded), for the views that divide by the tool's own duration.
-- @grain one row per run per source format that reported a duration
-- @column run [id] Run name.
-- @column format [text] Input format of the file that reported it (sources.format).
-- @column duration_s [s] The duration as reported.
CREATE OR REPLACE VIEW _reported_duration AS
SELECT m.run, s.format, any_value(m.value) AS duration_s
FROM reported_metrics AS m
JOIN sources AS s USING (source_id)
WHERE m.metric = 'duration' AND m.stat = 'value'
GROUP BY m.run, s.format
