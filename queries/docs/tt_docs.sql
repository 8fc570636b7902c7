-- The documentation of every table, view and macro of the database, read from DuckDB's own
-- catalog (duckdb_tables(), duckdb_views(), duckdb_columns(), duckdb_functions()), where
-- tokentime stores it as COMMENT ON when it creates the schema and installs the query library:
-- so any DuckDB client can discover what the database holds, what each row is and the unit of
-- every column (SELECT * FROM tt_docs WHERE object_name = 'request_latency'). Helpers and internal
-- tables (names starting with _) are left out. A table's comment is "<grain>. <description>", a
-- view's or macro's "<description> Grain: <grain>."; a column's "[unit] doc". Objects created by
-- hand without comments are listed with NULL docs. When the database is ATTACHed under another
-- name, the rows are those of every attached database that holds tt_docs (database_name tells).
-- @grain one row per column of each table and view, and one row per macro (its column fields NULL)
-- @column object_name [id] Table, view or macro name.
-- @column object_kind [text] table, view, macro (returns a value) or table macro (returns rows).
-- @column parameters [text] A macro's parameters, e.g. (bucket_s); NULL for tables and views.
-- @column grain [text] What one row of the object is, e.g. "one row per request".
-- @column description [text] What the object holds, in plain sentences.
-- @column column_index [count] Position of the column in the object, from 1; NULL for macros.
-- @column column_name [id] Column name; NULL for macros.
-- @column data_type [text] DuckDB type of the column.
-- @column unit [text] Unit of the column (ms, ns, tokens, tokens/s, count, id, text, ...).
-- @column column_doc [text] What the column means.
-- @column database_name [id] Catalog (database) the object lives in.
CREATE OR REPLACE VIEW tt_docs AS
WITH dbs AS (
    SELECT DISTINCT database_name FROM duckdb_views()
    WHERE view_name = 'tt_docs' AND schema_name = 'main' AND NOT temporary
),
commented AS (
    SELECT database_name, view_name AS object_name, 'view' AS object_kind, NULL::VARCHAR AS parameters,
        comment
    FROM duckdb_views()
    WHERE schema_name = 'main' AND NOT temporary AND NOT internal
    UNION ALL
    SELECT DISTINCT database_name, function_name,
        CASE function_type WHEN 'table_macro' THEN 'table macro' ELSE 'macro' END,
        '(' || array_to_string(parameters, ', ') || ')', comment
    FROM duckdb_functions()
    WHERE schema_name = 'main' AND NOT internal AND function_type IN ('macro', 'table_macro')
),
objects AS (
    SELECT database_name, table_name AS object_name, 'table' AS object_kind, NULL::VARCHAR AS parameters,
        nullif(lower(left(split_part(comment, '. ', 1), 1)) || substr(split_part(comment, '. ', 1), 2), '')
            AS grain,
        nullif(CASE WHEN strpos(comment, '. ') > 0 THEN substr(comment, strpos(comment, '. ') + 2) END, '')
            AS description
    FROM duckdb_tables()
    WHERE schema_name = 'main' AND NOT temporary AND NOT internal
    UNION ALL
    -- the last "Grain: ...", so a description may itself mention the word
    SELECT database_name, object_name, object_kind, parameters, nullif(g, ''),
        nullif(trim(CASE WHEN g = '' THEN comment
            ELSE left(comment, length(comment) - length('Grain: ' || g || '.')) END), '')
    FROM (SELECT *, regexp_extract(comment, '^.*Grain: (.*)\.$', 1) AS g FROM commented)
),
cols AS (
    SELECT database_name, table_name AS object_name, column_index, column_name, data_type,
        nullif(regexp_extract(comment, '^\[([^\]]*)\]', 1), '') AS unit,
        nullif(trim(regexp_replace(comment, '^\[[^\]]*\]\s*', '')), '') AS column_doc
    FROM duckdb_columns()
    WHERE schema_name = 'main' AND NOT internal
)
SELECT o.object_name, o.object_kind, o.parameters, o.grain, o.description,
    c.column_index, c.column_name, c.data_type, c.unit, c.column_doc, o.database_name
FROM objects o
LEFT JOIN cols c ON c.database_name = o.database_name AND c.object_name = o.object_name
    AND o.object_kind IN ('table', 'view')
WHERE o.database_name IN (SELECT database_name FROM dbs) AND NOT starts_with(o.object_name, '_')
ORDER BY o.object_kind = 'table' DESC, o.object_name, c.column_index
