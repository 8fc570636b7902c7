package dev.tokentime.store;

/**
 * What the Spark job takes from the store's package-private helpers, so that its rows follow the
 * same rules as the DuckDB sink's without a copy of them: the reject excerpt (cut before user
 * text) and a run's level read from its name. Lives in the store's package on the job's class
 * path; the store itself knows nothing of Spark.
 */
public final class SparkBridge {
  private SparkBridge() {}

  /** The excerpt the DuckDB sink stores with a reject ({@code Excerpts.of}). */
  public static String excerpt(byte[] line, int off, int len, boolean keepText) {
    return Excerpts.of(line, off, len, keepText);
  }

  /** level_kind, level, repeat and notes of a run known only by its name (c16, rate_4, c2-r1). */
  public static Object[] levelFromName(String run) {
    RunRegistry.Run r = new RunRegistry.Run(run);
    RunRegistry.inferFromName(r);
    return new Object[] {r.levelKind, r.level, r.repeat, r.notes};
  }

  /** The extras key and value that mark a request row known only from token rows. */
  public static final String STUB_MARKER = KeyRegistry.STUB_MARKER;
  public static final String STUB_VALUE = KeyRegistry.STUB_VALUE;
}
