package dev.tokentime.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.TableDef;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Parity: the golden cases of the core views (src/test/resources/golden of the CLI, where the
 * DuckDB views pass them in GoldenTest) pass on Spark too. Every case's input is read by the
 * Spark job (one run of it for all cases, each case in a folder of its own), the case's rows are
 * taken as the canonical tables, the Spark views are installed over them, and the case's query
 * (or its Spark spelling, below) must give the case's expected CSV: numbers within 1e-6 + 1e-9 of
 * the value, as GoldenTest compares them.
 */
// slow (a minute on 2 cores; CI's budget is 15 minutes): SparkDuckDbParityTest holds the Spark
// views to DuckDB's on every sample in CI; this holds them to each golden case's expected rows
@Tag("slow")
class GoldenParityTest {

  /** Golden case -> the query on Spark, where its DuckDB text does not run there (null: as is). */
  static final Map<String, String> CASES = new LinkedHashMap<>();

  static {
    CASES.put("summary/metric_stats_percentiles", null);
    CASES.put("summary/level_summary_repeats", null);
    CASES.put("core/token_gaps_out_of_order", null);
    CASES.put("core/request_latency_basis", null);
    CASES.put("latency/ttft_breakdown_shares", null);
    CASES.put("latency/ttft_breakdown_not_split", null);
    // the steps method only (the Spark view's one method), 10 ms buckets: the expected steps column
    CASES.put("timeline/batch_size_three_methods",
        "SELECT t_s, batch_mean AS steps FROM batch_size_timeline ORDER BY t_s");
  }

  record Golden(String name, Map<String, String> inputs, String query, String expected) {}

  static Path lake;
  static Map<String, Golden> goldens = new LinkedHashMap<>();

  @BeforeAll
  static void ingestEveryCase() throws IOException {
    Path dir = SparkTests.tempDir("golden");
    for (String c : CASES.keySet()) {
      Golden g = parse(c, Files.readString(SparkTests.root()
          .resolve("src/test/resources/golden/" + c + ".golden")));
      goldens.put(c, g);
      for (var in : g.inputs().entrySet()) {
        Path p = dir.resolve("in").resolve(caseFolder(c)).resolve(in.getKey());
        Files.createDirectories(p.getParent());
        Files.writeString(p, in.getValue(), StandardCharsets.UTF_8);
      }
    }
    lake = dir.resolve("lake");
    SparkTests.ingest(lake, dir.resolve("in").toString());
  }

  static String caseFolder(String c) {
    return c.replace('/', '_');
  }

  /** A golden file: its inputs (path -> text), query and expected CSV; # lines are the working. */
  static Golden parse(String name, String text) {
    Map<String, StringBuilder> inputs = new LinkedHashMap<>();
    StringBuilder query = new StringBuilder();
    StringBuilder expected = new StringBuilder();
    StringBuilder cur = null;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("-- input ")) {
        cur = new StringBuilder();
        inputs.put(line.substring("-- input ".length()).strip(), cur);
      } else if (line.equals("-- query")) {
        cur = query;
      } else if (line.equals("-- expected")) {
        cur = expected;
      } else if (cur != null) {
        cur.append(line).append('\n');
      }
    }
    Map<String, String> in = new LinkedHashMap<>();
    inputs.forEach((k, v) -> in.put(k, v.toString()));
    return new Golden(name, in, query.toString().strip(), expected.toString().strip());
  }

  @TestFactory
  Stream<DynamicTest> goldenCasesPassOnSpark() {
    return CASES.keySet().stream().map(c -> DynamicTest.dynamicTest(c, () -> check(c)));
  }

  void check(String c) {
    SparkSession spark = SparkTests.session();
    Golden g = goldens.get(c);
    registerCase(spark, caseFolder(c));
    SparkViews.install(spark, 0.01);
    String q = CASES.get(c) != null ? CASES.get(c) : g.query();
    List<Row> rows = spark.sql(q).collectAsList();
    List<CSVRecord> want = csv(g.expected());
    List<String> header = want.isEmpty() ? List.of() : List.of(want.get(0).values());
    List<CSVRecord> body = want.subList(1, want.size());
    if (CASES.get(c) != null && header.contains("steps")) {
      // the steps method's rows: the buckets where the expected steps column has a value
      List<CSVRecord> keep = new ArrayList<>();
      for (CSVRecord r : body) {
        if (!r.get(header.indexOf("steps")).isEmpty()) {
          keep.add(r);
        }
      }
      body = keep;
    }
    assertEquals(body.size(), rows.size(), c + ": rows\n" + rows);
    for (int i = 0; i < body.size(); i++) {
      Row got = rows.get(i);
      for (String col : header) {
        int at;
        try {
          at = got.fieldIndex(col);
        } catch (IllegalArgumentException e) {
          continue; // a column the Spark spelling does not select
        }
        String exp = body.get(i).get(header.indexOf(col));
        Object v = got.get(at);
        assertTrue(same(exp, v), c + " row " + (i + 1) + " column " + col + ": expected '" + exp
            + "', Spark gave '" + v + "'");
      }
    }
  }

  static boolean same(String exp, Object v) {
    if (exp.isEmpty()) {
      return v == null;
    }
    if (v == null) {
      return false;
    }
    if (v instanceof Number n) {
      double a = Double.parseDouble(exp);
      return Math.abs(a - n.doubleValue()) <= 1e-6 + 1e-9 * Math.abs(a);
    }
    return exp.equals(v.toString());
  }

  static List<CSVRecord> csv(String text) {
    try {
      return CSVFormat.DEFAULT.parse(new StringReader(text)).getRecords();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The canonical tables of the lake restricted to one case's files. */
  static void registerCase(SparkSession spark, String folder) {
    String l = lake.toUri().toString();
    Dataset<Row> sources = SparkViews.read(spark, l, CanonicalSchema.SOURCES)
        .filter(functions.col("path").contains("/in/" + folder + "/"));
    Dataset<Row> ids = sources.select("source_id");
    SparkViews.register(spark, CanonicalSchema.SOURCES, sources);
    Dataset<Row> requests = SparkViews.read(spark, l, CanonicalSchema.REQUESTS).join(ids, "source_id");
    SparkViews.register(spark, CanonicalSchema.REQUESTS, requests);
    Dataset<Row> keys = requests.select("request_key");
    SparkViews.register(spark, CanonicalSchema.TOKENS,
        SparkViews.read(spark, l, CanonicalSchema.TOKENS).join(ids, "source_id"));
    SparkViews.register(spark, CanonicalSchema.DERIVED_REQUEST_TOKENS,
        SparkViews.read(spark, l, CanonicalSchema.DERIVED_REQUEST_TOKENS).join(keys, "request_key"));
    SparkViews.register(spark, CanonicalSchema.STEPS,
        SparkViews.read(spark, l, CanonicalSchema.STEPS).join(ids, "source_id"));
    Dataset<Row> runNames = requests.select("run").union(sources.select("run")).distinct();
    SparkViews.register(spark, CanonicalSchema.RUNS,
        SparkViews.read(spark, l, CanonicalSchema.RUNS).join(runNames, "run"));
    for (TableDef t : List.of(CanonicalSchema.CLOCKS, CanonicalSchema.REQUEST_LINKS)) {
      SparkViews.register(spark, t, SparkViews.read(spark, l, t));
    }
  }
}
