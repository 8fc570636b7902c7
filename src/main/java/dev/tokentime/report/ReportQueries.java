package dev.tokentime.report;

import dev.tokentime.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * Reads what a report shows from the views into Tablesaw tables. Everything is aggregated in
 * DuckDB first — percentiles, buckets, the top N stalls and outliers — so a report of ten million
 * tokens holds a few thousand numbers. Columns are cast to BIGINT, DOUBLE, VARCHAR or BOOLEAN,
 * the types Tablesaw reads from JDBC (../shared/JAVA-NOTES.md §B3). Request ids and error text
 * stay as read: the renderers escape them.
 */
final class ReportQueries {
  /** Longest stalls kept per run (the table shows fewer; the charts mark these). */
  static final int STALLS_PER_RUN = 30;
  /** Slowest requests kept per run. */
  static final int OUTLIERS_PER_RUN = 10;
  /** Buckets of an ITL histogram up to where the rest is folded into one. */
  static final int HISTOGRAM_BUCKETS = 40;
  /** Engine snapshots per source beyond which they are averaged into about this many buckets. */
  static final int ENGINE_POINTS = 400;

  private final Database db;
  private final Set<String> onlyRuns;

  ReportQueries(Database db, Set<String> onlyRuns) {
    this.db = db;
    this.onlyRuns = onlyRuns;
  }

  Table runs() throws SQLException {
    return forRuns(read("runs", "SELECT run, level_kind, level::DOUBLE AS level, requests::BIGINT AS requests,"
        + " ok_requests::BIGINT AS ok_requests, failed_requests::BIGINT AS failed_requests,"
        + " excluded_requests::BIGINT AS excluded_requests, duration_s::DOUBLE AS duration_s,"
        + " output_tokens_per_s::DOUBLE AS output_tokens_per_s, requests_per_s::DOUBLE AS requests_per_s,"
        + " mean_input_tokens::DOUBLE AS mean_input_tokens, mean_output_tokens::DOUBLE AS mean_output_tokens"
        + " FROM run_summary ORDER BY level_kind NULLS LAST, level NULLS LAST, run"));
  }

  /** P50/P95/P99 of each latency metric per run, one row per run. */
  Table latency() throws SQLException {
    StringBuilder cols = new StringBuilder();
    for (String m : List.of("ttft", "queue", "prefill", "itl", "tpot", "e2e")) {
      for (String p : List.of("p50", "p95", "p99")) {
        cols.append(", max(").append(p).append(") FILTER (WHERE metric = '").append(m)
            .append("_ms')::DOUBLE AS ").append(m).append('_').append(p).append("_ms");
      }
    }
    return forRuns(read("latency", "SELECT s.run" + cols + " FROM metric_stats s JOIN run_summary r USING (run)"
        + " GROUP BY s.run, r.level_kind, r.level ORDER BY r.level_kind NULLS LAST, r.level NULLS LAST, s.run"));
  }

  Table levels() throws SQLException {
    Table t = read("levels", "SELECT level_kind, level::DOUBLE AS level, label, runs::BIGINT AS runs, run_names,"
        + " requests::BIGINT AS requests, ok_requests::BIGINT AS ok_requests, failed_requests::BIGINT AS failed_requests,"
        + " ttft_p50_ms::DOUBLE AS ttft_p50_ms, ttft_p90_ms::DOUBLE AS ttft_p90_ms, ttft_p95_ms::DOUBLE AS ttft_p95_ms,"
        + " ttft_p99_ms::DOUBLE AS ttft_p99_ms, itl_p50_ms::DOUBLE AS itl_p50_ms, itl_p90_ms::DOUBLE AS itl_p90_ms,"
        + " itl_p95_ms::DOUBLE AS itl_p95_ms, itl_p99_ms::DOUBLE AS itl_p99_ms, tpot_p50_ms::DOUBLE AS tpot_p50_ms,"
        + " tpot_p99_ms::DOUBLE AS tpot_p99_ms, e2e_p50_ms::DOUBLE AS e2e_p50_ms, e2e_p90_ms::DOUBLE AS e2e_p90_ms,"
        + " e2e_p95_ms::DOUBLE AS e2e_p95_ms, e2e_p99_ms::DOUBLE AS e2e_p99_ms,"
        + " output_tokens_per_s::DOUBLE AS output_tokens_per_s, output_tokens_per_s_min::DOUBLE AS output_tokens_per_s_min,"
        + " output_tokens_per_s_max::DOUBLE AS output_tokens_per_s_max, requests_per_s::DOUBLE AS requests_per_s,"
        + " mean_input_tokens::DOUBLE AS mean_input_tokens, mean_output_tokens::DOUBLE AS mean_output_tokens"
        + " FROM level_summary ORDER BY level_kind NULLS LAST, level NULLS LAST, label");
    if (onlyRuns.isEmpty()) {
      return t;
    }
    return t.where(t.stringColumn("run_names").eval(s -> java.util.Arrays.stream(s.split(", ")).anyMatch(onlyRuns::contains)));
  }

  Table breakdown() throws SQLException {
    return forRuns(read("breakdown", "SELECT run, level_kind, level::DOUBLE AS level, percentile::BIGINT AS percentile,"
        + " ttft_ms::DOUBLE AS ttft_ms, pre_queue_ms::DOUBLE AS pre_queue_ms, queue_ms::DOUBLE AS queue_ms,"
        + " prefill_ms::DOUBLE AS prefill_ms, tail_requests::BIGINT AS tail_requests,"
        + " pre_queue_share::DOUBLE AS pre_queue_share, queue_share::DOUBLE AS queue_share,"
        + " prefill_share::DOUBLE AS prefill_share, requests_with_parts::BIGINT AS requests_with_parts"
        + " FROM ttft_breakdown ORDER BY level_kind NULLS LAST, level NULLS LAST, run, percentile"));
  }

  /**
   * The ITL histogram per run with a bucket width that suits the run (a nice number near its P99
   * / 25), and every bucket from {@link #HISTOGRAM_BUCKETS} widths on folded into one, so one
   * 30-second stall does not make thousands of empty buckets.
   */
  Table histogram() throws SQLException {
    Table out = null;
    for (Row r : read("p99", "SELECT run, p99::DOUBLE AS p99, max::DOUBLE AS mx FROM metric_stats"
        + " WHERE metric = 'itl_ms' AND count > 0 ORDER BY run")) {
      String run = r.getString("run");
      if (!onlyRuns.isEmpty() && !onlyRuns.contains(run)) {
        continue;
      }
      double p99 = r.getDouble("p99");
      double basis = p99 > 0 ? p99 * 1.6 : r.getDouble("mx") > 0 ? r.getDouble("mx") : 1;
      double width = nice(basis / HISTOGRAM_BUCKETS);
      double cap = width * HISTOGRAM_BUCKETS;
      String sql = "SELECT run, CASE WHEN lo_ms >= " + lit(cap) + " THEN " + lit(cap) + " ELSE lo_ms END::DOUBLE AS lo_ms,"
          + " max(hi_ms)::DOUBLE AS hi_ms, sum(count)::BIGINT AS count, sum(share)::DOUBLE AS share,"
          + " max(cumulative_share)::DOUBLE AS cumulative_share, bool_or(lo_ms >= " + lit(cap) + ") AS folded,"
          + " " + lit(width) + "::DOUBLE AS width_ms"
          + " FROM itl_histogram(" + lit(width) + ") WHERE run = ? GROUP BY run, 2 ORDER BY 2";
      Table t = read("histogram", sql, run);
      out = out == null ? t : out.append(t);
    }
    return out != null ? out : read("histogram", "SELECT ''::VARCHAR AS run, 0::DOUBLE AS lo_ms, 0::DOUBLE AS hi_ms,"
        + " 0::BIGINT AS count, 0::DOUBLE AS share, 0::DOUBLE AS cumulative_share, false AS folded,"
        + " 0::DOUBLE AS width_ms WHERE false");
  }

  Table knee() throws SQLException {
    return read("knee", "SELECT level_kind, level::DOUBLE AS level, output_tokens_per_s::DOUBLE AS output_tokens_per_s,"
        + " e2e_p95_ms::DOUBLE AS e2e_p95_ms, ttft_p95_ms::DOUBLE AS ttft_p95_ms,"
        + " gain_per_doubling::DOUBLE AS gain_per_doubling,"
        + " latency_growth_per_doubling::DOUBLE AS latency_growth_per_doubling, past_knee, is_knee, rule"
        + " FROM level_knee ORDER BY level_kind, level");
  }

  Table attainment() throws SQLException {
    return forRuns(read("attainment", "SELECT run, level_kind, level::DOUBLE AS level, requests::BIGINT AS requests,"
        + " attaining::BIGINT AS attaining, attainment::DOUBLE AS attainment, goodput_per_s::DOUBLE AS goodput_per_s"
        + " FROM slo_attainment ORDER BY level_kind NULLS LAST, level NULLS LAST, run"));
  }

  Table stallSummary() throws SQLException {
    return forRuns(read("stall_summary", "SELECT run, threshold_ms::DOUBLE AS threshold_ms, stalls::BIGINT AS stalls,"
        + " prefill_share::DOUBLE AS prefill_share, preemption_share::DOUBLE AS preemption_share,"
        + " batch_jump_share::DOUBLE AS batch_jump_share, kv_full_share::DOUBLE AS kv_full_share,"
        + " unexplained_share::DOUBLE AS unexplained_share, verdict FROM stall_summary ORDER BY run"));
  }

  Table stalls() throws SQLException {
    // the longest stalls of each run (_itl_stalls_top: a top-n aggregate picks them before the
    // attributions are computed, for those rows only; every stall through the attributions ran
    // out of the memory limit at 200 M tokens). Ties: the earlier stall, then the smaller request
    // key and seq. Ids from the requests table: request_latency beside the stalls at 200 M
    // tokens did not fit either.
    return forRuns(read("stalls", "SELECT t.run, r.request_id, r.clock_id::BIGINT AS clock_id, t.seq::BIGINT AS seq,"
        + " t.t0_ns::BIGINT AS t0_ns, t.t1_ns::BIGINT AS t1_ns, t.gap_ms::DOUBLE AS gap_ms,"
        + " t.threshold_ms::DOUBLE AS threshold_ms, t.other_prefills::BIGINT AS other_prefills,"
        + " coalesce(t.preempted, false) AS preempted, coalesce(t.batch_jump, false) AS batch_jump,"
        + " coalesce(t.kv_near_full, false) AS kv_near_full"
        + " FROM _itl_stalls_top(" + STALLS_PER_RUN + ") AS t LEFT JOIN requests r ON r.request_key = t.request_key"
        + " ORDER BY t.run, t.gap_ms DESC, t.t0_ns, t.request_key, t.seq"));
  }

  /** The slowest ok measured requests per run: TTFT or E2E at or above the run's P99. */
  Table outliers() throws SQLException {
    return forRuns(read("outliers", "WITH p AS (SELECT run, max(p99) FILTER (WHERE metric = 'ttft_ms') AS ttft_p99,"
        + " max(p99) FILTER (WHERE metric = 'e2e_ms') AS e2e_p99 FROM metric_stats GROUP BY run)"
        + " SELECT r.run, r.request_id, r.clock_id::BIGINT AS clock_id, r.arrival_ns::BIGINT AS arrival_ns,"
        + " r.ttft_ms::DOUBLE AS ttft_ms, r.e2e_ms::DOUBLE AS e2e_ms, r.prompt_tokens::BIGINT AS prompt_tokens,"
        + " r.output_tokens::BIGINT AS output_tokens, coalesce(r.ttft_ms >= p.ttft_p99, false) AS slow_ttft,"
        + " coalesce(r.e2e_ms >= p.e2e_p99, false) AS slow_e2e"
        + " FROM request_latency r JOIN p USING (run)"
        + " WHERE r.measured AND r.ok AND (r.ttft_ms >= p.ttft_p99 OR r.e2e_ms >= p.e2e_p99)"
        + " QUALIFY row_number() OVER (PARTITION BY r.run ORDER BY r.e2e_ms DESC NULLS LAST, r.ttft_ms DESC, r.request_id)"
        + " <= " + OUTLIERS_PER_RUN + " ORDER BY r.run, r.e2e_ms DESC NULLS LAST, r.ttft_ms DESC, r.request_id"));
  }

  Table failures() throws SQLException {
    return forRuns(read("failures", "SELECT run, status, http_status::BIGINT AS http_status, error,"
        + " requests::BIGINT AS requests, example_request_id FROM request_failures"));
  }

  Table basis() throws SQLException {
    return forRuns(read("basis", "SELECT run, figure, \"values\"::BIGINT AS \"values\","
        + " coarsest_resolution_ns::BIGINT AS coarsest_resolution_ns, basis FROM figure_basis ORDER BY run, figure"));
  }

  /**
   * Per run whose requests are all on one clock: that clock and the run's first arrival on it
   * (t = 0 of its time axis). Runs whose requests each have their own clock (a tool without send
   * times) have no time axis.
   */
  Table clocks() throws SQLException {
    return forRuns(read("clocks", "SELECT run, min(clock_id)::BIGINT AS clock_id, min(arrival_ns)::BIGINT AS origin_ns"
        + " FROM request_latency WHERE clock_id IS NOT NULL AND arrival_ns IS NOT NULL GROUP BY run"
        + " HAVING count(DISTINCT clock_id) = 1 ORDER BY run"));
  }

  /**
   * The timelines on each run's request clock, long form: chart "load" (in flight, queued,
   * running; waiting from engine stats or steps on the same clock), "batch" (batch size by
   * method) and "tokens" (output tokens/s, in buckets as wide as the run's other timelines). x_s
   * is the middle of the bucket, in seconds after the run's first arrival. Each view is read once
   * (they are the expensive part of a report) and unpivoted in SQL.
   */
  Table timeline(Table clocks) throws SQLException {
    if (clocks.rowCount() == 0) {
      return emptyTimeline();
    }
    String m = "m AS (SELECT * FROM (VALUES " + valuesOf(clocks) + ") v(run, clock_id, origin_ns))";
    String x = "((b.bucket_start_ns - m.origin_ns) / 1e9 + b.width_s / 2)::DOUBLE AS x_s, b.width_s::DOUBLE AS width_s";
    String join = " JOIN m ON b.run = m.run AND b.clock_id = m.clock_id";
    Table t = read("timeline", "WITH " + m + ", b AS (SELECT b.run, " + x + ", b.in_flight_mean::DOUBLE AS \"in flight\","
        + " b.queued_mean::DOUBLE AS queued, b.running_mean::DOUBLE AS running FROM concurrency_timeline b" + join + ")"
        + " SELECT run, 'load' AS chart, series, x_s, width_s, y FROM (UNPIVOT b ON \"in flight\", queued, running"
        + " INTO NAME series VALUE y) ORDER BY run, series, x_s");
    t.append(read("timeline", "WITH " + m + " SELECT b.run, 'load' AS chart, 'waiting (' || b.basis || ')' AS series, " + x
        + ", b.waiting_mean::DOUBLE AS y FROM queue_depth_timeline b" + join + " WHERE b.basis <> 'requests'"
        + " AND b.waiting_mean IS NOT NULL ORDER BY 1, 3, 4"));
    t.append(read("timeline", "WITH " + m + " SELECT b.run, 'batch' AS chart, 'batch size (' || b.method"
        + " || CASE WHEN b.approximate THEN ', approximate' ELSE '' END || ')' AS series, " + x
        + ", b.batch_mean::DOUBLE AS y FROM batch_size_timeline b" + join + " WHERE b.batch_mean IS NOT NULL ORDER BY 1, 3, 4"));
    // tokens/s per bucket: throughput_timeline takes one width, so one query per width in use
    Map<Double, List<String>> byWidth = new LinkedHashMap<>();
    for (Row r : t) {
      if (r.getString("chart").equals("load") && r.getString("series").equals("in flight")) {
        List<String> runs = byWidth.computeIfAbsent(r.getDouble("width_s"), k -> new ArrayList<>());
        if (!runs.contains(r.getString("run"))) {
          runs.add(r.getString("run"));
        }
      }
    }
    for (var e : byWidth.entrySet()) {
      String w = lit(e.getKey());
      String in = String.join(", ", e.getValue().stream().map(ReportQueries::sqlString).toList());
      t.append(read("timeline", "WITH " + m + " SELECT b.run, 'tokens' AS chart, 'output tokens/s' AS series,"
          + " ((b.bucket_start_ns - m.origin_ns) / 1e9 + " + w + " / 2)::DOUBLE AS x_s, " + w + "::DOUBLE AS width_s,"
          + " b.output_tokens_per_s::DOUBLE AS y FROM throughput_timeline(" + w + ") b JOIN m ON b.run = m.run"
          + " WHERE b.run IN (" + in + ") ORDER BY 1, 4"));
    }
    return t;
  }

  private Table emptyTimeline() throws SQLException {
    return read("timeline", "SELECT ''::VARCHAR AS run, ''::VARCHAR AS chart, ''::VARCHAR AS series, 0::DOUBLE AS x_s,"
        + " 0::DOUBLE AS width_s, 0::DOUBLE AS y WHERE false");
  }

  /**
   * The engine's periodic stats per run and source: running, waiting and KV usage (%), a gap as
   * NULL values; more than {@link #ENGINE_POINTS} snapshots are averaged into buckets (a bucket
   * touching a gap stays NULL). x_s counts from the source's first snapshot (its own clock).
   */
  Table engine() throws SQLException {
    return forRuns(read("engine", "WITH e AS (SELECT run, source_id, format, coalesce(instance, '') AS instance, row_kind,"
        + " t_s, running, waiting, kv_usage, count(*) OVER w AS n, max(t_s) OVER w AS span FROM engine_timeline"
        + " WINDOW w AS (PARTITION BY run, source_id, instance))"
        + " SELECT run, source_id::BIGINT AS source_id, format, instance,"
        + " (CASE WHEN n > " + ENGINE_POINTS + " AND span > 0 THEN floor(t_s / (span / " + ENGINE_POINTS + ")) * (span / "
        + ENGINE_POINTS + ") ELSE t_s END)::DOUBLE AS x_s,"
        + " (CASE WHEN bool_or(row_kind = 'no data') THEN NULL ELSE avg(running) END)::DOUBLE AS running,"
        + " (CASE WHEN bool_or(row_kind = 'no data') THEN NULL ELSE avg(waiting) END)::DOUBLE AS waiting,"
        + " (CASE WHEN bool_or(row_kind = 'no data') THEN NULL ELSE 100 * avg(kv_usage) END)::DOUBLE AS kv_pct"
        + " FROM e GROUP BY run, source_id, format, instance, 5 ORDER BY run, source_id, instance, x_s"));
  }

  /**
   * The definitions of the figures a report shows, from the documentation the query library
   * stores with its views (COMMENT ON), so a report states exactly what docs/metrics.md and the
   * views say.
   */
  Table definitions() throws SQLException {
    List<String[]> wanted = List.of(
        new String[] {"request_latency", "ttft_ms", "TTFT"},
        new String[] {"request_latency", "pre_queue_ms", "pre-queue"},
        new String[] {"request_latency", "queue_ms", "queue"},
        new String[] {"request_latency", "prefill_ms", "prefill"},
        new String[] {"request_latency", "decode_ms", "decode"},
        new String[] {"request_latency", "e2e_ms", "E2E"},
        new String[] {"request_latency", "tpot_ms", "TPOT"},
        new String[] {"token_gaps", "gap_ms", "ITL"},
        new String[] {"run_summary", "duration_s", "measured window"},
        new String[] {"run_summary", "output_tokens_per_s", "output tokens/s"},
        new String[] {"run_summary", "requests_per_s", "requests/s"},
        new String[] {"metric_stats", null, "percentiles"},
        new String[] {"level_summary", null, "per-level table"},
        new String[] {"ttft_breakdown", null, "TTFT breakdown"},
        new String[] {"concurrency_timeline_at", null, "in flight, queued, running"},
        new String[] {"batch_size_timeline_at", null, "effective batch size"},
        new String[] {"engine_timeline", null, "engine timeline, KV usage"},
        new String[] {"itl_stalls", null, "ITL stalls"},
        new String[] {"level_knee", null, "knee"},
        new String[] {"slo_attainment", null, "SLO attainment"},
        new String[] {"figure_basis", null, "basis"});
    StringBuilder sql = new StringBuilder("SELECT v.figure, v.source, coalesce(c.comment, w.comment, f.comment) AS definition"
        + " FROM (VALUES ");
    for (int i = 0; i < wanted.size(); i++) {
      String[] w = wanted.get(i);
      sql.append(i == 0 ? "" : ", ").append("(").append(i).append(", '").append(w[2]).append("', '").append(w[0])
          .append("', ").append(w[1] == null ? "NULL" : "'" + w[1] + "'").append(")");
    }
    sql.append(") v(i, figure, source, col)"
        + " LEFT JOIN duckdb_columns() c ON c.table_name = v.source AND c.column_name = v.col"
        + " LEFT JOIN duckdb_views() w ON v.col IS NULL AND w.view_name = v.source"
        + " LEFT JOIN (SELECT function_name, any_value(comment) AS comment FROM duckdb_functions()"
        + "   WHERE function_type = 'table_macro' GROUP BY ALL) f ON v.col IS NULL AND f.function_name = v.source"
        + " ORDER BY v.i");
    return read("definitions", sql.toString());
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
      // At 200 M tokens a timeline failed now and then with "failed to pin block" under the
      // memory limit and passed when run again (a read: safe to repeat); once, then the error.
      dev.tokentime.Timing.note("report %s: out of memory (%s); once more", name, e.getMessage().lines().findFirst().orElse(""));
      return readOnce(name, sql, args);
    }
  }

  private Table readOnce(String name, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return Table.read().db(rs, name);
      }
    }
  }

  /** A clocks table as SQL VALUES rows; run names bound by escaping them as SQL string literals. */
  private static String valuesOf(Table clocks) {
    if (clocks.rowCount() == 0) {
      return "(NULL::VARCHAR, NULL::BIGINT, NULL::BIGINT)";
    }
    StringBuilder sb = new StringBuilder();
    for (Row r : clocks) {
      sb.append(sb.length() == 0 ? "" : ", ").append("(").append(sqlString(r.getString("run"))).append(", ")
          .append(r.getLong("clock_id")).append("::BIGINT, ").append(r.getLong("origin_ns")).append("::BIGINT)");
    }
    return sb.toString();
  }

  /** A SQL string literal: quotes doubled, so a run name from a log cannot end the literal. */
  static String sqlString(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  static String lit(double v) {
    return String.format(Locale.ROOT, "%.9g", v);
  }

  /** The smallest 1, 2 or 5 x 10^k at or above v (v > 0). */
  static double nice(double v) {
    if (!(v > 0)) {
      return 1;
    }
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= v * (1 - 1e-9)) {
        return m * p;
      }
    }
    return 10 * p;
  }
}
