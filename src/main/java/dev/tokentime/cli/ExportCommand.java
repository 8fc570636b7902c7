package dev.tokentime.cli;

import dev.tokentime.analysis.Conventions;
import dev.tokentime.app.QueryService;
import dev.tokentime.export.ExportFormat;
import dev.tokentime.export.ExportService;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "export",
    description = {"Write a table, a view or a query to a Parquet, Arrow IPC or CSV file, for "
        + "pandas, polars, pyarrow, Spark or a spreadsheet.",
        "Parquet and CSV are written by DuckDB's COPY; --partition-by writes one folder per value "
            + "(hive layout: run=c16/data_0.parquet). Arrow is the IPC file format (Feather v2): "
            + "pyarrow.feather.read_table, polars.read_ipc. The analysis window options apply to the views."},
    footer = {"", "Examples:",
        "  tokentime export --db run.duckdb request_latency -o latency.parquet",
        "  tokentime export --db run.duckdb token_gaps --format parquet --partition-by run -o gaps/",
        "  tokentime export --db run.duckdb \"SELECT * FROM token_gaps WHERE measured\" -o gaps.arrow",
        "  tokentime export --db run.duckdb my_question.sql --format csv -o answer.csv",
        "", "Standard output instead of a file: tokentime query ... --format arrow | python read.py"})
final class ExportCommand extends BaseCommand {
  @Mixin
  ReadAccess access;
  @Mixin
  CsvOption csv;

  @Parameters(index = "0", paramLabel = "NAME|SQL",
      description = "A table or view name, a path to a .sql file, or SQL text.")
  String query;

  @Option(names = {"-o", "--output"}, paramLabel = "PATH", required = true,
      description = "The file to write (replaced if it exists), or the directory to create with --partition-by.")
  Path output;

  @Option(names = "--format", paramLabel = "FMT",
      description = "parquet, arrow or csv (default: from the file's extension: .parquet, .arrow/.feather/.ipc, .csv).")
  String format;

  @Option(names = "--partition-by", paramLabel = "COLUMN", split = ",",
      description = "Split the rows into folders by these columns (e.g. run), hive style; Parquet and CSV only.")
  List<String> partitionBy;

  @Override
  protected int run() throws Exception {
    if (output.toString().equals("-")) {
      throw new dev.tokentime.BadInputException("export writes files; for standard output use tokentime query"
          + " --format csv, json or arrow (e.g. tokentime query --db run.duckdb --format arrow request_latency | python read.py)");
    }
    ExportFormat f = ExportTarget.format(format, output, partitionBy != null,
        "tokentime query --db " + access.path() + " " + IngestReport.shellWord(query) + " --format json > " + output);
    String sql = QueryService.toSql(query);
    List<String> by = partitionBy == null ? List.of() : partitionBy;
    ExportService.Result r = access.read(d -> {
      QueryService.requireObject(d, query);
      QueryService.refuseWrites(d, sql, "export", "");
      try (Conventions.Inputs inputs = Conventions.inputsFor(d, sql)) {
        return new ExportService().export(d, sql, f, output, by, csv.raw);
      }
    });
    out().println(r.rows() + (r.rows() == 1 ? " row" : " rows") + " written to " + r.path() + " (" + f.name().toLowerCase(Locale.ROOT)
        + (partitionBy == null ? "" : ", partitioned by " + String.join(", ", partitionBy)) + ")");
    return ExitCode.OK;
  }
}
