package dev.tokentime.formats.spec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a spec made of a file, for {@code ingest --explain}: per line kind how many lines matched
 * and how many only came close (their hint matched, their pattern did not) with the first of
 * them, the first log lines no kind claimed, and the first rejects.
 */
public final class ExplainStats {
  public static final int EXAMPLES = 3;

  /** Counts of one kind. */
  public static final class KindCount {
    public final String kind;
    public final String table;
    public long matched;
    public long nearMisses;
    public final List<String> nearMissExamples = new ArrayList<>();

    KindCount(String kind, String table) {
      this.kind = kind;
      this.table = table;
    }
  }

  private final Map<String, KindCount> kinds = new LinkedHashMap<>();
  public long lines;
  /** Records, other lines and rejects as the sink received them (CountingSink). */
  public long records;
  public long other;
  public long rejected;
  /**
   * Another format read among the file's lines (a tool's result block in a server's log), and how
   * many of the records and rejects above are its; null: none.
   */
  public String embeddedFormat;
  public long embeddedRecords;
  public long embeddedRejected;
  /**
   * Other lines that carried a recognised prefix or header, or a kind's words under a header no
   * prefix knows (a log line no kind claims).
   */
  public long unmatchedLogLines;
  public final List<String> unmatchedExamples = new ArrayList<>();
  /** Lines read behind a wrapper no prefix knows (the spec's resync), and the first wrappers' text. */
  public long unknownWrapperLines;
  public final List<String> unknownWrapperExamples = new ArrayList<>();
  public final List<String> rejectExamples = new ArrayList<>();

  public ExplainStats(LineSpec spec) {
    for (LineSpec.Kind k : spec.kinds()) {
      kinds.put(k.name(), new KindCount(k.name(), k.table()));
    }
  }

  public List<KindCount> kinds() {
    return List.copyOf(kinds.values());
  }

  void matched(LineSpec.Kind k) {
    kinds.get(k.name()).matched++;
  }

  void nearMiss(LineSpec.Kind k, long lineNo, String text) {
    KindCount c = kinds.get(k.name());
    c.nearMisses++;
    if (c.nearMissExamples.size() < EXAMPLES) {
      c.nearMissExamples.add(lineNo + ": " + cut(text));
    }
  }

  void unmatched(long lineNo, String text) {
    unmatchedLogLines++;
    if (unmatchedExamples.size() < EXAMPLES + 2) {
      unmatchedExamples.add(lineNo + ": " + cut(text));
    }
  }

  void unknownWrapper(long lineNo, String wrapper) {
    unknownWrapperLines++;
    if (unknownWrapperExamples.size() < EXAMPLES && wrapper != null) {
      unknownWrapperExamples.add(lineNo + ": \"" + cut(wrapper) + "\"");
    }
  }

  /**
   * The file's content ended damaged (a cut compressed stream, a CSV export cut inside a quoted
   * field): one rejected line after the last one read, as the ingest counts it.
   */
  public void endsDamaged(String damage) {
    lines++;
    rejected(lines, damage + "; the lines before it were read");
  }

  void rejected(long lineNo, String reason) {
    rejected++;
    if (rejectExamples.size() < EXAMPLES + 2) {
      rejectExamples.add(lineNo + ": " + reason);
    }
  }

  /** Examples are cut short: they are for recognising a shape, and logs carry user text. */
  static String cut(String s) {
    for (String key : new String[] {"prompt: ", "output: "}) {
      int at = s.indexOf(key);
      if (at >= 0) {
        s = s.substring(0, at + key.length()) + "…";
      }
    }
    return s.length() > 160 ? s.substring(0, 160) + "…" : s;
  }
}
