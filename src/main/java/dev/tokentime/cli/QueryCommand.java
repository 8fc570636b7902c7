package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.export.ArrowIpc;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.ResultStreamer;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.output.Terminal;
import dev.tokentime.store.Database;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
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
  DbOption db;

  // text, csv, json, markdown; and arrow: an Arrow IPC stream on standard output
  @Mixin
  FormatOption format;

  @Mixin
  AnalysisOptions analysis;

  @Option(names = "--max-rows", paramLabel = "N",
      description = "Rows shown in text and Markdown output (default 100; 0 = all). CSV and JSON write every row.")
  Long maxRows;

  @Parameters(index = "0", paramLabel = "QUERY",
      description = "A table or view name, a path to a .sql file, or SQL text.")
  String query;

  @Override
  protected int run() throws Exception {
    String sql = toSql(query);
    if (format.format.equalsIgnoreCase("arrow")) {
      return arrow(sql);
    }
    if (format.format.equalsIgnoreCase("parquet")) {
      throw new BadInputException("Parquet is written to a file: tokentime export QUERY --format parquet -o FILE");
    }
    OutputFormat f = format.get();
    var window = analysis.window();
    try (Database d = Databases.forReading(db.resolve())) {
      window.apply(d.connection());
      return run(d, sql, f);
    }
  }

  private int run(Database d, String sql, OutputFormat f) throws Exception {
    d.streamResults(true); // a view of every chunk is 50 M rows at a day's traffic
    try (Statement st = d.connection().createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      switch (f) {
        case CSV -> ResultStreamer.csv(rs, out());
        case JSON -> ResultStreamer.json(rs, out());
        default -> {
          TableData t = TableData.read(rs, maxRows == null ? 100 : maxRows);
          out().print(f == OutputFormat.TEXT ? TableRenderer.text(t, Terminal.width())
              : TableRenderer.markdown(t));
        }
      }
      return ExitCode.OK;
    }
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
    var window = analysis.window();
    try (Database d = Databases.forReading(db.resolve())) {
      window.apply(d.connection());
      d.streamResults(true);
      try (Statement st = d.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
        out().flush();
        ArrowIpc.writeStream(rs, System.out);
        System.out.flush();
      }
      return ExitCode.OK;
    }
  }

  static String toSql(String q) throws java.io.IOException {
    String t = q.strip();
    if (t.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      return "SELECT * FROM " + t;
    }
    if (t.endsWith(".sql")) {
      Path p = Path.of(t);
      if (!Files.isRegularFile(p)) {
        throw new BadInputException("query file not found: " + t);
      }
      return Files.readString(p, StandardCharsets.UTF_8).strip().replaceAll(";\\s*$", "");
    }
    return t.replaceAll(";\\s*$", "");
  }
}
