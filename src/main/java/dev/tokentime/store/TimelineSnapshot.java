package dev.tokentime.store;

import java.sql.SQLException;

/**
 * The levels the timelines are drawn from, prepared once for a task that draws several (the
 * report): the batch, concurrency and queue-depth timelines, the run list's levels (run_levels)
 * and the stall attributions each read the query library's _level_segments, which computes its
 * request, step and stats segments anew on every read (its span and its buckets read it twice per
 * timeline). Two on-disk snapshots:
 *
 * <ul>
 *   <li>the token cells (_token_cells), from which _token_steps_live finds the engine steps of
 *       token timestamps: inside the timeline's query DuckDB ran their per-cell aggregate under
 *       memory pressure (at a day's scale, slower and over the memory target). The steps
 *       themselves are not kept: only the batch timeline reads them, and writing their rows (one
 *       per engine step) cost about as much as finding them again from the cells.
 *   <li>the segments of every basis but the token steps (_level_segments' rows where basis is not
 *       'tokens'): requests, intervals, engine steps and stats.
 * </ul>
 */
public final class TimelineSnapshot implements AutoCloseable {
  private final ViewSnapshot cells;
  private final ViewSnapshot segments;

  private TimelineSnapshot(ViewSnapshot cells, ViewSnapshot segments) {
    this.cells = cells;
    this.segments = segments;
  }

  /** Snapshots the token cells and the other levels' segments for the session; closing drops them. */
  public static TimelineSnapshot snapshot(Database db) throws SQLException {
    long t = System.nanoTime();
    ViewSnapshot cells = ViewSnapshot.onDisk(db, "_token_cells");
    t = dev.tokentime.Timing.since("snapshot: token cells", t);
    try {
      ViewSnapshot segments = ViewSnapshot.onDiskRows(db, "_level_segments", "basis <> 'tokens'");
      dev.tokentime.Timing.since("snapshot: level segments of every basis but token steps", t);
      return new TimelineSnapshot(cells, segments);
    } catch (SQLException | RuntimeException e) {
      cells.close();
      throw e;
    }
  }

  @Override
  public void close() throws SQLException {
    try {
      segments.close();
    } finally {
      cells.close();
    }
  }
}
