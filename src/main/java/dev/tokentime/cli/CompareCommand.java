package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.analysis.Compare;
import dev.tokentime.analysis.CompareReport;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.output.Terminal;
import dev.tokentime.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "compare",
    description = {"Put two runs (or two levels) side by side: each figure, the change, and whether it is beyond noise.",
        "A side is a run name, or concurrency=N / request_rate=R for all repeats of a level. For "
            + "latencies (TTFT, queue, prefill, ITL, TPOT, E2E at mean, p50, p95, p99) the 95 % "
            + "bootstrap interval of B - A over requests (smoothed for percentiles, placed around B - A) (chunk gaps for ITL) decides: an interval "
            + "that excludes zero is better or worse, else within noise. Throughputs are one figure "
            + "per run: with repeats on both sides, non-overlapping ranges decide.",
        "A side may name its own database file, FILE.duckdb:RUN (or FILE.duckdb:concurrency=N), "
            + "to compare runs captured apart; a side without one reads --db."},
    footer = {"", "Examples:",
        "  tokentime compare --db sweep.duckdb c16 c32",
        "  tokentime compare --db ab.duckdb baseline tuned --format markdown",
        "  tokentime compare --db sweep.duckdb concurrency=16 concurrency=32",
        "  tokentime compare baseline.duckdb:c16 candidate.duckdb:c16"})
final class CompareCommand extends BaseCommand {
  @Mixin
  DbOption db;

  @Mixin
  FormatOption format;

  @Mixin
  AnalysisOptions analysis;

  @Parameters(index = "0", paramLabel = "A",
      description = "The baseline: a run, or concurrency=N / request_rate=R; FILE.duckdb:SIDE to read it from FILE.")
  String a;

  @Parameters(index = "1", paramLabel = "B", description = "The one compared with it.")
  String b;

  @Override
  protected int run() throws Exception {
    CompareReport r;
    var window = analysis.window();
    Side sa = Side.of(a);
    Side sideB = Side.of(b);
    Path fileA = sa.file() != null ? sa.file() : db.resolve();
    Path fileB = sideB.file() != null ? sideB.file() : db.resolve();
    for (Path f : List.of(fileA, fileB)) {
      if (!Files.isRegularFile(f)) {
        throw new BadInputException("compare: no database file " + f);
      }
    }
    try (Database da = Databases.forReading(fileA)) {
      window.apply(da.connection());
      if (sameFile(fileA, fileB)) {
        r = new Compare().compare(da, sa.side(), da, sideB.side(), a, b);
      } else {
        try (Database dbB = Databases.forReading(fileB)) {
          window.apply(dbB.connection());
          r = new Compare().compare(da, sa.side(), dbB, sideB.side(), a, b);
        }
      }
    }
    OutputFormat f = format.get();
    if (f == OutputFormat.JSON) {
      out().println(CheckCommand.JSON.writeValueAsString(r));
      return ExitCode.OK;
    }
    List<Object[]> rows = new ArrayList<>();
    for (CompareReport.Row x : r.rows()) {
      rows.add(new Object[] {x.metric(), x.stat(), x.a(), x.b(), x.change(),
          x.changePct() == null ? null : String.format(Locale.ROOT, "%+.1f %%", x.changePct()),
          x.ciLow() == null ? "" : String.format(Locale.ROOT, "[%.3f, %.3f]", x.ciLow(), x.ciHigh()),
          x.verdict()});
    }
    TableData t = new TableData(List.of("metric", "stat", "A", "B", "B - A", "change", "95 % interval of B - A", "verdict"),
        List.of(false, false, true, true, true, true, false, false), rows, false);
    StringBuilder sb = new StringBuilder();
    sb.append("A = ").append(r.a()).append(" (").append(String.join(", ", r.runsA())).append("), B = ")
        .append(r.b()).append(" (").append(String.join(", ", r.runsB())).append(")\n");
    if (!window.isEmpty()) {
      sb.append("analysis window: ").append(window.describe()).append('\n');
    }
    sb.append(f == OutputFormat.MARKDOWN ? TableRenderer.markdown(t) : f == OutputFormat.CSV
        ? TableRenderer.render(t, OutputFormat.CSV, Integer.MAX_VALUE) : TableRenderer.text(t, Terminal.width()));
    sb.append("intervals: ").append(r.resamples()).append(" bootstrap resamples of the requests (chunk gaps for itl_ms), fixed seed;"
        + " percentiles smoothed, each interval placed around its B - A (docs/metrics.md)\n");
    out().print(sb);
    return ExitCode.OK;
  }

  private static boolean sameFile(Path x, Path y) throws java.io.IOException {
    return Files.isSameFile(x, y);
  }

  /** A side as given: FILE.duckdb:SIDE (a file of its own), or SIDE alone (read from --db). */
  record Side(Path file, String side) {
    static Side of(String given) {
      int at = given.toLowerCase(Locale.ROOT).lastIndexOf(".duckdb:");
      if (at > 0) {
        return new Side(Path.of(given.substring(0, at + ".duckdb".length())), given.substring(at + ".duckdb:".length()));
      }
      int colon = given.indexOf(':');
      if (colon > 0 && Files.isRegularFile(Path.of(given.substring(0, colon)))) {
        return new Side(Path.of(given.substring(0, colon)), given.substring(colon + 1));
      }
      return new Side(null, given);
    }
  }
}
