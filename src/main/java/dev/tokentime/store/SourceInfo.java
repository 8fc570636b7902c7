package dev.tokentime.store;

/**
 * What is known of a file before it is parsed.
 *
 * @param path the absolute path, or - for stdin
 * @param format the input format id
 * @param compression none, gzip or zstd
 * @param defaultRun the run of records that name none
 * @param idNamespace where request ids are unique: shared by the files of one format family in a
 *     run (e.g. "tokentime"), or null for "within this file only"
 * @param keepText whether user text may be stored (--keep-text)
 * @param levelKind the level kind --level gives the default run (concurrency, request_rate), or null
 * @param level the level --level gives the default run, or null
 * @param nameHints names the default run's level may be inferred from when it has none: the file's
 *     name, then directories above the run's own, nearest first (empty with --run)
 */
public record SourceInfo(String path, String format, String compression, String defaultRun,
    String idNamespace, boolean keepText, String levelKind, Double level, java.util.List<String> nameHints) {

  public SourceInfo(String path, String format, String compression, String defaultRun,
      String idNamespace, boolean keepText) {
    this(path, format, compression, defaultRun, idNamespace, keepText, null, null, java.util.List.of());
  }
}
