-- Whether a run is among those the session asked for: tokentime's --run sets tt_runs (a list of
-- run names) for summary and report, and the views that pool runs — the levels of a sweep
-- (level_summary, hence level_knee) and DistServe's goodput over them — pool only those, so a
-- report of two runs of a sweep is not the knee or goodput of every run in the database. Other
-- clients may set it too: SET VARIABLE tt_runs = ['c8', 'c16']. Unset, every run is selected.
-- @grain one value
CREATE OR REPLACE MACRO _run_selected(run_name) AS (
    getvariable('tt_runs') IS NULL OR list_contains(getvariable('tt_runs')::VARCHAR[], run_name)
)
