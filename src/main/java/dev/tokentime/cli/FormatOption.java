package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.output.OutputFormat;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** --format for commands that print tables. */
final class FormatOption {
  @Option(names = "--format", paramLabel = "FMT", defaultValue = "text",
      description = "Output format: text (aligned, fitted to the terminal), csv, json, markdown."
          + " Default: ${DEFAULT-VALUE}.")
  String format;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  OutputFormat get() {
    if (format.equalsIgnoreCase("parquet") || format.equalsIgnoreCase("arrow")) {
      // binary formats are files of rows, not printed reports: say where they are made
      throw new BadInputException(command.name() + " prints text, csv, json or markdown; "
          + format.toLowerCase(java.util.Locale.ROOT) + " files come from tokentime export NAME|SQL --format "
          + format.toLowerCase(java.util.Locale.ROOT) + " -o FILE (and query --format arrow streams Arrow to standard output)");
    }
    return OutputFormat.parse(format);
  }
}
