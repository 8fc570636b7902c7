package dev.tokentime.cli;

import dev.tokentime.app.IngestResult;
import dev.tokentime.app.IngestService;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.store.Database;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "ingest",
    description = {"Read log files into a database.",
        "Each file is sniffed for its format (or read as --from says), parsed in its own "
            + "transaction, and every line is accounted for: lines = records + other lines + "
            + "rejected lines; rejected lines land in the rejects table with file, line and reason. "
            + "Then the touched runs are derived (token gaps, per-request aggregates)."},
    footer = {"", "Examples:",
        "  tokentime ingest --db run.duckdb logs/",
        "  tokentime ingest --db run.duckdb --run c16 requests.jsonl.gz tokens.jsonl.zst",
        "  zcat big.jsonl.gz | tokentime ingest --db run.duckdb --run c32 -",
        "  tokentime ingest --db run.duckdb --strict results/*.jsonl"})
final class IngestCommand extends BaseCommand {
  @Mixin
  DbOption db;

  @Mixin
  InputOptions input;

  @Parameters(arity = "1..*", paramLabel = "INPUT",
      description = "Files, directories (read recursively; expected/ folders skipped), globs, or - for stdin.")
  List<String> inputs;

  @Override
  protected int run() throws Exception {
    try (Database d = Databases.forWriting(db.resolve())) {
      IngestReport report = new IngestReport(out(), IngestReport.progressTarget(err()));
      IngestResult r = new IngestService(FormatRegistry.standard()).ingest(d, input.toOptions(inputs), report);
      report.finish(r);
      if (r.strictFailure()) {
        err().println("tokentime: " + IngestReport.strictMessage(r));
        return ExitCode.BAD_INPUT;
      }
      return ExitCode.OK;
    }
  }
}
