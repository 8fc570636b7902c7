-- What the database holds, in counts, for the header of a summary or report: runs, ingested
-- source files and rejected input lines (the rejects table; each is listed there with file, line
-- and reason).
-- @grain one row
-- @column runs [count] Runs in the database.
-- @column sources [count] Source files ingested.
-- @column rejected_lines [count] Input lines or records that could not be used.
CREATE OR REPLACE VIEW report_inputs AS
SELECT
    (SELECT count(*) FROM runs)::BIGINT AS runs,
    (SELECT count(*) FROM sources)::BIGINT AS sources,
    (SELECT count(*) FROM rejects)::BIGINT AS rejected_lines
