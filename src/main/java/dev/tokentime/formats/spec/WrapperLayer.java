package dev.tokentime.formats.spec;

import dev.tokentime.ingest.Sample;

/**
 * The wrapper layer ({@code parsers/wrappers.spec}) for a format that is not a line spec: what a
 * log collector put around a line (a container or CI runner's timestamp, docker's JSON envelope,
 * a compose service, journald's header, Ray's process tag, colour codes) is peeled off, and the
 * format reads the line as it was printed. A console summary kept in a CI log or a pod's log is
 * then read like the summary alone. Not thread-safe: one per parse.
 */
public final class WrapperLayer {
  private static final LineSpec LAYER = SpecReader.load(SpecReader.WRAPPERS);

  private final LineMatcher matcher = new LineMatcher(LAYER);
  private final MatchedLine matched = new MatchedLine();

  /** The line without its wrappers (the line itself when it has none). */
  public String peel(String line) {
    matcher.match(0, line, matched);
    return matched.message();
  }

  /** One layer per thread for sniffing: building the matcher costs more than peeling a sample. */
  private static final ThreadLocal<WrapperLayer> FOR_SNIFFING = ThreadLocal.withInitial(WrapperLayer::new);
  /** The last sample peeled and its text: every console tool sniffs the same sample in turn. */
  private static final ThreadLocal<Object[]> LAST = new ThreadLocal<>();

  /** Each line of {@code sample} without its wrappers, for sniffing (peeled once per sample). */
  public static String peelLines(Sample sample) {
    Object[] last = LAST.get();
    if (last != null && last[0] == sample) {
      return (String) last[1];
    }
    String text = peelLines(sample.text());
    LAST.set(new Object[] {sample, text});
    return text;
  }

  /** One line without its wrappers, for sniffing (the line itself when it has none). */
  static String peelForSniffing(String line) {
    return FOR_SNIFFING.get().peel(line);
  }

  /** Each line of {@code text} without its wrappers. */
  static String peelLines(String text) {
    WrapperLayer layer = FOR_SNIFFING.get();
    StringBuilder sb = new StringBuilder(text.length());
    for (String line : text.split("\n", -1)) {
      sb.append(layer.peel(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line)).append('\n');
    }
    return sb.toString();
  }
}
