package dev.tokentime.cli;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.output.Terminal;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "formats",
    description = {"List the input formats tokentime reads, with the tables each fills.",
        "Files are sniffed for their format; --from FORMAT overrides. Field lists: docs/formats.md."},
    footer = {"", "Examples:",
        "  tokentime formats",
        "  tokentime formats --format markdown > formats.md",
        "  tokentime ingest --db run.duckdb --from vllm-log server.txt   # a file its head does not tell"})
final class FormatsCommand extends BaseCommand {
  @Mixin
  FormatOption format;

  @Override
  protected int run() {
    List<Object[]> rows = new ArrayList<>();
    for (InputFormat f : FormatRegistry.standard().all()) {
      rows.add(new Object[] {f.id(), f.fills(), f.description()});
    }
    TableData t = new TableData(List.of("format", "fills", "description"), List.of(false, false, false), rows, false);
    TableRenderer.write(t, format.get(), Terminal.width(), out());
    return ExitCode.OK;
  }
}
