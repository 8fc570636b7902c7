package dev.tokentime.cli;

import dev.tokentime.Timing;
import dev.tokentime.app.DatabaseAccess;
import dev.tokentime.app.ExplainService;
import dev.tokentime.app.IngestResult;
import dev.tokentime.ingest.FormatRegistry;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
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
        "  tokentime ingest --db run.duckdb --strict results/*.jsonl",
        "  tokentime ingest --explain vllm-server.log        # what each line kind matched; stores nothing"})
final class IngestCommand extends BaseCommand {
  @Mixin
  DbOption db;

  @Mixin
  InputOptions input;

  @Parameters(arity = "1..*", paramLabel = "INPUT",
      description = "Files, directories (read recursively; expected/ folders skipped, and documents and scripts"
          + " found there: README.md, *.py; a file named is always read), globs, or - for stdin.")
  List<String> inputs;

  @Option(names = "--explain",
      description = "Store nothing: for each file in a spec-driven format (vllm-log, …) print per line kind how "
          + "many lines matched, the near misses and the first lines no kind claims, to see what a new "
          + "version of the log changed; for a file no format claims, why it is not read.")
  boolean explain;

  @Override
  protected int run() throws Exception {
    if (explain) {
      for (ExplainService.Result r : new ExplainService(FormatRegistry.standard()).explain(input.toOptions(inputs))) {
        ExplainReport.print(r, out());
      }
      return ExitCode.OK;
    }
    var options = input.toOptions(inputs);
    var ingest = IngestReport.ingest(options, out(), err());
    long[] t = {System.nanoTime()};
    IngestResult r = DatabaseAccess.write(db.resolve(), d -> {
      Timing.since("open database", t[0]);
      IngestResult result = ingest.apply(d);
      IngestReport.requireSomethingRead(result);
      t[0] = System.nanoTime();
      return result;
    }, IngestResult::failed);
    Timing.since("close (checkpoint)", t[0]);
    if (r.strictFailure()) {
      err().println("tokentime: " + IngestReport.strictMessage(r));
      return ExitCode.BAD_INPUT;
    }
    if (r.refusedFiles() > 0) { // reported per file above; the others were stored
      err().println("tokentime: " + r.refusedFiles() + " file" + (r.refusedFiles() == 1 ? " was" : "s were")
          + " refused (see above); nothing of " + (r.refusedFiles() == 1 ? "it" : "them") + " was stored");
      return ExitCode.BAD_INPUT;
    }
    return ExitCode.OK;
  }
}
