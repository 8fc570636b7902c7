package dev.tokentime.report;

import dev.tokentime.analysis.CompareReport;
import dev.tokentime.report.ChartSpec.Axis;
import dev.tokentime.report.ChartSpec.Kind;
import dev.tokentime.report.ChartSpec.Point;
import dev.tokentime.report.ChartSpec.Series;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** A comparison of two sides as sentences, a table and a chart of the changes (report --compare). */
final class CompareFindings {
  private CompareFindings() {}

  /** The changes beyond noise, largest first, and what is within noise. */
  static List<String> of(CompareReport c) {
    List<String> out = new ArrayList<>();
    out.add("Compared: B = " + c.b() + " (" + String.join(", ", c.runsB()) + ") against A = " + c.a() + " ("
        + String.join(", ", c.runsA()) + ").");
    List<CompareReport.Row> beyond = new ArrayList<>(c.rows().stream()
        .filter(r -> r.verdict().equals("better") || r.verdict().equals("worse") || r.verdict().equals("different"))
        .filter(r -> r.changePct() != null).toList());
    beyond.sort(Comparator.comparingDouble((CompareReport.Row r) -> -Math.abs(r.changePct())));
    for (CompareReport.Row r : beyond.subList(0, Math.min(6, beyond.size()))) {
      out.add(name(r) + ": " + value(r, r.a()) + " → " + value(r, r.b()) + " ("
          + String.format(java.util.Locale.ROOT, "%+.1f %%", r.changePct()) + "), " + r.verdict()
          + (r.ciLow() == null ? "" : ", the 95 % interval of B − A is [" + Fmt.num(r.ciLow()) + ", " + Fmt.num(r.ciHigh()) + "]")
          + ".");
    }
    long noise = c.rows().stream().filter(r -> r.verdict().equals("within noise")).count();
    if (beyond.isEmpty()) {
      out.add("No figure changed beyond noise (" + noise + " within noise).");
    } else if (noise > 0) {
      out.add(noise + " more figures changed within noise.");
    }
    return out;
  }

  static String name(CompareReport.Row r) {
    String m = r.metric().replace("_ms", "").replace("_per_s", "/s").replace('_', ' ');
    m = switch (m) {
      case "ttft" -> "TTFT";
      case "itl" -> "ITL";
      case "tpot" -> "TPOT";
      case "e2e" -> "E2E";
      default -> m;
    };
    return r.stat().equals("value") ? m : m + " " + r.stat();
  }

  private static String value(CompareReport.Row r, Double v) {
    return r.unit().equals("ms") ? Fmt.ms(v) : Fmt.num(v) + " " + r.unit();
  }

  /** The compare rows as a Tablesaw table and a view of it. */
  static TableView table(CompareReport c) {
    Table t = Table.create("compare",
        StringColumn.create("figure", c.rows().stream().map(CompareFindings::name).toList()),
        StringColumn.create("unit", c.rows().stream().map(CompareReport.Row::unit).toList()),
        DoubleColumn.create("a", c.rows().stream().mapToDouble(r -> nan(r.a())).toArray()),
        DoubleColumn.create("b", c.rows().stream().mapToDouble(r -> nan(r.b())).toArray()),
        DoubleColumn.create("change", c.rows().stream().mapToDouble(r -> nan(r.change())).toArray()),
        DoubleColumn.create("change_pct", c.rows().stream().mapToDouble(r -> nan(r.changePct())).toArray()),
        StringColumn.create("interval", c.rows().stream().map(r -> r.ciLow() == null ? ""
            : "[" + Fmt.num(r.ciLow()) + ", " + Fmt.num(r.ciHigh()) + "]").toList()),
        StringColumn.create("verdict", c.rows().stream().map(CompareReport.Row::verdict).toList()));
    return TableView.of("compare", "B compared with A", "A = " + c.a() + " (" + String.join(", ", c.runsA()) + "), B = "
        + c.b() + " (" + String.join(", ", c.runsB()) + "). Latencies: the 95 % bootstrap interval of B − A ("
        + c.resamples() + " resamples of the requests, chunk gaps for ITL) decides; throughputs: the repeats' ranges.",
        t, List.of(TableView.text("figure", "figure"), TableView.text("unit", "unit"), TableView.num("A", "a"),
            TableView.num("B", "b"), TableView.num("B − A", "change"),
            TableView.of("change", true, r -> r.isMissing("change_pct") ? ""
                : String.format(java.util.Locale.ROOT, "%+.1f %%", r.getDouble("change_pct"))),
            TableView.text("95 % interval of B − A", "interval"), TableView.text("verdict", "verdict")));
  }

  /** The change of every figure in percent, with its verdict in the hover. */
  static ChartSpec chart(CompareReport c) {
    List<String> cats = new ArrayList<>();
    List<Point> pts = new ArrayList<>();
    for (CompareReport.Row r : c.rows()) {
      if (r.changePct() == null) {
        continue;
      }
      pts.add(new Point(cats.size(), r.changePct(), r.verdict()));
      cats.add(name(r));
    }
    return new ChartSpec("compare-change", "Change of each figure, B against A",
        "Negative is lower in B: better for latencies, worse for throughputs. The hover names the verdict.",
        Axis.categories("figure", cats), Axis.value("change B vs A", "%"), null,
        List.of(new Series("change", Kind.BAR, null, false, pts)), List.of());
  }

  private static double nan(Double v) {
    return v == null ? Double.NaN : v;
  }
}
