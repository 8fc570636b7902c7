package dev.tokentime.store;

import java.sql.SQLException;

/**
 * The first pass of the chunk-gap percentiles (_gap_buckets, variant chunk_gap) for a task that
 * reads the ITL figures while an analysis window or warm-up is set: the derive step's figures
 * (_gap_stats) are of the default scope, so metric_stats computes these from every gap, and
 * inside its one query, under the memory limit, DuckDB ran that pass several times slower than on
 * its own at a day's scale (the same either way at smaller ones). With the default scope nothing
 * is computed.
 */
public final class ScopedGapBuckets {
  private ScopedGapBuckets() {}

  /** Computes the chunk-gap buckets of the session's scope once, unless it is the default scope. */
  public static ViewSnapshot open(Database db) throws SQLException {
    if (db.queryLong("SELECT _scope_is_default()::INTEGER") == 1) {
      return ViewSnapshot.none(db, "_gap_buckets");
    }
    return ViewSnapshot.ofRows(db, "_gap_buckets", "variant = 'chunk_gap'");
  }
}
