package dev.tokentime.shell;

import dev.tokentime.output.OutputFormat;

/** What the dot-commands change: how results look and whether statements are timed. */
final class ShellSettings {
  /** Rows a text or Markdown table shows unless .maxrows says otherwise (CSV and JSON write all). */
  static final long DEFAULT_MAX_ROWS = 100;

  OutputFormat format = OutputFormat.TEXT;
  boolean timer;
  long maxRows = DEFAULT_MAX_ROWS;
}
