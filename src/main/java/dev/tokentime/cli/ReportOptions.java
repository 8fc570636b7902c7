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

  /**
   * Refuses an output path that cannot be written before any work is done (analyze printed its
   * whole summary and then failed as an internal error): the nearest existing folder on the way
   * must be a folder, and writable.
   */
  static void requireWritable(Path output) {
    if (output == null || output.toString().equals("-")) {
      return;
    }
    Path p = output.toAbsolutePath();
    if (java.nio.file.Files.isDirectory(p)) {
      p = p.resolve("report.html"); // written inside it
    }
    for (Path a = p.getParent(); a != null; a = a.getParent()) {
      if (java.nio.file.Files.exists(a)) {
        if (!java.nio.file.Files.isDirectory(a)) {
          throw new dev.tokentime.BadInputException("cannot write " + output + ": " + a + " is a file, not a directory");
        }
        if (!java.nio.file.Files.isWritable(a)) {
          throw new dev.tokentime.BadInputException("cannot write " + output + ": " + a + " is not writable");
        }
        return;
      }
    }
  }

  ReportFiles.Settings settings() {
    return new ReportFiles.Settings(output, ReportWriter.format(format), ReportFiles.charts(charts));
  }
}
