package dev.tokentime.report;

import dev.tokentime.BadInputException;
import dev.tokentime.analysis.SloSpec;
import dev.tokentime.store.Database;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Gathers, renders and writes a report: what `tokentime report` and `analyze -o` do. */
public final class ReportFiles {
  private ReportFiles() {}

  public enum Charts { NONE, SVG }

  /** Where and how: output (null: reports/out/; "-": stdout), format, chart files for Markdown. */
  public record Settings(Path output, ReportWriter.Format format, Charts charts) {}

  /** What was written: files, or the text for stdout. */
  public record Written(List<Path> files, String stdout) {
    public void print(PrintWriter out, PrintWriter err) {
      if (stdout != null) {
        // run names and labels come from the input: no raw control characters onto a terminal
        out.print(dev.tokentime.output.Terminal.printableLines(stdout));
        return;
      }
      err.println("wrote " + files.get(0) + (files.size() > 1 ? " and " + (files.size() - 1) + " chart files" : ""));
      out.println(files.get(0));
    }
  }

  /** For analyze -o PATH: Markdown when PATH ends in .md, else HTML; no chart files. */
  public static Settings forPath(Path output) {
    String n = output.getFileName() == null ? "" : output.getFileName().toString().toLowerCase(Locale.ROOT);
    boolean md = n.endsWith(".md") || n.endsWith(".markdown");
    return new Settings(output, md ? ReportWriter.Format.MARKDOWN : ReportWriter.Format.HTML, Charts.NONE);
  }

  public static Charts charts(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "none" -> Charts.NONE;
      case "svg" -> Charts.SVG;
      default -> throw new BadInputException("unknown --charts " + s + " (none, svg)");
    };
  }

  public static Written report(Database db, Set<String> runs, SloSpec slo, String window, Path dbPath, Settings s)
      throws SQLException, IOException {
    ReportData d = new ReportService().gather(db, new ReportService.Request(runs, slo, window, name(dbPath)));
    return write(d, "report", s);
  }

  public static Written compare(Database db, String a, String b, String window, Path dbPath, Settings s)
      throws SQLException, IOException {
    ReportData d = new ReportService().gatherCompare(db, a, b, new ReportService.Request(Set.of(), null, window, name(dbPath)));
    return write(d, "compare-" + ReportCharts.slug(a) + "-vs-" + ReportCharts.slug(b), s);
  }

  static Written write(ReportData d, String baseName, Settings s) throws IOException {
    boolean stdout = s.output() != null && s.output().toString().equals("-");
    if (s.charts() != Charts.NONE && (s.format() != ReportWriter.Format.MARKDOWN || stdout)) {
      throw new BadInputException("--charts svg needs --format markdown and a file or directory for -o "
          + "(the HTML report has its charts inside)");
    }
    if (s.format() == ReportWriter.Format.HTML) {
      String html = HtmlReport.render(d);
      if (stdout) {
        return new Written(List.of(), html);
      }
      return new Written(ReportWriter.write(ReportWriter.target(s.output(), s.format(), baseName), html, List.of()), null);
    }
    if (stdout) {
      return new Written(List.of(), MarkdownReport.render(d, null).markdown());
    }
    Path file = ReportWriter.target(s.output(), s.format(), baseName);
    MarkdownReport.Result r = MarkdownReport.render(d, s.charts() == Charts.SVG ? ReportWriter.chartsDir(file) : null);
    return new Written(ReportWriter.write(file, r.markdown(), r.charts()), null);
  }

  private static String name(Path db) {
    Path f = db.getFileName();
    return f == null ? db.toString() : f.toString();
  }
}
