package dev.tokentime.formats.console;

import dev.tokentime.formats.spec.WrapperLayer;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.Sample;
import java.util.regex.Pattern;

/**
 * A tool's report printed to its console, read from a file of it: each file is a run of its own
 * (a sweep's logs side by side), its lines may stand after anything (a run's own log before them,
 * notes around them in a document), and the file is claimed when a pattern of the report's own
 * lines is found in its first lines with their wrappers peeled (docker, kubectl, a CI runner).
 */
abstract class PrintedReportFormat extends NamedFormat {
  private final Pattern sniff;
  private final int score;

  /**
   * @param sniff a pattern only the tool's report has
   * @param score how sure a match makes the format: below a server log's own format (60) where the
   *     report's lines are read inside that log too (embeddedReader), above it (70) where never
   */
  PrintedReportFormat(String id, String fills, String description, Pattern sniff, int score) {
    super(id, fills, description);
    this.sniff = sniff;
    this.score = score;
  }

  @Override
  public final boolean runPerFile() {
    return true;
  }

  @Override
  public final boolean readsFromAnywhere() {
    return true;
  }

  @Override
  public final boolean printedReport() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    return sniff.matcher(WrapperLayer.peelLines(sample)).find() ? score : 0;
  }
}
