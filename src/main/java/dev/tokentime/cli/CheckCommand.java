package dev.tokentime.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tokentime.analysis.SloCheck;
import dev.tokentime.analysis.SloReport;
import dev.tokentime.analysis.SloSpec;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.output.Terminal;
import dev.tokentime.store.Database;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "check",
    description = {"Check runs against an SLO; exit 0 when every level checked meets it, 1 when one does not.",
        "Each level's figure is the median over its repeats (as in level_summary). A missed TTFT "
            + "target is explained by the queue/prefill split (ttft_breakdown), a missed ITL/TPOT "
            + "target by the stall verdict (stall_summary); the highest concurrency that meets the "
            + "SLO is recommended. Latency terms: <metric>_<stat><op><bound>, with metric ttft, "
            + "queue, prefill, pre_queue, decode, itl, tpot or e2e, stat mean, max or p1..p99, bound "
            + "in ms, s or us; throughput>=N tok/s or req/s."},
    footer = {"", "Examples:",
        "  tokentime check --db sweep.duckdb --slo \"ttft_p95<=1s,itl_p95<=80ms,throughput>=500tok/s\"",
        "  tokentime check --db ci.duckdb --slo \"e2e_p99<=20s\" --run nightly && echo ok",
        "  tokentime check --db sweep.duckdb --slo \"ttft_p95<=1s\" --format json"})
final class CheckCommand extends BaseCommand {
  @Mixin
  DbOption db;

  @Mixin
  FormatOption format;

  @Mixin
  AnalysisOptions analysis;

  @Option(names = "--slo", required = true, paramLabel = "TERMS",
      description = "Comma-separated objectives, e.g. \"ttft_p95<=1s,itl_p95<=80ms,throughput>=500tok/s\".")
  String slo;

  @Option(names = "--run", paramLabel = "NAME", description = "Only this run (repeatable).")
  List<String> runs;

  static final ObjectMapper JSON = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .enable(SerializationFeature.INDENT_OUTPUT);

  @Override
  protected int run() throws Exception {
    SloSpec spec = SloSpec.parse(slo);
    var window = analysis.window();
    SloReport report;
    try (Database d = Databases.forReading(db.resolve())) {
      window.apply(d.connection());
      report = new SloCheck().check(d, spec, runs == null ? List.of() : new LinkedHashSet<>(runs));
    }
    if (report.levels().isEmpty()) {
      err().println("tokentime: no run to check" + (runs == null ? "" : " named " + String.join(", ", runs)));
      return ExitCode.BAD_INPUT;
    }
    OutputFormat f = format.get();
    if (f == OutputFormat.JSON) {
      out().println(JSON.writeValueAsString(report));
    } else {
      out().print(render(report, f));
    }
    return report.allMet() ? ExitCode.OK : ExitCode.CHECK_FAILED;
  }

  static String render(SloReport r, OutputFormat f) {
    StringBuilder sb = new StringBuilder();
    sb.append("SLO: ").append(r.slo()).append('\n');
    List<String> cols = new ArrayList<>(List.of("level", "verdict"));
    SloReport.Level first = r.levels().get(0);
    first.terms().forEach(t -> cols.add(t.term()));
    cols.add("attainment");
    List<Object[]> rows = new ArrayList<>();
    for (SloReport.Level l : r.levels()) {
      List<Object> row = new ArrayList<>(List.of(l.label(), l.met() ? "met" : "MISSED"));
      for (SloReport.TermResult t : l.terms()) {
        row.add(t.value() == null ? "n/a" : String.format(Locale.ROOT, "%.1f %s", t.value(), t.met() ? "ok" : "MISSED"));
      }
      row.add(l.attainment() == null ? "" : dev.tokentime.output.Values.percent(l.attainment()));
      rows.add(row.toArray());
    }
    List<Boolean> numeric = cols.stream().map(c -> false).toList();
    TableData t = new TableData(cols, numeric, rows, false);
    sb.append(f == OutputFormat.MARKDOWN ? TableRenderer.markdown(t) : f == OutputFormat.CSV
        ? TableRenderer.render(t, OutputFormat.CSV, Integer.MAX_VALUE) : TableRenderer.text(t, Terminal.width()));
    for (SloReport.Level l : r.levels()) {
      for (String d : l.diagnoses()) {
        sb.append("- ").append(d).append('\n');
      }
    }
    if (r.recommendation() != null) {
      sb.append("recommendation: ").append(r.recommendation()).append('\n');
    }
    sb.append(r.allMet() ? "verdict: every level checked meets the SLO\n" : "verdict: the SLO is missed\n");
    return sb.toString();
  }
}
