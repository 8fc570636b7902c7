package dev.tokentime.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * End to end: the same inputs through the DuckDB path (the CLI's ingest, in this JVM) and through
 * the Spark job (local[2]) give the same metric_stats and level_summary, row by row and figure by
 * figure (within 1e-9 relative: sums in another order); and the lake opens in the CLI
 * (--lake), whose summary equals the database's. Inputs: the bundled samples (every format) and a
 * generated load test in the canonical CSV form (requests and tokens in two files per run, so
 * request identity crosses files and executors), 100 k tokens here; the 10 M-token run is the
 * slow test below.
 */
class SparkDuckDbParityTest {

  /**
   * The samples, a generated run, and files as users hand them over (UTF-16 with its byte order
   * mark, a JSON document after a UTF-8 one, a gzip'd log, a zip archive skipped as the CLI refuses
   * it): the same figures and the same sources rows, content hashes included (the Spark job read
   * UTF-16 as bytes, sniffed a BOM'd document as nothing, and hashed the compressed bytes).
   */
  @Test
  void samplesAndAGeneratedRunGiveTheSameFigures() throws Exception {
    Path dir = SparkTests.tempDir("e2e");
    Path gen = dir.resolve("gen");
    SparkTests.cli("generate", "--out", gen.toString(), "--levels", "8,16", "--tokens", "100000",
        "--warmup", "2", "--error-every", "7", "--form", "csv");
    Path handed = Files.createDirectories(dir.resolve("handed"));
    Path samples = SparkTests.root().resolve("sample-logs");
    // each a content of its own (a copy of a sample's content would be that sample's source again)
    String log = Files.readString(samples.resolve("wrapped/ci-runner.log")).replace("chatcmpl-cirunner", "chatcmpl-utf16");
    Files.write(handed.resolve("utf16.log"), ("\ufeff" + log).getBytes(java.nio.charset.StandardCharsets.UTF_16LE));
    Files.write(handed.resolve("bom.json"), ("\ufeff" + Files.readString(samples.resolve("peers/genai-perf/profile_export.json"))
        + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    try (var gz = new java.util.zip.GZIPOutputStream(Files.newOutputStream(handed.resolve("stern.log.gz")))) {
      gz.write(Files.readString(samples.resolve("wrapped/stern.log")).replace("chatcmpl-stern", "chatcmpl-gz")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    Files.write(handed.resolve("logs.zip"), new byte[] {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0});
    compare(dir, samples.toString(), gen.toString(), handed.toString());
  }

  @Test
  @Tag("slow")
  void tenMillionTokens() throws Exception {
    Path dir = SparkTests.tempDir("e2e10m");
    Path gen = dir.resolve("gen");
    SparkTests.cli("generate", "--out", gen.toString(), "--levels", "8,16,32,64", "--tokens",
        "10000000", "--warmup", "2", "--form", "requests");
    compare(dir, gen.toString());
  }

  @Test
  void anOutOfRangeValueIsARejectInTheLakeAsInTheDatabase() throws Exception {
    // the CLI's range checks (ingest.CheckedSink) sit between the parsers and both sinks
    Path dir = SparkTests.tempDir("range");
    Path in = Files.createDirectories(dir.resolve("in"));
    // a token time that fits INT64 but is neither an epoch time nor a monotonic clock's: the
    // parser takes it, the range check refuses it
    String s = Files.readString(SparkTests.root().resolve("sample-logs/peers/genai-perf/profile_export.json"));
    String bad = s.replaceFirst("1767225600178000000", "4611686018427387904");
    assertTrue(!bad.equals(s), "the sample holds the value replaced");
    Files.writeString(in.resolve("profile_export.json"), bad);
    Path lake = dir.resolve("lake");
    SparkTests.ingest(lake, in.toString());
    SparkSession spark = SparkTests.session();
    SparkViews.registerLake(spark, lake.toUri().toString());
    // the CLI's ingest of this file: 7 lines = 5 records + 1 other + 1 rejected (line 11),
    // OutOfRangeTest holds the database's side
    List<List<Object>> lakeSources = rows(spark.sql(
        "SELECT lines, records, other_lines, rejected FROM sources").collectAsList());
    assertEquals(List.of(List.of(7L, 5L, 1L, 1L)), lakeSources);
    // the lake's rejects folder (the views register the tables they read)
    List<List<Object>> reasons = rows(SparkViews.read(spark, lake.toUri().toString(),
        dev.tokentime.schema.CanonicalSchema.REJECTS).select("reason").collectAsList());
    assertEquals(1, reasons.size(), reasons.toString());
    assertTrue(String.valueOf(reasons.get(0).get(0)).contains("token ts_ns out of range"), reasons.toString());
  }

  /**
   * Files with no request and no token (Prometheus scrapes): the job wrote folders Spark put no
   * Parquet file in, then counted the requests by reading one back and failed ("Unable to infer
   * schema"). The lake holds the same sources and engine figures as the database.
   */
  @Test
  void filesWithoutRequestsOrTokensMakeALake() throws Exception {
    Path dir = SparkTests.tempDir("notokens");
    String in = SparkTests.root().resolve("sample-logs/prometheus").toString();
    Path db = dir.resolve("duck.duckdb");
    SparkTests.cli("ingest", "--db", db.toString(), in);
    Path lake = dir.resolve("lake");
    IngestJob.Result r = SparkTests.ingest(lake, in);
    assertEquals(0, r.requests());
    assertEquals(0, r.tokens());
    assertTrue(r.records() > 0, "records: " + r);
    SparkSession spark = SparkTests.session();
    SparkViews.registerLake(spark, lake.toUri().toString());
    String sources = "SELECT format, sha256, lines, records, other_lines, rejected FROM sources ORDER BY sha256";
    assertSame("sources", SparkTests.duck(db, sources), rows(spark.sql(sources).collectAsList()));
    String fromDb = SparkTests.cli("summary", "--db", db.toString(), "--format", "json");
    String fromLake = SparkTests.cli("summary", "--lake", lake.toString(), "--format", "json");
    assertEquals(withoutSources(fromDb), withoutSources(fromLake));
  }

  static void compare(Path dir, String... inputs) throws Exception {
    Path db = dir.resolve("duck.duckdb");
    List<String> args = new ArrayList<>(List.of("ingest", "--db", db.toString()));
    args.addAll(List.of(inputs));
    SparkTests.cli(args.toArray(String[]::new));

    Path lake = dir.resolve("lake");
    long t0 = System.nanoTime();
    IngestJob.Result r = SparkTests.ingest(lake, inputs);
    long t1 = System.nanoTime();
    SparkSession spark = SparkTests.session();
    SparkViews.registerLake(spark, lake.toUri().toString());
    SparkViews.install(spark, 1.0);
    // run vllm (the sample's vLLM log and OTel spans of the same requests) is left out of the
    // views' comparison: its rows are merged by request_links, which the Spark views do not
    // compute (docs/scale-out.md); the lake's summary through --lake below covers it
    List<List<Object>> sparkStats = rows(spark.sql(
        "SELECT * FROM metric_stats WHERE run <> 'vllm' ORDER BY run, metric").collectAsList());
    long t2 = System.nanoTime();
    List<List<Object>> sparkLevels = rows(spark.sql(
        "SELECT * FROM level_summary WHERE coalesce(label, '') <> 'vllm'"
            + " ORDER BY level_kind NULLS LAST, level, label").collectAsList());
    System.err.printf("spark: ingest %d lines, %d token rows in %.1f s; metric_stats %.1f s%n",
        r.lines(), r.tokens(), (t1 - t0) / 1e9, (t2 - t1) / 1e9);

    List<List<Object>> duckStats = SparkTests.duck(db,
        "SELECT * FROM metric_stats WHERE run <> 'vllm' ORDER BY run, metric");
    List<List<Object>> duckLevels = SparkTests.duck(db, "SELECT * FROM level_summary"
        + " WHERE coalesce(label, '') <> 'vllm' ORDER BY level_kind NULLS LAST, level, label");
    assertSame("metric_stats", duckStats, sparkStats);
    assertSame("level_summary", duckLevels, sparkLevels);
    assertTrue(duckStats.size() > 10, "metric_stats has rows: " + duckStats.size());

    // the line accounting: the same lines, records, other lines and rejects per file
    String sources = "SELECT format, compression, sha256, lines, records, other_lines, rejected FROM sources"
        + " ORDER BY sha256, format";
    List<List<Object>> duckSources = SparkTests.duck(db, sources);
    List<List<Object>> sparkSources = rows(spark.sql(sources).collectAsList());
    assertSame("sources", duckSources, sparkSources);

    // the lake in the CLI: DuckDB views over the Parquet files give the database's summary
    String fromDb = SparkTests.cli("summary", "--db", db.toString(), "--format", "json");
    String fromLake = SparkTests.cli("summary", "--lake", lake.toString(), "--format", "json");
    assertEquals(withoutSources(fromDb), withoutSources(fromLake));
  }

  /** The summary's JSON without file paths (the lake names files by URI). */
  static String withoutSources(String json) {
    return json.replaceAll("\"path\"\\s*:\\s*\"[^\"]*\"", "\"path\":\"\"")
        .replaceAll("file:/+", "/");
  }

  static List<List<Object>> rows(List<Row> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (Row r : rows) {
      List<Object> row = new ArrayList<>();
      for (int i = 0; i < r.length(); i++) {
        row.add(r.get(i));
      }
      out.add(row);
    }
    return out;
  }

  static void assertSame(String what, List<List<Object>> duck, List<List<Object>> spark) {
    assertEquals(duck.size(), spark.size(), what + ": rows (DuckDB " + duck + "\nSpark " + spark + ")");
    for (int i = 0; i < duck.size(); i++) {
      List<Object> a = duck.get(i);
      List<Object> b = spark.get(i);
      assertEquals(a.size(), b.size(), what + ": columns");
      for (int j = 0; j < a.size(); j++) {
        Object x = a.get(j);
        Object y = b.get(j);
        boolean ok;
        if (x instanceof Number n && y instanceof Number m) {
          double u = n.doubleValue();
          double v = m.doubleValue();
          ok = u == v || Math.abs(u - v) <= 1e-9 * Math.max(1, Math.abs(u));
        } else {
          ok = x == null ? y == null : y != null && x.toString().equals(y.toString());
        }
        assertTrue(ok, what + " row " + i + " column " + j + ": DuckDB " + x + ", Spark " + y
            + "\nDuckDB row " + a + "\nSpark row  " + b);
      }
    }
  }
}
