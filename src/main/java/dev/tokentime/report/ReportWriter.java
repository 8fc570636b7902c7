package dev.tokentime.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a report goes: {@code -o} naming a file (.html, .md) writes that file; naming a
 * directory (or nothing: reports/out/) writes {@code <name>.html} or {@code <name>.md} in it.
 * SVG charts of a Markdown report go to a folder beside it, {@code <name>-charts/}, and the
 * Markdown links them by relative path.
 */
public final class ReportWriter {
  public static final Path DEFAULT_DIR = Path.of("reports", "out");

  public enum Format { HTML, MARKDOWN }

  public static Format format(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "html" -> Format.HTML;
      case "markdown", "md" -> Format.MARKDOWN;
      default -> throw new dev.tokentime.BadInputException("unknown report format " + s + " (html, markdown)");
    };
  }

  /** The file a report of this format and base name goes to. */
  public static Path target(Path output, Format f, String baseName) {
    String ext = f == Format.HTML ? ".html" : ".md";
    Path o = output == null ? DEFAULT_DIR : output;
    String name = o.getFileName() == null ? "" : o.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".html") || name.endsWith(".htm") || name.endsWith(".md") || name.endsWith(".markdown")) {
      return o;
    }
    // a usage error (exit 2): before, an existing file failed with an exception (exit 3) and a
    // new name such as report.txt became a directory
    if (Files.exists(o) && !Files.isDirectory(o)) {
      throw new dev.tokentime.BadInputException("-o " + o + " is a file that is not .html or .md; name a .html "
          + "or .md file, or a directory to write " + baseName + ext + " into");
    }
    // a new name that ends like a document or data file is a mistaken file name, not a folder;
    // other dotted names (out.v2, run-1.5) are folders as a user would expect
    if (!Files.exists(o) && name.matches(".*\\.(?:txt|text|pdf|png|jpe?g|gif|svg|json|jsonl|csv|tsv|xml|log|"
        + "rst|adoc|org|docx?|odt|rtf|xlsx?|pptx?|ipynb|duckdb|db|parquet|arrow|zip|gz|tar)")) {
      throw new dev.tokentime.BadInputException("-o " + o + ": a report is written to a .html or .md file, or "
          + "into a directory (" + baseName + ext + " in it); name one of those");
    }
    return o.resolve(baseName + ext);
  }

  /** Writes the file (parents created) and returns the paths written. */
  public static List<Path> write(Path file, String content, List<ChartSpec> svgCharts) throws IOException {
    List<Path> written = new ArrayList<>();
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Files.writeString(file, content, StandardCharsets.UTF_8);
    written.add(file);
    if (!svgCharts.isEmpty()) {
      Path dir = parent.resolve(chartsDir(file));
      Files.createDirectories(dir);
      for (ChartSpec c : svgCharts) {
        Path svg = dir.resolve(c.id() + ".svg");
        Files.writeString(svg, SvgChart.render(c), StandardCharsets.UTF_8);
        written.add(svg);
      }
    }
    return written;
  }

  /** The folder name for a report's chart files, relative to the report. */
  public static String chartsDir(Path file) {
    String n = file.getFileName().toString();
    int dot = n.lastIndexOf('.');
    return (dot > 0 ? n.substring(0, dot) : n) + "-charts";
  }
}
