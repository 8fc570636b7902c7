package dev.tokentime.export;

import dev.tokentime.BadInputException;
import java.util.Locale;

/** File formats of tokentime export. */
public enum ExportFormat {
  /** Apache Parquet, written by DuckDB (zstd); may be partitioned into hive folders. */
  PARQUET,
  /** The Arrow IPC file format (Feather v2), read by pyarrow, polars, Arrow Java and DuckDB's readers. */
  ARROW,
  /** CSV with a header, written by DuckDB; may be partitioned into hive folders. */
  CSV;

  public static ExportFormat parse(String s) {
    try {
      return valueOf(s.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadInputException("unknown export format " + s + " (parquet, arrow, csv)");
    }
  }
}
