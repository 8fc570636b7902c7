package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.app.QueryService;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.output.Terminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "query",
    description = {"Run a view, a .sql file or inline SQL against a database; without one, list the views.",
        "Views and their columns are documented in the database itself (tt_objects: one row per "
            + "table, view and macro; tt_docs: one row per column, with its unit) and in queries/."},
    footer = {"", "Examples:",
        "  tokentime query --db run.duckdb                    # the views and table macros, one line each",
        "  tokentime query --db run.duckdb request_latency",
        "  tokentime query --db run.duckdb level_summary --format markdown",
        "  tokentime query --db run.duckdb my_question.sql --format csv > out.csv",
        "  tokentime query --db run.duckdb token_gaps --format arrow | python -c \"import sys, pyarrow as pa; "
            + "print(pa.ipc.open_stream(sys.stdin.buffer).read_all())\"",
        "  tokentime query --db run.duckdb \"SELECT run, quantile_cont(gap_ms, 0.99) FROM token_gaps GROUP BY run\""})
final class QueryCommand extends BaseCommand {
  @Mixin
  ReadAccess access;
  @Mixin
  CsvOption csv;

  @Option(names = "--format", paramLabel = "FMT", defaultValue = "text",
      description = "Output format: text (aligned, fitted to the terminal), csv, json, markdown, or arrow "
          + "(an Arrow IPC stream for pyarrow and polars, sent to a pipe or a file, never a terminal). "
          + "Default: ${DEFAULT-VALUE}.")
  String format;

  @Option(names = "--max-rows", paramLabel = "N", description = "Rows shown in text and Markdown output (default 100; 0 = all a table holds, 100,000). CSV and JSON write every row.")
  Long maxRows;

  @Parameters(index = "0", arity = "0..1", paramLabel = "QUERY",
      description = "A table or view name, a path to a .sql file, or SQL text. Without it, the views and "
          + "table macros are listed with what one row of each is.")
  String query;

  @Override
  protected int run() throws Exception {
    if (query == null) {
      OutputFormat f = OutputFormat.parse(format, ", arrow");
      var objects = access.read(d -> new QueryService().publicObjects(d));
      TableRenderer.write(objects, f, Terminal.width(), out());
      err().println("(columns and units: tokentime query \"SELECT * FROM tt_docs WHERE object_name = 'NAME'\"; "
          + "tables too: tt_objects)");
      return ExitCode.OK;
    }
    String sql = QueryService.toSql(query);
    if (format.equalsIgnoreCase("arrow")) {
      return arrow(sql);
    } else if (format.equalsIgnoreCase("parquet")) {
      throw new BadInputException("Parquet is written to a file: tokentime export QUERY --format parquet -o FILE");
    }
    OutputFormat f = OutputFormat.parse(format, ", arrow");
    long rows = maxRows == null ? 100 : maxRows;
    return access.read(d -> {
      new QueryService().print(d, sql, f, rows, Terminal.width(), out(), csv.raw);
      return ExitCode.OK;
    });
  }

  /**
   * An Arrow IPC stream on standard output, for pyarrow and polars: nothing else may reach
   * standard output, so the stream is written to the process's own stdout, never to a terminal.
   */
  private int arrow(String sql) throws Exception {
    if (Terminal.isTerminal(1)) {
      throw new BadInputException("--format arrow writes binary Arrow: send it to a program or a file "
          + "(... --format arrow | python read.py), or use tokentime export --format arrow -o FILE");
    }
    return access.read(d -> {
      out().flush();
      new QueryService().arrow(d, sql, System.out);
      return ExitCode.OK;
    });
  }
}
