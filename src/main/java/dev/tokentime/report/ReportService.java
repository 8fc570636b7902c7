package dev.tokentime.report;

import dev.tokentime.BadInputException;
import dev.tokentime.Version;
import dev.tokentime.analysis.Compare;
import dev.tokentime.analysis.CompareReport;
import dev.tokentime.analysis.RunSelection;
import dev.tokentime.analysis.SloCheck;
import dev.tokentime.analysis.SloReport;
import dev.tokentime.analysis.SloSpec;
import dev.tokentime.store.ScopedGapBuckets;
import dev.tokentime.store.ViewSnapshot;
import dev.tokentime.store.Database;
import dev.tokentime.store.TimelineSnapshot;
import dev.tokentime.summary.Summary;
import dev.tokentime.summary.SummaryService;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tech.tablesaw.api.Table;

/**
 * Gathers a report's data from a database: the summary and the SLO check through their services,
 * everything else from the views ({@link ReportQueries}), then the findings. The analysis window
 * must already be applied to the connection.
 */
public final class ReportService {

  /**
   * What to report on.
   *
   * @param runs only these runs (all when empty)
   * @param slo the SLO to check, or null
   * @param window the analysis window in words ("" when none)
   * @param source the database's name, for the report's header
   */
  public record Request(Set<String> runs, SloSpec slo, String window, String source) {}

  public ReportData gather(Database db, Request req) throws SQLException {
    // the summary, the latency and level tables and the findings all read metric_stats. (Not
    // itl_stalls: a copy of its 2 M rows at 200 M tokens did not fit in the memory limit, while
    // the stall summary and the top stalls, each computed from the view, do.) The levels the three
    // timelines and the stall attributions read, and the token cells the batch timeline finds
    // engine steps in, are taken once (TimelineSnapshot says which and why).
    // (metric_stats's chunk-gap buckets first, when a window or warm-up is set: ScopedGapBuckets).
    // The sweep's sections (levels, knee, goodput) pool the runs asked for only (RunSelection).
    try (RunSelection selection = RunSelection.of(db, req.runs());
        ViewSnapshot buckets = timed("report snapshot: gap buckets", () -> ScopedGapBuckets.open(db));
        ViewSnapshot ms = timed("report snapshot: metric_stats", () -> ViewSnapshot.of(db, "metric_stats"));
        TimelineSnapshot timelines = timed("report snapshot: token cells and levels", () -> TimelineSnapshot.snapshot(db));
        StallFloor floor = StallFloor.set(db)) {
      return gatherOnce(db, req);
    }
  }

  private interface SqlStep<T> {
    T get() throws SQLException;
  }

  /** One step of the report's preparation, its time on stderr under TOKENTIME_TIMING. */
  private static <T> T timed(String what, SqlStep<T> step) throws SQLException {
    long t = System.nanoTime();
    T out = step.get();
    dev.tokentime.Timing.since(what, t);
    return out;
  }

  /**
   * tt_stall_floor_ns for the report's two stall sections (report_stall_floor: under every run's
   * stall threshold), so _itl_stalls_top drops shorter gaps in its scan of the tokens instead of
   * after joining every gap with its request (most of the report's time at a day's scale). Taken from the
   * metric_stats snapshot, the figures the sections compare with.
   */
  private static final class StallFloor implements AutoCloseable {
    private final Database db;

    private StallFloor(Database db) {
      this.db = db;
    }

    static StallFloor set(Database db) throws SQLException {
      db.execute("SET VARIABLE tt_stall_floor_ns = (SELECT floor_ns FROM report_stall_floor)");
      return new StallFloor(db);
    }

    @Override
    public void close() throws SQLException {
      db.execute("RESET VARIABLE tt_stall_floor_ns");
    }
  }

  private ReportData gatherOnce(Database db, Request req) throws SQLException {
    Summary summary = timed("report: summary", () -> new SummaryService().summarize(db, req.runs(), req.slo()));
    // a server log without request lines (SGLang's batch lines alone) still has an engine to draw
    if (summary.runs().isEmpty() && summary.engines().isEmpty()) {
      throw new BadInputException("no run to report" + (req.runs().isEmpty() ? " (nothing ingested?)"
          : " named " + String.join(", ", req.runs()) + " (tokentime query runs lists them)"));
    }
    SloReport slo = req.slo() == null ? null : new SloCheck().check(db, req.slo(), req.runs());
    ReportQueries q = new ReportQueries(db, req.runs());
    Table clocks = q.clocks();
    List<String> context = new ArrayList<>();
    context.add("database: " + req.source());
    long engineOnly = summary.engines().stream().map(e -> String.valueOf(e.get("run"))).distinct()
        .filter(run -> summary.runs().stream().noneMatch(r -> r.run().equals(run))).count();
    context.add(summary.runs().size() + " run" + (summary.runs().size() == 1 ? "" : "s")
        + (engineOnly == 0 ? "" : " of requests and " + engineOnly + " of engine data only") + " from "
        + summary.sources() + " source file" + (summary.sources() == 1 ? "" : "s") + "; "
        + summary.rejectedLines() + " input line" + (summary.rejectedLines() == 1 ? "" : "s") + " rejected");
    if (req.window() != null && !req.window().isEmpty()) {
      context.add("analysis window: " + req.window());
    }
    if (req.slo() != null) {
      context.add("SLO: " + String.join(", ", req.slo().terms().stream().map(SloSpec.Term::describe).toList()));
    }
    context.add("generated " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " by tokentime " + Version.get());
    ReportData d = ReportData.builder()
        .title("tokentime report")
        .context(context)
        .summary(summary)
        .sloSpec(req.slo())
        .slo(slo)
        .runs(q.runs())
        .latency(q.latency())
        .levels(q.levels())
        .breakdown(q.breakdown())
        .histogram(q.histogram())
        .knee(q.knee())
        .attainment(req.slo() == null ? null : q.attainment())
        .goodput(req.slo() == null ? null : q.goodput())
        .stallSummary(q.stallSummary())
        .stalls(q.stalls())
        .outliers(q.outliers())
        .failures(q.failures())
        .basis(q.basis())
        .clocks(clocks)
        .timeline(q.timeline())
        .engine(q.engine())
        .definitions(q.definitions())
        .build();
    return d.withFindings(Findings.of(d));
  }

  /**
   * Two runs or levels side by side ({@code tokentime compare}'s figures and verdicts), followed
   * by the report of the runs of both sides.
   */
  public ReportData gatherCompare(Database db, String a, String b, Request req) throws SQLException {
    CompareReport c = new Compare().compare(db, a, b);
    Set<String> runs = new LinkedHashSet<>(c.runsA());
    runs.addAll(c.runsB());
    ReportData d = gather(db, new Request(runs, req.slo(), req.window(), req.source()));
    List<String> findings = new ArrayList<>(CompareFindings.of(c));
    findings.addAll(d.findings());
    return d.withFindings(findings).withCompare(c, "tokentime report: " + b + " compared with " + a);
  }
}
