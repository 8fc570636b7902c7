package dev.tokentime.cli;

import dev.tokentime.report.ReportFiles;
import dev.tokentime.report.ReportWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** -o, --format and --charts of a report. */
final class ReportOptions {
  @Option(names = {"-o", "--output"}, paramLabel = "PATH",
      description = "A file (.html or .md), a directory (report.html or report.md in it), or - for stdout. "
          + "Default: reports/out/.")
  Path output;

  @Option(names = "--format", paramLabel = "FMT", defaultValue = "html",
      description = "html (default: self-contained, charts inlined) or markdown (tables and findings).")
  String format;

  @Option(names = "--charts", paramLabel = "KIND", defaultValue = "none",
      description = "With --format markdown: svg writes the charts as SVG files in <name>-charts/ beside the "
          + "Markdown and links them; none (default) writes none.")
  String charts;

  ReportFiles.Settings settings() {
    return new ReportFiles.Settings(output, ReportWriter.format(format), ReportFiles.charts(charts));
  }
}
