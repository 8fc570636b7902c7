package dev.tokentime.spark;

import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.TableDef;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.storage.StorageLevel;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Reads logs into a Parquet lake of the canonical tables, on Spark, with the CLI's parsers.
 *
 * <p>{@code spark-submit --class dev.tokentime.spark.IngestJob tokentime-spark.jar --input
 * 's3a://bucket/logs/**' --out s3a://bucket/lake}: the driver lists the files (a folder is read
 * recursively; {@code /**} at the end of a path means the same), each file is one task that an
 * executor opens through Hadoop's file systems and parses with the format the CLI would pick,
 * and the tables are written as Parquet under {@code OUT/<table>/run=<run>/} (Hive layout; see
 * {@link LakeTables}). The derive step ({@link Derive}) runs over the parsed rows before they are
 * written, so the lake holds tokens.gap_ns and _request_tokens as a DuckDB database would.
 * {@code tokentime summary --lake OUT} reads the lake with the CLI.
 */
@Command(name = "IngestJob", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Reads LLM-serving timing logs into a Parquet lake of tokentime's canonical tables, on Spark.",
        "Each file is one task; the executors run tokentime's own parsers (the formats of `tokentime formats`).",
        "The lake is read by `tokentime summary|query|report --lake OUT`."})
public final class IngestJob implements Callable<Integer> {

  @Option(names = "--input", required = true, paramLabel = "PATH",
      description = {"A file, a folder (read recursively; PATH/** means the same) or a Hadoop glob,",
          "on any file system Spark reaches (file:, hdfs:, s3a:). Repeatable.",
          "Hidden files, expected/ folders and DuckDB files are skipped, as by `tokentime ingest`."})
  List<String> inputs;

  @Option(names = "--out", required = true, paramLabel = "DIR",
      description = "Where the lake goes: DIR/<table>/run=<run>/*.parquet. Existing tables there are replaced.")
  String out;

  @Option(names = "--run", paramLabel = "NAME",
      description = "Run of records that name none (default: the file's parent folder).")
  String run;

  @Option(names = "--from", paramLabel = "FORMAT", description = "Input format of every file (default: sniffed per file).")
  String from;

  @Option(names = "--tz", paramLabel = "ZONE", description = "Time zone of local-time logs (e.g. UTC, Europe/Paris).")
  String tz;

  @Option(names = "--year", paramLabel = "YEAR", description = "Year of logs whose timestamps omit it.")
  Integer year;

  @Option(names = "--keep-text", description = "Keep prompt and output text in reject excerpts (default: cut).")
  boolean keepText;

  @Option(names = "--cache", paramLabel = "LEVEL", defaultValue = "MEMORY_AND_DISK_SER",
      description = "Spark storage level of the parsed rows between the tables' writes (default: ${DEFAULT-VALUE}).")
  String cache;

  public static void main(String[] args) {
    int code = new CommandLine(new IngestJob()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  @Override
  public Integer call() throws IOException {
    SparkSession spark = SparkSession.builder().appName("tokentime ingest").getOrCreate();
    try {
      Result r = run(spark, inputs, out, new ParseOptions(from, keepText, tz, year), run,
          StorageLevel.fromString(cache), System.err);
      return r.files() == 0 ? 2 : 0;
    } finally {
      spark.stop();
    }
  }

  /** What a run of the job did, for its caller. */
  public record Result(int files, int skipped, long lines, long records, long otherLines,
      long rejected, long requests, long tokens) {}

  /** The job itself, on a session the caller owns (the tests use one local[2] session). */
  public static Result run(SparkSession spark, List<String> inputs, String out, ParseOptions o,
      String runOverride, StorageLevel level, PrintStream log) throws IOException {
    spark.conf().set("spark.sql.sources.partitionColumnTypeInference.enabled", "false");
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    List<FileTask> tasks = list(inputs, conf, runOverride);
    if (tasks.isEmpty()) {
      log.println("tokentime: no input files under " + inputs);
      return new Result(0, 0, 0, 0, 0, 0, 0, 0);
    }
    Map<String, String> hadoopConf = new HashMap<>();
    conf.forEach(e -> hadoopConf.put(e.getKey(), e.getValue()));

    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    // one task per file: files are the unit of the line accounting and of request identity
    JavaRDD<FileTask> files = jsc.parallelize(tasks, tasks.size());
    JavaRDD<Row> parsed = files.mapPartitions(it -> new ParsedRows(it, o, hadoopConf)).persist(level);
    try {
      return write(spark, parsed, out, log);
    } finally {
      parsed.unpersist();
    }
  }

  /** One table's rows out of the parsed rows (tag, part_run, columns…), with part_run last. */
  private static Dataset<Row> table(JavaRDD<Row> parsed, int tag) {
    TableDef t = LakeTables.PARSED.get(tag);
    JavaRDD<Row> rows = parsed.filter(r -> r.getInt(0) == tag).map(r -> {
      Object[] v = new Object[r.length() - 1];
      for (int i = 2; i < r.length(); i++) {
        v[i - 2] = r.get(i);
      }
      v[v.length - 1] = r.get(1);
      return RowFactory.create(v);
    });
    return SparkSession.active().createDataFrame(rows, LakeTables.withPartRun(t));
  }

  private static Result write(SparkSession spark, JavaRDD<Row> parsed, String out, PrintStream log) {
    long t0 = System.nanoTime();
    // ---- the small tables, merged on the driver ----
    List<Row> sourceRows = table(parsed, LakeTables.SOURCES).collectAsList();
    List<Row> kept = new ArrayList<>();
    int skipped = 0;
    for (Row s : sourceRows) {
      if (s.isNullAt(s.fieldIndex("format"))) {
        skipped++;
        String c = s.getAs("compression");
        log.println("tokentime: skipped " + s.getAs("path") + " ("
            + (c != null && c.startsWith(FileParser.REFUSED) ? c.substring(FileParser.REFUSED.length())
                : "no format recognises it") + ")");
      } else {
        kept.add(s);
      }
    }
    kept.sort(Comparator.comparingInt(s -> s.getAs("source_id")));

    Map<Integer, Row> clocks = new LinkedHashMap<>();
    for (Row c : table(parsed, LakeTables.CLOCKS).collectAsList()) {
      Row known = clocks.putIfAbsent(c.getAs("clock_id"), c);
      if (known != null && !known.equals(c)) {
        throw new IllegalStateException("two clocks hash to clock_id " + c.getAs("clock_id")
            + ": " + known + " and " + c + "; rename one scope");
      }
    }
    List<Row> runs = mergeRuns(table(parsed, LakeTables.RUNS).collectAsList());
    long t1 = System.nanoTime();
    log.printf("tokentime: parsed %d files in %.1f s%n", kept.size() + skipped, (t1 - t0) / 1e9);

    // ---- requests: stubs give way to request rows; one row per key ----
    table(parsed, LakeTables.REQUESTS).createOrReplaceTempView("tt_requests_in");
    Dataset<Row> ranked = spark.sql("""
        SELECT *,
            row_number() OVER k AS rank_in_key,
            min(concat(run, '\\u0000', request_id)) OVER k <> max(concat(run, '\\u0000', request_id)) OVER k
                AS collision,
            coalesce(element_at(extras, 'tokentime.stub') IS NOT NULL, false) AS stub
        FROM tt_requests_in
        WINDOW k AS (PARTITION BY request_key
            ORDER BY coalesce(element_at(extras, 'tokentime.stub') IS NOT NULL, false), source_id, line_no)
        """).persist(StorageLevel.MEMORY_AND_DISK());
    ranked.createOrReplaceTempView("tt_requests_ranked");
    if (!spark.sql("SELECT 1 FROM tt_requests_ranked WHERE collision LIMIT 1").isEmpty()) {
      throw new IllegalStateException("two request ids hash to one request_key; "
          + spark.sql("SELECT run, request_id, request_key FROM tt_requests_ranked WHERE collision LIMIT 4")
              .collectAsList());
    }
    // a second request row of one id in one namespace (another file of the run): rejected as
    // the DuckDB sink rejects it, and its file's own chunks of that key go with it
    List<Row> dups = spark.sql("""
        SELECT d.source_id, d.line_no, d.run, d.request_id, d.request_key, f.source_id AS first_source,
            f.line_no AS first_line
        FROM tt_requests_ranked d JOIN tt_requests_ranked f
            ON f.request_key = d.request_key AND f.rank_in_key = 1
        WHERE d.rank_in_key > 1 AND NOT d.stub
        """).collectAsList();
    Map<Integer, String> paths = kept.stream().collect(Collectors.toMap(
        s -> s.<Integer>getAs("source_id"), s -> s.<String>getAs("path")));
    List<Row> dupRejects = new ArrayList<>();
    Map<Integer, Integer> dupsPerSource = new HashMap<>();
    for (Row d : dups) {
      int src = d.getAs("source_id");
      dupsPerSource.merge(src, 1, Integer::sum);
      dupRejects.add(RowFactory.create(src, d.<Long>getAs("line_no"),
          "duplicate request_id '" + d.getAs("request_id") + "' in run '" + d.getAs("run")
              + "' (first at " + paths.get(d.<Integer>getAs("first_source")) + ":"
              + d.getAs("first_line") + ")", null, runOf(kept, src)));
    }
    Dataset<Row> requests = spark.sql("SELECT * FROM tt_requests_ranked WHERE rank_in_key = 1")
        .drop("rank_in_key", "collision", "stub", "part_run");

    // ---- tokens and the per-request figures ----
    Dataset<Row> tokensIn = table(parsed, LakeTables.TOKENS).drop("gap_ns");
    if (!dups.isEmpty()) {
      Dataset<Row> gone = spark.createDataFrame(dups, dups.get(0).schema())
          .select("request_key", "source_id");
      tokensIn = tokensIn.join(gone, tokensIn.col("request_key").equalTo(gone.col("request_key"))
          .and(tokensIn.col("source_id").equalTo(gone.col("source_id"))), "left_anti");
    }
    tokensIn.createOrReplaceTempView("tt_tokens_in");
    Dataset<Row> tokens = Derive.tokensWithGaps(spark);
    tokens.createOrReplaceTempView("tt_tokens");
    Dataset<Row> requestTokens = Derive.requestTokens(spark);

    // ---- write ----
    writeTable(spark.createDataFrame(kept.stream().map(s -> adjust(s, dupsPerSource)).toList(),
        table(parsed, LakeTables.SOURCES).schema()).drop("part_run"), CanonicalSchema.SOURCES, out);
    spark.createDataFrame(new ArrayList<>(clocks.values()), table(parsed, LakeTables.CLOCKS).schema())
        .drop("part_run").coalesce(1).write().mode(SaveMode.Overwrite)
        .parquet(out + "/" + CanonicalSchema.CLOCKS.name());
    writeTable(spark.createDataFrame(runs, LakeTables.schema(CanonicalSchema.RUNS)),
        CanonicalSchema.RUNS, out);
    writeTable(requests, CanonicalSchema.REQUESTS, out);
    writeTable(tokens, CanonicalSchema.TOKENS, out);
    writeTable(requestTokens, CanonicalSchema.DERIVED_REQUEST_TOKENS, out);
    for (int tag : new int[] {LakeTables.STEPS, LakeTables.ENGINE_STATS, LakeTables.ENGINE_EVENTS,
        LakeTables.METRIC_HISTOGRAMS, LakeTables.REPORTED_METRICS, LakeTables.CLOCK_ANCHORS}) {
      writeTable(table(parsed, tag), LakeTables.PARSED.get(tag), out);
    }
    Dataset<Row> rejects = table(parsed, LakeTables.REJECTS);
    if (!dupRejects.isEmpty()) {
      rejects = rejects.unionByName(spark.createDataFrame(dupRejects, rejects.schema()));
    }
    writeTable(rejects, CanonicalSchema.REJECTS, out);
    ranked.unpersist();

    long lines = 0;
    long records = 0;
    long other = 0;
    long rejected = 0;
    for (Row s : kept) {
      Row a = adjust(s, dupsPerSource);
      lines += a.<Long>getAs("lines");
      records += a.<Long>getAs("records");
      other += a.<Long>getAs("other_lines");
      rejected += a.<Long>getAs("rejected");
    }
    long t2 = System.nanoTime();
    log.printf("tokentime: derived and wrote the tables in %.1f s%n", (t2 - t1) / 1e9);
    // read with the schema (SparkViews.read): a table of no rows is a folder without a Parquet file
    long nRequests = SparkViews.read(spark, out, CanonicalSchema.REQUESTS).count();
    long nTokens = SparkViews.read(spark, out, CanonicalSchema.TOKENS).count();
    log.printf("tokentime: %d files (%d skipped): %d lines = %d records + %d other + %d rejected;"
        + " %d requests, %d token rows -> %s%n", kept.size(), skipped, lines, records, other,
        rejected, nRequests, nTokens, out);
    return new Result(kept.size(), skipped, lines, records, other, rejected, nRequests, nTokens);
  }

  private static String runOf(List<Row> sources, int sourceId) {
    return sources.stream().filter(s -> s.<Integer>getAs("source_id") == sourceId)
        .map(s -> s.<String>getAs("run")).findFirst().orElse(null);
  }

  /** A source row with its duplicate request rows moved from records to rejected. */
  private static Row adjust(Row s, Map<Integer, Integer> dups) {
    int n = dups.getOrDefault(s.<Integer>getAs("source_id"), 0);
    if (n == 0) {
      return s;
    }
    Object[] v = new Object[s.length()];
    for (int i = 0; i < v.length; i++) {
      v[i] = s.get(i);
    }
    v[s.fieldIndex("records")] = s.<Long>getAs("records") - n;
    v[s.fieldIndex("rejected")] = s.<Long>getAs("rejected") + n;
    return RowFactory.create(v);
  }

  /**
   * One row per run: the level its records stated (the file read first wins, as with `ingest
   * --jobs 1`), else the level its name gives, else none.
   */
  static List<Row> mergeRuns(List<Row> perFile) {
    Map<String, Row> byRun = new java.util.TreeMap<>();
    for (Row r : perFile) {
      String name = r.getAs("run");
      Row known = byRun.get(name);
      if (known == null || rankOf(r) < rankOf(known)) {
        byRun.put(name, r);
      }
    }
    return byRun.values().stream()
        .map(r -> RowFactory.create(r.getAs("run"), r.getAs("level_kind"), r.getAs("level"),
            r.getAs("repeat"), r.getAs("notes")))
        .toList();
  }

  private static int rankOf(Row r) {
    String notes = r.getAs("notes");
    return notes == null ? 2 : notes.startsWith("from run name") ? 1 : 0;
  }

  /** Writes a table's rows (its columns in CanonicalSchema's order) under OUT/table/run=…/. */
  private static void writeTable(Dataset<Row> df, TableDef t, String out) {
    List<org.apache.spark.sql.Column> cols = new ArrayList<>();
    for (var c : t.columns()) {
      cols.add(functions.col(c.name()).cast(LakeTables.sparkType(c.sqlType())));
    }
    if (!LakeTables.hasRun(t)) {
      cols.add(functions.col("part_run").as(LakeTables.RUN));
    }
    df.select(cols.toArray(org.apache.spark.sql.Column[]::new))
        .write().mode(SaveMode.Overwrite).partitionBy(LakeTables.RUN)
        .parquet(out + "/" + LakeTables.folder(t));
  }

  // ---- listing ----

  /** The input files, sorted by path; source_id is the position in that order, from 1. */
  static List<FileTask> list(List<String> inputs, Configuration conf, String runOverride)
      throws IOException {
    Map<String, FileStatus> found = new java.util.TreeMap<>();
    for (String in : inputs) {
      String spec = in;
      if (spec.endsWith("/**")) {
        spec = spec.substring(0, spec.length() - 3);
      }
      Path p = new Path(spec);
      FileSystem fs = p.getFileSystem(conf);
      FileStatus[] matches = fs.globStatus(p);
      if (matches == null || matches.length == 0) {
        throw new IllegalArgumentException("tokentime: input not found: " + in);
      }
      for (FileStatus m : matches) {
        if (m.isDirectory()) {
          RemoteIterator<LocatedFileStatus> it = fs.listFiles(m.getPath(), true);
          while (it.hasNext()) {
            LocatedFileStatus f = it.next();
            if (!excluded(m.getPath(), f.getPath())) {
              found.put(f.getPath().toString(), f);
            }
          }
        } else {
          found.put(m.getPath().toString(), m);
        }
      }
    }
    List<FileTask> tasks = new ArrayList<>();
    int id = 1;
    for (FileStatus f : found.values()) {
      String parent = f.getPath().getParent() == null ? "default" : f.getPath().getParent().getName();
      tasks.add(new FileTask(id++, f.getPath().toUri().toString(), f.getLen(),
          f.getModificationTime(), runOverride != null ? runOverride
              : parent.isEmpty() ? "default" : parent));
    }
    return tasks;
  }

  /** As the CLI's InputResolver: expected/ folders, hidden files and databases are not inputs. */
  static boolean excluded(Path root, Path file) {
    URI rel = root.toUri().relativize(file.toUri());
    String[] parts = rel.getPath().split("/");
    for (int i = 0; i < parts.length; i++) {
      String n = parts[i];
      if (n.startsWith(".") || n.equals("expected") && i < parts.length - 1) {
        return true;
      }
    }
    String name = parts[parts.length - 1];
    return name.endsWith(".duckdb") || name.endsWith(".duckdb.wal") || name.endsWith(".db.wal");
  }
}
