package dev.tokentime.spark;

import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.TableDef;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * tokentime's core views on Spark SQL: the query files of queries/, in the same text where the
 * dialects agree (run_summary) and their Spark variants beside them
 * ({@code <name>.spark.sql}) where they do not, installed as temporary views over the canonical
 * tables of a lake. {@code CREATE OR REPLACE VIEW} becomes {@code CREATE OR REPLACE TEMPORARY
 * VIEW}: the tables are temporary views themselves.
 */
public final class SparkViews {
  private SparkViews() {}

  /** The views, in dependency order, as area/name. */
  public static final List<String> VIEWS = List.of("scope/_request_scope", "core/request_latency",
      "core/token_gaps", "summary/run_summary", "summary/metric_stats", "summary/level_summary",
      "latency/ttft_breakdown", "timeline/batch_size_timeline");

  /** Tables the views read, and the lake folders they come from. */
  static final List<TableDef> TABLES = List.of(CanonicalSchema.RUNS, CanonicalSchema.SOURCES,
      CanonicalSchema.CLOCKS, CanonicalSchema.REQUESTS, CanonicalSchema.REQUEST_LINKS,
      CanonicalSchema.TOKENS, CanonicalSchema.STEPS, CanonicalSchema.DERIVED_REQUEST_TOKENS);

  /**
   * Registers the canonical tables of the lake at {@code lake} as temporary views (the canonical
   * columns only; a table the lake lacks is empty).
   */
  public static void registerLake(SparkSession spark, String lake) {
    spark.conf().set("spark.sql.sources.partitionColumnTypeInference.enabled", "false");
    for (TableDef t : TABLES) {
      register(spark, t, read(spark, lake, t));
    }
  }

  static Dataset<Row> read(SparkSession spark, String lake, TableDef t) {
    String path = lake + "/" + LakeTables.folder(t);
    try {
      org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
      if (!p.getFileSystem(spark.sparkContext().hadoopConfiguration()).exists(p)) {
        return spark.createDataFrame(List.of(), LakeTables.schema(t)); // the table is empty
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // the schema given, not inferred: a table the job wrote no row of has a folder without files
    var schema = LakeTables.schema(t);
    if (!LakeTables.hasRun(t)) {
      schema = schema.add(LakeTables.RUN, org.apache.spark.sql.types.DataTypes.StringType, true);
    }
    return spark.read().schema(schema).parquet(path);
  }

  /** Registers {@code df} as the table {@code t}: its canonical columns, typed as the schema says. */
  public static void register(SparkSession spark, TableDef t, Dataset<Row> df) {
    List<Column> cols = new ArrayList<>();
    for (var c : t.columns()) {
      cols.add(functions.col(c.name()).cast(LakeTables.sparkType(c.sqlType())).as(c.name()));
    }
    df.select(cols.toArray(Column[]::new)).createOrReplaceTempView(t.name());
  }

  /** Installs the views; {@code bucketS} is batch_size_timeline's bucket width in seconds. */
  public static void install(SparkSession spark, double bucketS) {
    spark.conf().set("tt_bucket_s", Double.toString(bucketS));
    // the macro report/natural_sort_key.sql (runs c1, c4, c16 in that order), as a function
    spark.udf().register("natural_sort_key",
        (org.apache.spark.sql.api.java.UDF1<String, String>) SparkViews::naturalSortKey,
        org.apache.spark.sql.types.DataTypes.StringType);
    for (String v : VIEWS) {
      spark.sql(sql(v));
    }
  }

  private static final Pattern NUMBER_OR_TEXT = Pattern.compile("[0-9]+|[^0-9]+");

  /**
   * What the macro natural_sort_key gives: each run of digits shorter than 30 padded with zeros
   * to 30, the rest kept; null for null.
   */
  static String naturalSortKey(String s) {
    if (s == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    Matcher m = NUMBER_OR_TEXT.matcher(s);
    while (m.find()) {
      String p = m.group();
      if (Character.isDigit(p.charAt(0)) && p.length() < 30) {
        sb.append("0".repeat(30 - p.length()));
      }
      sb.append(p);
    }
    return sb.toString();
  }

  private static final Pattern CREATE = Pattern.compile("(?m)^CREATE OR REPLACE VIEW ");

  /** The Spark text of a view: its .spark.sql variant when there is one, else the DuckDB file. */
  public static String sql(String view) {
    String text = resource("spark-queries/" + view + ".spark.sql");
    if (text == null) {
      text = resource("queries/" + view + ".sql");
    }
    if (text == null) {
      throw new IllegalStateException("no query file for " + view);
    }
    Matcher m = CREATE.matcher(text);
    if (!m.find()) {
      throw new IllegalStateException(view + ": no CREATE OR REPLACE VIEW");
    }
    return m.replaceFirst("CREATE OR REPLACE TEMPORARY VIEW ");
  }

  /** Whether the view has a Spark variant (else its DuckDB text runs as it is). */
  public static boolean hasVariant(String view) {
    return resource("spark-queries/" + view + ".spark.sql") != null;
  }

  private static String resource(String name) {
    try (InputStream in = SparkViews.class.getClassLoader().getResourceAsStream(name)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
