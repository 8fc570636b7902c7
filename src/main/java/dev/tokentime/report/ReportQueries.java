package dev.tokentime.report;

import dev.tokentime.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;
import tech.tablesaw.api.Table;

/**
 * Reads what a report shows into Tablesaw tables, each from its view in queries/report/
 * ({@code SELECT * FROM report_…}). Everything is aggregated there — percentiles, buckets, the
 * top N stalls and outliers — so a report of ten million tokens holds a few thousand numbers; and
 * the views cast their columns to BIGINT, DOUBLE, VARCHAR or BOOLEAN, the types Tablesaw reads
 * from JDBC (../shared/JAVA-NOTES.md §B3). Java only keeps the runs asked for. Request ids and
 * error text stay as read: the renderers escape them.
 */
final class ReportQueries {
  /** Longest stalls kept per run (the table shows fewer; the charts mark these). */
  static final int STALLS_PER_RUN = 30;
  /** Slowest requests kept per run. */
  static final int OUTLIERS_PER_RUN = 10;
  /** Bucket widths of an ITL histogram past which report_itl_histogram folds the rest into one. */
  static final int HISTOGRAM_BUCKETS = 40;

  private final Database db;
  private final Set<String> onlyRuns;

  ReportQueries(Database db, Set<String> onlyRuns) {
    this.db = db;
    this.onlyRuns = onlyRuns;
  }

  Table runs() throws SQLException {
    return forRuns(read("runs", "SELECT * FROM report_runs"));
  }

  /** P50/P95/P99 of each latency metric per run, one row per run. */
  Table latency() throws SQLException {
    return forRuns(read("latency", "SELECT * FROM report_latency"));
  }

  /** The sweep's levels, of the runs asked for only (the report's RunSelection). */
  Table levels() throws SQLException {
    return read("levels", "SELECT * FROM report_levels");
  }

  Table breakdown() throws SQLException {
    return forRuns(read("breakdown", "SELECT * FROM report_ttft_breakdown"));
  }

  /** The ITL histogram per run, with a bucket width that suits the run and the tail folded into one bucket. */
  Table histogram() throws SQLException {
    return forRuns(read("histogram", "SELECT * FROM report_itl_histogram"));
  }

  /** The knee of the sweep of the runs asked for (the report's RunSelection). */
  Table knee() throws SQLException {
    return read("knee", "SELECT * FROM report_knee");
  }

  Table attainment() throws SQLException {
    return forRuns(read("attainment", "SELECT * FROM report_slo_attainment"));
  }

  /** DistServe's goodput per sweep, with the note saying whether it is a level run or interpolated. */
  Table goodput() throws SQLException {
    return read("goodput", "SELECT * FROM report_goodput");
  }

  Table stallSummary() throws SQLException {
    return forRuns(read("stall_summary", "SELECT * FROM report_stall_summary"));
  }

  /** The longest stalls of each run, with their request ids. */
  Table stalls() throws SQLException {
    return forRuns(read("stalls", "SELECT * FROM report_stalls(" + STALLS_PER_RUN + ")"));
  }

  /** The slowest ok measured requests per run: TTFT or E2E at or above the run's P99. */
  Table outliers() throws SQLException {
    return forRuns(read("outliers", "SELECT * FROM report_outliers(" + OUTLIERS_PER_RUN + ")"));
  }

  Table failures() throws SQLException {
    return forRuns(read("failures", "SELECT * FROM report_failures"));
  }

  Table basis() throws SQLException {
    return forRuns(read("basis", "SELECT * FROM report_basis"));
  }

  /** Per run whose requests are all on one clock: that clock and the origin of its time axis. */
  Table clocks() throws SQLException {
    return forRuns(read("clocks", "SELECT * FROM report_clocks"));
  }

  /**
   * The timelines on each run's request clock, long form (chart load, batch, tokens). The views
   * behind it are the expensive part of a report; report_timeline reads each once.
   */
  Table timeline() throws SQLException {
    return forRuns(read("timeline", "SELECT * FROM report_timeline"));
  }

  /** The engine's periodic stats per run and source, down-sampled, gaps as NULL. */
  Table engine() throws SQLException {
    return forRuns(read("engine", "SELECT * FROM report_engine"));
  }

  /** The definitions of the figures a report shows, from the views' own documentation. */
  Table definitions() throws SQLException {
    return read("definitions", "SELECT * FROM report_definitions");
  }

  // --- helpers ---

  private Table forRuns(Table t) {
    if (onlyRuns.isEmpty()) {
      return t;
    }
    return t.where(t.stringColumn("run").isIn(onlyRuns));
  }

  Table read(String name, String sql, Object... args) throws SQLException {
    long t0 = System.nanoTime();
    try {
      return readTable(name, sql, args);
    } finally {
      if (TIMING) {
        System.err.printf(Locale.ROOT, "report: %-12s %6d ms%n", name, (System.nanoTime() - t0) / 1_000_000);
      }
    }
  }

  /** TOKENTIME_TIMING=1 prints how long each of the report's queries took. */
  private static final boolean TIMING = System.getenv("TOKENTIME_TIMING") != null;

  private Table readTable(String name, String sql, Object... args) throws SQLException {
    try {
      return readOnce(name, sql, args);
    } catch (SQLException e) {
      if (!Database.isOutOfMemory(e)) {
        throw e;
      }
      // At a day's scale a timeline failed now and then with "failed to pin block" under the
      // memory limit and passed when run again (a read: safe to repeat); once, then the error.
      dev.tokentime.Timing.note("report %s: out of memory (%s); once more", name, e.getMessage().lines().findFirst().orElse(""));
      return readOnce(name, sql, args);
    }
  }

  /**
   * One read, streamed: DuckDB JDBC otherwise builds a result whole before its first row, outside
   * DuckDB's memory limit, and Tablesaw then copies it. Streaming is turned off again after it, as
   * a streamed result is the only thing its connection may run while it is open.
   */
  private Table readOnce(String name, String sql, Object... args) throws SQLException {
    db.streamResults(true);
    try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return Table.read().db(rs, name);
      }
    } finally {
      db.streamResults(false);
    }
  }
}
