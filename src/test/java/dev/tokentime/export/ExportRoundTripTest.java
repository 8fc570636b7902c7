package dev.tokentime.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.BadInputException;
import dev.tokentime.testing.TestDb;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exports read back by DuckDB and by Arrow Java hold the same rows with the same types: tables
 * with maps, lists, timestamps and an ENUM, and views, written by tokentime from a real ingest.
 */
class ExportRoundTripTest {
  @TempDir
  static Path tmp;
  static TestDb t;
  static final ExportService EXPORT = new ExportService();

  /** Objects with between them every kind of column the schema has. */
  static final List<String> OBJECTS =
      List.of("requests", "tokens", "sources", "request_latency", "level_summary", "with_map");

  @BeforeAll
  static void ingest() throws Exception {
    t = new TestDb(tmp.resolve("db"));
    t.ingest(t.write("in/c1/requests.jsonl",
        "{\"request_id\":\"a\",\"concurrency\":1,\"arrival_ns\":0,\"prompt_tokens\":10,\"finish_reason\":\"stop\","
            + "\"tokens_ns\":[10000000,30000000,45000000]}\n"
            + "{\"request_id\":\"b\",\"concurrency\":1,\"arrival_ns\":50000000,\"status\":\"error\",\"error\":\"boom\"}\n"),
        t.write("in/c2/requests.jsonl",
            "{\"request_id\":\"a\",\"concurrency\":2,\"arrival_ns\":0,\"tokens_ns\":[20000000,50000000]}\n"
                + "{\"request_id\":\"b\",\"concurrency\":2,\"arrival_ns\":0,\"tokens_ns\":[25000000,70000000]}\n"));
    t.db.execute("CREATE TEMP TABLE with_map AS SELECT MAP {'k': 'v', 'x': NULL} AS m, [1, 2]::INTEGER[] AS l, "
        + "TIMESTAMP '2026-01-01 00:00:01.5' AS ts, 12345678901234::BIGINT AS big, NULL::DOUBLE AS nothing");
  }

  @AfterAll
  static void close() {
    t.close();
  }

  @Test
  void parquetReadBackByDuckDbHasTheSameRowsAndTypes() throws Exception {
    for (String name : OBJECTS) {
      Path file = tmp.resolve(name + ".parquet");
      ExportService.Result r = EXPORT.export(t.db, "SELECT * FROM " + name, ExportFormat.PARQUET, file, List.of());
      assertEquals(t.count("SELECT count(*) FROM " + name), r.rows(), name);
      String back = "read_parquet('" + file + "')";
      assertEquals(enumsAsVarchar(types(name)), types(back), name);
      assertSameRows(name, back);
    }
  }

  @Test
  void partitionedParquetHasOneFolderPerRunAndTheSameRows() throws Exception {
    Path dir = tmp.resolve("by-run");
    ExportService.Result r = EXPORT.export(t.db, "SELECT * FROM request_latency", ExportFormat.PARQUET, dir, List.of("run"));
    assertEquals(4, r.rows());
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of("run=c1", "run=c2"), s.map(p -> p.getFileName().toString()).sorted().toList());
    }
    String back = "(SELECT * EXCLUDE (run), run FROM read_parquet('" + dir + "/*/*.parquet', hive_partitioning = true))";
    String original = "(SELECT * EXCLUDE (run), run FROM request_latency)";
    assertSameRows(original, back);
    var e = assertThrows(BadInputException.class,
        () -> EXPORT.export(t.db, "SELECT * FROM request_latency", ExportFormat.PARQUET, dir, List.of("run")));
    assertTrue(e.getMessage().contains("exists"), e.getMessage());
  }

  @Test
  void arrowFileReadBackByArrowJavaAndDuckDbHasTheSameRowsAndTypes() throws Exception {
    for (String name : List.of("requests", "tokens", "sources", "request_latency", "with_map")) {
      Path file = tmp.resolve(name + ".arrow");
      ExportService.Result r = EXPORT.export(t.db, "SELECT * FROM " + name, ExportFormat.ARROW, file, List.of());
      long expected = t.count("SELECT count(*) FROM " + name);
      assertEquals(expected, r.rows(), name);
      try (BufferAllocator a = new RootAllocator(); FileChannel ch = FileChannel.open(file);
          ArrowFileReader reader = new ArrowFileReader(ch, a)) {
        List<Field> fields = reader.getVectorSchemaRoot().getSchema().getFields();
        assertEquals(columns(name), fields.stream().map(Field::getName).toList(), name);
        long rows = 0;
        while (reader.loadNextBatch()) {
          rows += reader.getVectorSchemaRoot().getRowCount();
        }
        assertEquals(expected, rows, name);
      }
      // and back into DuckDB: the same rows, the same types
      try (BufferAllocator a = new RootAllocator(); FileChannel ch = FileChannel.open(file);
          ArrowFileReader reader = new ArrowFileReader(ch, a)) {
        String back = importArrow(a, reader, name + "_back");
        assertEquals(enumsAsVarchar(types(name)), types(back), name);
        assertSameRows(name, back);
      }
    }
    try (BufferAllocator a = new RootAllocator(); FileChannel ch = FileChannel.open(tmp.resolve("tokens.arrow"));
        ArrowFileReader reader = new ArrowFileReader(ch, a)) {
      Field kind = reader.getVectorSchemaRoot().getSchema().findField("chunk_kind");
      assertTrue(kind.getDictionary() != null, "the ENUM travels as an Arrow dictionary: " + kind);
    }
  }

  @Test
  void arrowStreamReadBackHasTheSameRowsAndTypes() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Statement st = t.db.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM request_latency")) {
      assertEquals(4, ArrowIpc.writeStream(rs, bytes));
    }
    try (BufferAllocator a = new RootAllocator();
        ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(bytes.toByteArray()), a)) {
      String back = importArrow(a, reader, "stream_back");
      assertEquals(types("request_latency"), types(back));
      assertSameRows("request_latency", back);
    }
  }

  @Test
  void csvHasAHeaderAndEveryRow() throws Exception {
    Path file = tmp.resolve("latency.csv");
    EXPORT.export(t.db, "SELECT * FROM request_latency ORDER BY run, request_id -- a comment at the end",
        ExportFormat.CSV, file, List.of());
    List<String> lines = Files.readAllLines(file);
    assertTrue(lines.get(0).startsWith("run,level_kind,level,repeat,request_key,request_id,"), lines.get(0));
    assertEquals(5, lines.size());
    assertEquals(4, t.count("SELECT count(*) FROM read_csv('" + file + "')"));
  }

  @Test
  void arrowIsNotPartitioned() {
    var e = assertThrows(BadInputException.class, () -> EXPORT.export(t.db, "SELECT * FROM requests",
        ExportFormat.ARROW, tmp.resolve("x"), List.of("run")));
    assertTrue(e.getMessage().contains("Arrow exports are one file"), e.getMessage());
  }

  /** Hands an Arrow reader to DuckDB through the C stream interface and keeps it as a table. */
  static String importArrow(BufferAllocator a, ArrowReader reader, String table) throws Exception {
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(a)) {
      Data.exportArrayStream(a, reader, stream);
      t.db.connection().registerArrowStream(table + "_arrow", stream);
      t.db.execute("CREATE OR REPLACE TEMP TABLE " + table + " AS SELECT * FROM " + table + "_arrow");
    }
    return table;
  }

  static String types(String relation) throws Exception {
    List<String> out = new ArrayList<>();
    for (List<Object> row : t.rows("DESCRIBE SELECT * FROM " + relation)) {
      out.add(row.get(0) + " " + row.get(1));
    }
    return String.join(", ", out);
  }

  /**
   * The one type that does not come back as itself: an ENUM (tokens.chunk_kind). Parquet has no
   * enum type and stores the values as strings; Arrow carries it as a dictionary of strings
   * (pyarrow: dictionary, polars: Categorical), which DuckDB reads back as VARCHAR.
   */
  static String enumsAsVarchar(String types) {
    return types.replaceAll("ENUM\\([^)]*\\)", "VARCHAR");
  }

  static List<String> columns(String relation) throws Exception {
    return t.rows("DESCRIBE SELECT * FROM " + relation).stream().map(r -> (String) r.get(0)).toList();
  }

  /** Every row of a is in b and every row of b in a, duplicates counted. */
  static void assertSameRows(String a, String b) throws Exception {
    long diff = t.count("SELECT (SELECT count(*) FROM (SELECT * FROM " + a + " EXCEPT ALL SELECT * FROM " + b + "))"
        + " + (SELECT count(*) FROM (SELECT * FROM " + b + " EXCEPT ALL SELECT * FROM " + a + "))");
    assertEquals(0, diff, a + " vs " + b);
    assertTrue(t.count("SELECT count(*) FROM " + a) > 0, a + " has rows");
  }
}
