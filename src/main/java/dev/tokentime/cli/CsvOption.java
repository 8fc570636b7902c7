package dev.tokentime.cli;

import picocli.CommandLine.Option;

/** --csv-raw, shared by the commands that write CSV a user may open in a spreadsheet. */
final class CsvOption {
  @Option(names = "--csv-raw",
      description = "CSV: write text cells as they are. By default a text cell starting with =, +, -, @, a tab "
          + "or a carriage return gets a leading ' so that a spreadsheet shows it instead of running it as a "
          + "formula (text from logs may be =HYPERLINK(...)); numbers are never changed.")
  boolean raw;
}
