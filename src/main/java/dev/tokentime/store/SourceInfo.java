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
 */
public record SourceInfo(String path, String format, String compression, String defaultRun,
    String idNamespace, boolean keepText) {}
