package dev.tokentime.ingest;

/**
 * A clock as a parser describes it; the sink turns it into a {@code clocks} row and an id.
 *
 * @param kind wall, steady or client
 * @param scope where readings are comparable, e.g. "run c16" or "host a / pid 7"
 * @param resolutionNs smallest step of the readings
 * @param tz time zone of local-time readings, or null
 * @param tzAssumed whether tz was assumed rather than given
 */
public record ClockSpec(String kind, String scope, long resolutionNs, String tz, boolean tzAssumed) {

  public static final java.util.Set<String> KINDS = java.util.Set.of("wall", "steady", "client");

  public ClockSpec {
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException("clock kind must be wall, steady or client: " + kind);
    }
  }
}
