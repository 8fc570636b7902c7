package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.app.QueryService;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.Terminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "query",
    description = {"Run a view, a .sql file or inline SQL against a database.",
        "Views and their columns are documented in the database itself "
            + "(SELECT * FROM duckdb_columns() WHERE comment IS NOT NULL) and in queries/."},
    footer = {"", "Examples:",
        "  tokentime query --db run.duckdb request_latency",
        "  tokentime query --db run.duckdb level_summary --format markdown",
        "  tokentime query --db run.duckdb my_question.sql --format csv > out.csv",
        "  tokentime query --db run.duckdb token_gaps --format arrow | python -c \"import sys, pyarrow as pa; "
            + "print(pa.ipc.open_stream(sys.stdin.buffer).read_all())\"",
        "  tokentime query --db run.duckdb \"SELECT run, quantile_cont(gap_ms, 0.99) FROM token_gaps GROUP BY run\""})
final class QueryCommand extends BaseCommand {
  @Mixin
  ReadAccess access;

  // text, csv, json, markdown; and arrow: an Arrow IPC stream on standard output
  @Mixin
  FormatOption format;

  @Option(names = "--max-rows", paramLabel = "N",
      description = "Rows shown in text and Markdown output (default 100; 0 = all). CSV and JSON write every row.")
  Long maxRows;

  @Parameters(index = "0", paramLabel = "QUERY",
      description = "A table or view name, a path to a .sql file, or SQL text.")
  String query;

  @Override
  protected int run() throws Exception {
    String sql = QueryService.toSql(query);
    if (format.format.equalsIgnoreCase("arrow")) {
      return arrow(sql);
    }
    if (format.format.equalsIgnoreCase("parquet")) {
      throw new BadInputException("Parquet is written to a file: tokentime export QUERY --format parquet -o FILE");
    }
    OutputFormat f = format.get();
    long rows = maxRows == null ? 100 : maxRows;
    return access.read(d -> {
      new QueryService().print(d, sql, f, rows, Terminal.width(), out());
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
