package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.export.ExportFormat;
import java.nio.file.Path;
import java.util.Locale;

/** The format an export writes: --format, else the output's extension. */
final class ExportTarget {
  private ExportTarget() {}

  /**
   * @param partitioned whether --partition-by was given (a folder: Parquet unless told)
   * @param queryJson the query command that writes the same rows as JSON, for a user who asked export for JSON
   */
  static ExportFormat format(String format, Path output, boolean partitioned, String queryJson) {
    if (format != null) {
      if (format.strip().toLowerCase(Locale.ROOT).matches("json|jsonl|ndjson")) {
        throw new BadInputException(json(queryJson));
      }
      return ExportFormat.parse(format);
    }
    String name = output.getFileName() == null ? "" : output.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".parquet")) {
      return ExportFormat.PARQUET;
    }
    if (name.endsWith(".arrow") || name.endsWith(".feather") || name.endsWith(".ipc")) {
      return ExportFormat.ARROW;
    }
    if (name.endsWith(".csv")) {
      return ExportFormat.CSV;
    }
    if (partitioned) {
      return ExportFormat.PARQUET;
    }
    if (name.matches(".*\\.(json|jsonl|ndjson)")) {
      throw new BadInputException(json(queryJson));
    }
    if (name.matches(".*\\.(xlsx|xls|ods)")) {
      // a spreadsheet was the aim: it opens the CSV
      throw new BadInputException("export writes parquet, arrow or csv, not a workbook: -o "
          + output.resolveSibling(output.getFileName().toString().replaceAll("\\.[^.]*$", ".csv"))
          + " opens in a spreadsheet");
    }
    throw new BadInputException("say --format parquet, arrow or csv (the name " + output + " does not tell)");
  }

  /** JSON rows are query's (streamed to standard output), which export did not say. */
  private static String json(String queryJson) {
    return "export writes parquet, arrow or csv; JSON rows come from query: " + queryJson;
  }
}
