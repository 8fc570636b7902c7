package dev.tokentime.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ValuesTest {
  @Test
  void namesSortNaturallyAsTheViewsSortThem() {
    // the order of natural_sort_key(run), run (queries/report/natural_sort_key.sql)
    List<String> sorted = List.of("c16", "c4", "c64", "c1", "b", "c4-r2", "rate-8", "rate-0.5", "c04")
        .stream().sorted(Values.NATURAL).toList();
    assertEquals(List.of("b", "c1", "c04", "c4", "c4-r2", "c16", "c64", "rate-0.5", "rate-8"), sorted);
  }

  @Test
  void durationsReadInTheirUnit() {
    assertEquals("35.7 s", Values.duration(35718.330));
    assertEquals("432 µs", Values.duration(0.4321));
    assertEquals("41.7 ms", Values.duration(41.7));
  }

  /**
   * LIST, STRUCT and BLOB cells as DuckDB writes them, and JSON arrays and objects in JSON: a
   * BLOB was "DuckDBBlobResult{buffer=java.nio.HeapByteBuffer[pos=0 lim=2 cap=2]}" and a STRUCT
   * Java's map text.
   */
  @Test
  void nestedAndBinaryCellsReadAsDuckDbWritesThem() throws Exception {
    try (var c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); var st = c.createStatement();
        var rs = st.executeQuery("SELECT [1, NULL, 3] AS l, {'a': 1, 'b': 'x'} AS s, '\\x01A\\x5C'::BLOB AS b,"
            + " [{'a': 1}] AS ls")) {
      rs.next();
      assertEquals("[1, NULL, 3]", Values.text(rs.getObject(1)));
      assertEquals("{'a': 1, 'b': x}", Values.text(rs.getObject(2)));
      assertEquals("\\x01A\\x5C", Values.exact(rs.getObject(3)));
      assertEquals("[{'a': 1}]", Values.exact(rs.getObject(4)));
      java.io.StringWriter w = new java.io.StringWriter();
      try (var g = new com.fasterxml.jackson.core.JsonFactory().createGenerator(w)) {
        g.writeStartArray();
        for (int i = 1; i <= 4; i++) {
          TableRenderer.writeValue(g, rs.getObject(i));
        }
        g.writeEndArray();
      }
      assertEquals("[[1,null,3],{\"a\":1,\"b\":\"x\"},\"\\\\x01A\\\\x5C\",[{\"a\":1}]]", w.toString());
    }
  }
}
