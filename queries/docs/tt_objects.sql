-- The documented objects of the database, one row each: every table, view and macro tt_docs
-- describes, with its grain and description and how many columns it has, so a reader finds what
-- to query before reading any column (tokentime query --db DB with no query prints the views and
-- table macros from it; tt_docs has the columns of each). Helpers (names starting with _) are left
-- out, as in tt_docs.
-- @grain one row per table, view or macro
-- @column object_name [id] Table, view or macro name.
-- @column object_kind [text] table, view, macro (returns a value) or table macro (returns rows).
-- @column parameters [text] A macro's parameters, e.g. (bucket_ms); NULL for tables and views.
-- @column grain [text] What one row of the object is, e.g. "one row per request".
-- @column description [text] What the object holds, in plain sentences.
-- @column column_count [count] Columns of a table or view; 0 for macros (their columns depend on the call).
-- @column database_name [id] Catalog (database) the object lives in.
CREATE OR REPLACE VIEW tt_objects AS
SELECT object_name, object_kind, parameters, grain, description,
    count(column_name) AS column_count, database_name
FROM tt_docs
GROUP BY object_name, object_kind, parameters, grain, description, database_name
ORDER BY object_kind = 'table' DESC, object_name
