-- Invariant: every line of every file is accounted for, lines = records + other lines +
-- rejected lines. Returns the files that break it; zero rows when all is well.
-- @grain one row per source whose line counts do not reconcile
-- @column source_id [id] The file (sources.source_id).
-- @column path [text] Its path.
-- @column lines [count] Lines read.
-- @column accounted [count] records + other_lines + rejected.
CREATE OR REPLACE VIEW check_source_lines AS
SELECT source_id, path, lines, records + other_lines + rejected AS accounted
FROM sources
WHERE lines <> records + other_lines + rejected
