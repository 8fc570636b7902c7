package dev.tokentime.spark;

import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.Column;
import dev.tokentime.schema.TableDef;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The canonical tables as Spark schemas, taken from {@link CanonicalSchema} column by column, and
 * the lake's layout: one folder per table under the output, Hive partitions by run
 * ({@code tokens/run=c16/part-….parquet}). Tables whose rows carry no run column are partitioned
 * by the run of their request (tokens, _request_tokens) or the default run of their file; the
 * partition column is the folder name only, so the Parquet files hold the canonical columns.
 */
public final class LakeTables {
  private LakeTables() {}

  /** The partition column every table's folders are named by. */
  public static final String RUN = "run";

  /** Tables the parsers fill, in the order of the tag of a parsed row. */
  public static final List<TableDef> PARSED = List.of(CanonicalSchema.REQUESTS,
      CanonicalSchema.TOKENS, CanonicalSchema.STEPS, CanonicalSchema.ENGINE_STATS,
      CanonicalSchema.ENGINE_EVENTS, CanonicalSchema.METRIC_HISTOGRAMS,
      CanonicalSchema.REPORTED_METRICS, CanonicalSchema.REJECTS, CanonicalSchema.CLOCK_ANCHORS,
      CanonicalSchema.SOURCES, CanonicalSchema.CLOCKS, CanonicalSchema.RUNS);

  public static final int REQUESTS = 0;
  public static final int TOKENS = 1;
  public static final int STEPS = 2;
  public static final int ENGINE_STATS = 3;
  public static final int ENGINE_EVENTS = 4;
  public static final int METRIC_HISTOGRAMS = 5;
  public static final int REPORTED_METRICS = 6;
  public static final int REJECTS = 7;
  public static final int CLOCK_ANCHORS = 8;
  public static final int SOURCES = 9;
  public static final int CLOCKS = 10;
  /** One row per run a file touched: its level as that file knows it (merged on the driver). */
  public static final int RUNS = 11;

  /** The Spark type of a canonical column type. */
  public static DataType sparkType(String sqlType) {
    return switch (sqlType) {
      case "VARCHAR", "chunk_kind" -> DataTypes.StringType;
      case "INTEGER" -> DataTypes.IntegerType;
      case "BIGINT" -> DataTypes.LongType;
      case "DOUBLE" -> DataTypes.DoubleType;
      case "BOOLEAN" -> DataTypes.BooleanType;
      case "TIMESTAMP" -> DataTypes.TimestampType;
      case "INTEGER[]" -> DataTypes.createArrayType(DataTypes.IntegerType);
      case "DOUBLE[]" -> DataTypes.createArrayType(DataTypes.DoubleType);
      case "MAP(VARCHAR, VARCHAR)" -> DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType);
      case "MAP(VARCHAR, DOUBLE)" -> DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType);
      default -> throw new IllegalArgumentException("no Spark type for canonical type " + sqlType);
    };
  }

  /** The table's columns as a Spark schema (all nullable, as in DuckDB). */
  public static StructType schema(TableDef t) {
    List<StructField> fields = new ArrayList<>();
    for (Column c : t.columns()) {
      fields.add(DataTypes.createStructField(c.name(), sparkType(c.sqlType()), true));
    }
    return DataTypes.createStructType(fields);
  }

  /** Whether the table has a run column of its own (else the lake adds the partition column). */
  public static boolean hasRun(TableDef t) {
    return t.columns().stream().anyMatch(c -> c.name().equals(RUN));
  }

  /** The table's columns and the run its folder is named by (part_run). */
  public static StructType withPartRun(TableDef t) {
    return schema(t).add("part_run", DataTypes.StringType, true);
  }

  /**
   * The table's folder in the lake: its name, without the leading underscore of a derived table
   * (Spark's and Hadoop's readers skip paths starting with _ or ., so _request_tokens lives in
   * request_tokens/).
   */
  public static String folder(TableDef t) {
    return t.name().startsWith("_") ? t.name().substring(1) : t.name();
  }
}
