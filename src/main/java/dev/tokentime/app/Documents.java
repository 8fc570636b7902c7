package dev.tokentime.app;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Documents and source files found in a folder (Markdown, reStructuredText, AsciiDoc; scripts and
 * programs): a results folder's README, a corpus' PROVENANCE.md, a post-mortem's notes, the launch
 * script and the parsing script kept beside the logs. They quote log lines in tables, prose, code
 * blocks and comments, and a server log's format would claim them by those quotes: a README's
 * quoted traceback would be a crash of the folder's run, its quoted request a request, a script's
 * commented example line a stats row. A tool's report pasted into a document
 * (a bench run's printed results kept as results.md) is still read, by the format of such
 * reports, whose records may stand anywhere among other lines
 * ({@link InputFormat#printedReport}). Named on the command line, a document is sniffed as any
 * file.
 */
final class Documents {
  private Documents() {}

  /** Why a document found in a folder is not read, for the ingest's list of skipped files. */
  static final String WHY = "a document or a script (Markdown, reStructuredText, AsciiDoc, source code): log lines"
      + " quoted in it are no log, and it holds no tool's printed report; name the file to read it as a log";

  /** Markup and source files by their names' endings. */
  private static final java.util.regex.Pattern NAMES = java.util.regex.Pattern.compile(
      ".*\\.(?:md|markdown|rst|adoc|py|ipynb|sh|bash|zsh|fish|ps1|bat|cmd|js|mjs|ts|go|rs|java|kt|scala|c|cc|cpp|h|hpp|rb|pl|lua)");

  /** Whether the file's name is a markup document's or a source file's (compressed too). */
  static boolean isDocument(Path path) {
    Path name = path.getFileName();
    if (name == null) {
      return false;
    }
    String n = name.toString().toLowerCase(Locale.ROOT).replaceFirst("\\.(?:gz|zst)$", "");
    return NAMES.matcher(n).matches();
  }

  /**
   * The format a document found in a folder is read as: the sniffed one, or the one --from names
   * ({@code named}), when it reads a tool's printed report; else, unless --from named one, a
   * printed report's format its lines hold ({@link OpenedInput#embeddedIn}); null to leave it out.
   */
  static InputFormat formatOf(InputFormat sniffed, boolean named, OpenedInput probe, FormatRegistry formats)
      throws IOException {
    if (sniffed.printedReport()) {
      return sniffed;
    }
    if (named) {
      return null;
    }
    InputFormat report = probe.embeddedIn(sniffed, formats);
    return report != null && report.printedReport() ? report : null;
  }
}
