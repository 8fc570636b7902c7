package dev.tokentime.store;

import java.sql.SQLException;

/**
 * The engine steps found from token timestamps (the query library's _token_cells, then
 * _token_steps_live), computed once for a task that draws timelines: the batch timeline and the
 * levels table both read them, and computed inside the timeline's query DuckDB ran their per-cell
 * aggregate under memory pressure (at a day's scale, slower and over the memory target). Two on-disk
 * snapshots, the cells dropped once the steps are taken from them.
 */
public final class TokenSteps {
  private TokenSteps() {}

  /** Snapshots the token steps for the session; closing drops them. */
  public static ViewSnapshot snapshot(Database db) throws SQLException {
    try (ViewSnapshot cells = ViewSnapshot.onDisk(db, "_token_cells")) {
      return ViewSnapshot.onDisk(db, "_token_steps_live");
    }
  }
}
