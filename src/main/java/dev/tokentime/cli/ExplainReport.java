package dev.tokentime.cli;

import dev.tokentime.app.ExplainService;
import dev.tokentime.formats.spec.ExplainStats;
import java.io.PrintWriter;
import java.util.Locale;

/** Prints what `ingest --explain` found, file by file. */
final class ExplainReport {
  private ExplainReport() {}

  static void print(ExplainService.Result r, PrintWriter out) {
    ExplainStats s = r.stats();
    if (s == null) {
      // a file of a known format says which: "left out: …" names what it is and what to read instead
      out.println(r.path() + (r.format() == null ? ": not read: " : " (" + r.format() + "): ") + r.note());
      out.flush();
      return;
    }
    out.printf(Locale.ROOT, "%s (%s%s): %,d lines = %,d records + %,d other + %,d rejected%n", r.path(),
        r.format(), s.embeddedFormat == null ? "" : IngestReport.embedded(s.embeddedFormat, s.embeddedRecords, s.embeddedRejected),
        s.lines, r.records(), s.other, s.rejected);
    out.printf("  %-16s %-14s %10s %12s%n", "line kind", "table", "matched", "near misses");
    for (ExplainStats.KindCount k : s.kinds()) {
      out.printf(Locale.ROOT, "  %-16s %-14s %,10d %,12d%n", k.kind, k.table, k.matched, k.nearMisses);
    }
    for (ExplainStats.KindCount k : s.kinds()) {
      if (!k.nearMissExamples.isEmpty()) {
        out.println("  near misses of " + k.kind + " (the line kind's hint matches, its pattern does not):");
        k.nearMissExamples.forEach(e -> out.println("    " + e));
      }
    }
    if (!s.unmatchedExamples.isEmpty()) {
      out.printf(Locale.ROOT, "  %,d log lines no kind claims (counted as other); the first:%n", s.unmatchedLogLines);
      s.unmatchedExamples.forEach(e -> out.println("    " + e));
    }
    if (s.unknownWrapperLines > 0) {
      out.printf(Locale.ROOT, "  %,d lines read behind a wrapper no prefix knows (the text before the line's"
          + " own start was peeled); the first:%n", s.unknownWrapperLines);
      s.unknownWrapperExamples.forEach(e -> out.println("    " + e));
    }
    if (!s.rejectExamples.isEmpty()) {
      out.println("  rejected:");
      s.rejectExamples.forEach(e -> out.println("    " + e));
    }
    out.flush();
  }
}
