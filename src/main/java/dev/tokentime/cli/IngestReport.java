package dev.tokentime.cli;

import dev.tokentime.app.DatabaseAccess;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.app.IngestService;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.output.Terminal;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Prints what an ingest did, one line per file, as files finish. */
final class IngestReport implements IngestService.Listener {
  private final PrintWriter out;
  private final PrintWriter progress;
  /** The database as the hint after rejects names it ("--db x.duckdb "), or "" when unknown. */
  private String dbOption = "";
  /** Runs named after an ingest; more are elided in the middle. */
  static final int MAX_RUNS_NAMED = 40;
  private int progressWidth;
  private final java.util.Map<String, Eta> etas = new java.util.HashMap<>();

  /**
   * @param out where the per-file lines go
   * @param progress where the live progress line goes (a terminal), or null for none
   */
  IngestReport(PrintWriter out, PrintWriter progress) {
    this.out = out;
    this.progress = progress;
  }

  /**
   * Ingests with this report: per-file lines to {@code out}, the progress line to {@code err}
   * when it is a terminal.
   */
  static DatabaseAccess.Work<IngestResult> ingest(IngestOptions o, PrintWriter out, PrintWriter err) {
    return d -> {
      // the per-file lines quote paths, ids and reasons from the input: escaped, carriage returns too (Terminal.printableLines)
      IngestReport report = new IngestReport(Terminal.printableLines(out), progressTarget(err));
      report.dbOption = d.path() == null ? "" : "--db " + shellWord(d.path().toString()) + " ";
      IngestResult r = new IngestService(FormatRegistry.standard()).ingest(d, o, report);
      report.finish(r);
      return r;
    };
  }

  /** Progress goes to stderr only when it is a terminal (never into a log or a pipe). */
  static PrintWriter progressTarget(PrintWriter err) {
    return Terminal.isTerminal(2) ? err : null;
  }

  @Override
  public synchronized void progress(IngestService.Progress p) {
    if (progress == null) {
      return;
    }
    double eta = etas.computeIfAbsent(p.path(), k -> new Eta()).next(p.etaSeconds(), p.seconds());
    String line = String.format(Locale.ROOT, "%s  %s / %s (%d%%)  %,.0f lines/s  ETA %s",
        p.path(), mb(p.bytesRead()), mb(p.bytesTotal()),
        p.bytesTotal() > 0 ? Math.min(100, 100 * p.bytesRead() / p.bytesTotal()) : 0,
        p.linesPerSecond(), eta < 0 ? "?" : String.format(Locale.ROOT, "%.0f s", eta));
    progress.print("\r" + line + " ".repeat(Math.max(0, progressWidth - line.length())));
    progress.flush();
    progressWidth = line.length();
  }

  private synchronized void clearProgress() {
    if (progress != null && progressWidth > 0) {
      progress.print("\r" + " ".repeat(progressWidth) + "\r");
      progress.flush();
      progressWidth = 0;
    }
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }

  @Override
  public void note(String message) {
    clearProgress();
    out.println(message);
    out.flush();
  }

  /**
   * Another format read among the file's lines, for its report line beside the file's format
   * (", genai-perf-console inside: 8 records"): the counts after it stay the file's, all of them.
   */
  static String embedded(String format, long records, long rejected) {
    return String.format(java.util.Locale.ROOT, ", %s inside: %,d record%s%s", format, records, records == 1 ? "" : "s",
        rejected == 0 ? "" : String.format(java.util.Locale.ROOT, ", %,d rejected", rejected));
  }

  @Override
  public void fileDone(IngestResult.FileResult r) {
    clearProgress();
    if (!r.ingested() && r.outcome().startsWith("already")) {
      out.println("unchanged " + r.path() + ": " + r.outcome());
      out.flush();
      return;
    }
    if (r.refused()) {
      out.println("refused " + r.path() + " (" + r.format() + "): "
          + r.outcome().substring(IngestResult.REFUSED.length()) + "; nothing of it was stored");
      out.flush();
      return;
    }
    out.printf("%s %s (%s%s%s): %,d lines = %,d records + %,d other + %,d rejected; %,d requests, %,d tokens%n",
        r.ingested() ? "ingested" : r.outcome(), r.path(), r.format(),
        r.compression().equals("none") ? "" : ", " + r.compression(),
        r.embedded() == null ? "" : embedded(r.embedded().format(), r.embedded().records(), r.embedded().rejected()),
        r.lines(), r.records(),
        r.otherLines(), r.rejected(), r.requests(), r.tokens());
    if (r.damage() != null) {
      out.println("  warning: " + r.damage() + "; the lines before it were read");
    }
    if (r.ingested() && r.records() == 0 && r.rejected() == 0 && r.otherLines() > 0) {
      // recognised, yet no line of it was one of the format's records: a shape this version does
      // not read is as likely as a file with nothing timed in it
      out.println("  note: nothing of it was read: every line is an other line of " + r.format()
          + " (a shape this version does not read, or nothing timed in it); tokentime ingest --explain "
          + shellWord(r.path()) + " shows them");
    }
    for (String note : r.notes()) {
      out.println("  note: " + note);
    }
    if (!r.grewFrom().isEmpty()) {
      out.println("  note: this file grew since it was read as source "
          + r.grewFrom().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
          + ", whose content is its beginning: that reading is replaced by this one (nothing counted twice)");
    }
    if (r.nearMisses() != null) {
      // other lines, yet not to be passed over: a line cut in the middle of a file (a paste, a
      // terminal's hard wrap) or a shape of a newer version looks like this
      var n = r.nearMisses();
      String explain = "tokentime ingest --explain " + shellWord(r.path());
      out.println(n.lines() == 1
          ? "  note: line " + n.firstLine() + " looks like " + dev.tokentime.formats.spec.LineSpec.aKind(n.firstKind()) + " line but does not match its pattern"
              + " (cut short, or a shape this version does not read); counted as other: " + explain + " shows it"
          : String.format(Locale.ROOT, "  note: %,d other lines look like known kinds of line but do not match their"
              + " patterns (the first, line %d, %s line): cut short, or shapes this version does not read; %s shows them",
              n.lines(), n.firstLine(), dev.tokentime.formats.spec.LineSpec.aKind(n.firstKind()), explain));
    }
    if (r.rejected() > 0) {
      for (var j : r.firstRejects().subList(0, Math.min(3, r.firstRejects().size()))) {
        out.println("  rejected line " + j.lineNo() + ": " + j.reason());
      }
      if (r.sourceId() != null) {
        out.println("  (all of them: tokentime query " + dbOption + "\"SELECT * FROM rejects WHERE source_id = "
            + r.sourceId() + "\")");
      }
    }
    out.flush();
  }

  void finish(IngestResult result) {
    boolean told = skipped(result, IngestResult.Skipped.UNRECOGNISED, "format not recognised; name one with --from");
    skipped(result, IngestResult.Skipped.EMPTY, "empty");
    skipped(result, IngestResult.Skipped.SAME_AS, "the same content as a file before it, read once");
    skipped(result, IngestResult.Skipped.UNREADABLE, "not readable");
    skipped(result, IngestResult.Skipped.LEFT_OUT, "left out, each for the reason given; ingest one alone to read it");
    if (told) {
      // names said which files were not recognised; what one holds, and why no format claims it, was left to guess
      out.println("  (why a file was not read: tokentime ingest --explain FILE; the folder instead of FILE: each of them)");
    }
    for (IngestResult.FailedCheck c : result.failedChecks()) {
      out.println("warning: " + c.violations() + " violation" + (c.violations() == 1 ? "" : "s")
          + " of \"" + c.invariant() + "\" (SELECT * FROM " + c.view() + ")");
    }
    if (!result.runs().isEmpty()) {
      List<String> runs = result.runs().stream().sorted(dev.tokentime.output.Values.NATURAL).toList();
      // a file of a thousand runs would print a thousand names: the first and last few, and where the rest are
      String names = runs.size() <= MAX_RUNS_NAMED ? String.join(", ", runs)
          : String.join(", ", runs.subList(0, MAX_RUNS_NAMED - 5)) + ", … (" + (runs.size() - MAX_RUNS_NAMED + 2)
              + " more: tokentime summary " + dbOption.strip() + " lists every run), "
              + String.join(", ", runs.subList(runs.size() - 3, runs.size()));
      out.println("derived " + runs.size() + " run" + (runs.size() == 1 ? "" : "s") + ": " + names);
    }
    out.flush();
  }

  /** A path as one shell word: as it is when it needs no quoting, else in single quotes. */
  static String shellWord(String s) {
    return s.matches("[\\w./:@%+=,-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }

  /** Files named per reason on the "skipped" lines; the rest are counted ("… and 12 more"). */
  static final int MAX_SKIPPED_NAMED = 10;

  /**
   * One line for the files skipped for one reason (those whose reason starts with {@code reason}),
   * each with what its reason adds (what an unrecognised file looks like, the file it copies, why
   * it was left out); true when there were any.
   */
  private boolean skipped(IngestResult result, String reason, String why) {
    List<IngestResult.Skipped> these = result.skipped().stream().filter(s -> s.reason().startsWith(reason)).toList();
    if (these.isEmpty()) {
      return false;
    }
    // a folder of 300 notes listed every name on one line
    String names = these.stream().limit(MAX_SKIPPED_NAMED).map(s -> {
      String more = s.reason().substring(reason.length()).replaceFirst("^: ", "");
      boolean own = reason.equals(IngestResult.Skipped.LEFT_OUT) || reason.equals(IngestResult.Skipped.UNRECOGNISED);
      return s.path() + (own ? more.isEmpty() ? "" : " (" + more + ")" : reason.equals(IngestResult.Skipped.EMPTY) ? ""
          : " (" + s.reason() + ")");
    }).collect(Collectors.joining(", "));
    out.println("skipped " + these.size() + " file" + (these.size() == 1 ? "" : "s") + " (" + why + "): " + names
        + (these.size() > MAX_SKIPPED_NAMED ? ", … and " + (these.size() - MAX_SKIPPED_NAMED) + " more" : ""));
    return true;
  }

  /**
   * Fails an ingest that found files and read none of them (a folder of notes, pages or
   * spreadsheets): it was exit 0 with an empty database, and a script went on to summarise nothing.
   */
  static void requireSomethingRead(IngestResult r) {
    if (r.files().isEmpty() && !r.skipped().isEmpty()) {
      int n = r.skipped().size();
      throw new dev.tokentime.BadInputException("nothing was ingested: " + (n == 1 ? "the one file found was not"
          : "none of the " + n + " files found was") + " read (\"skipped\" above says why); tokentime formats lists"
          + " the formats read, and --from FORMAT reads a file as one");
    }
  }

  /** The --strict failure: what was wrong, in a few lines. */
  static String strictMessage(IngestResult result) {
    IngestResult.FileResult bad = result.files().get(result.files().size() - 1);
    StringBuilder sb = new StringBuilder("--strict: ").append(bad.rejected()).append(" rejected line")
        .append(bad.rejected() == 1 ? "" : "s").append(" in ").append(bad.path())
        .append("; nothing of that file was stored");
    for (var j : bad.firstRejects()) {
      sb.append("\n  line ").append(j.lineNo()).append(": ").append(j.reason());
    }
    return sb.toString();
  }
}
