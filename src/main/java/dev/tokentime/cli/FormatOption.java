package dev.tokentime.cli;

import dev.tokentime.output.OutputFormat;
import picocli.CommandLine.Option;

/** --format for commands that print tables. */
final class FormatOption {
  @Option(names = "--format", paramLabel = "FMT", defaultValue = "text",
      description = "Output format: text (aligned, fitted to the terminal), csv, json, markdown."
          + " Default: ${DEFAULT-VALUE}.")
  String format;

  OutputFormat get() {
    return OutputFormat.parse(format);
  }
}
