package dev.tokentime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tokentime.output.TableData;
import dev.tokentime.output.Values;
import dev.tokentime.testing.GoldenCase;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Runs every golden case under src/test/resources/golden against a real file database. */
class GoldenTest {
  static final Path ROOT = Path.of("src/test/resources/golden");

  static List<GoldenCase> cases() throws IOException {
    List<GoldenCase> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(ROOT)) {
      for (Path p : s.filter(f -> f.toString().endsWith(".golden")).sorted().toList()) {
        out.add(GoldenCase.parse(ROOT.relativize(p).toString(), Files.readString(p, StandardCharsets.UTF_8)));
      }
    }
    return out;
  }

  @TestFactory
  Stream<DynamicTest> goldenCases() throws IOException {
    List<GoldenCase> cases = cases();
    if (cases.isEmpty()) {
      fail("no golden cases found under " + ROOT);
    }
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.file() + ": " + c.name(), () -> run(c)));
  }

  static void run(GoldenCase c) throws Exception {
    Path dir = Files.createTempDirectory("golden-");
    try (TestDb t = new TestDb(dir)) {
      List<Path> files = new ArrayList<>();
      for (var e : c.inputs().entrySet()) {
        files.add(t.write("in/" + e.getKey(), e.getValue()));
      }
      t.ingest(files.toArray(new Path[0]));
      for (String stmt : c.setup().split("\n")) {
        if (!stmt.isBlank()) {
          t.db.execute(stmt.strip().replaceAll(";$", ""));
        }
      }
      TableData actual = t.table(c.query());
      List<CSVRecord> expected = CSVFormat.DEFAULT.parse(new StringReader(c.expected())).getRecords();
      List<String> header = expected.get(0).toList();
      assertEquals(header, actual.columns(), c.file() + ": columns");
      assertEquals(expected.size() - 1, actual.rows().size(),
          c.file() + ": row count; actual rows:\n" + show(actual));
      for (int r = 0; r < actual.rows().size(); r++) {
        for (int col = 0; col < header.size(); col++) {
          String want = expected.get(r + 1).get(col);
          String got = Values.exact(actual.rows().get(r)[col]);
          if (!same(want, got)) {
            fail(c.file() + ": row " + (r + 1) + " column " + header.get(col) + ": expected <" + want
                + "> but was <" + got + ">; actual rows:\n" + show(actual));
          }
        }
      }
    } finally {
      deleteTree(dir);
    }
  }

  static boolean same(String want, String got) {
    if (want.equals(got)) {
      return true;
    }
    try {
      double a = Double.parseDouble(want);
      double b = Double.parseDouble(got);
      return Math.abs(a - b) <= 1e-6 + 1e-9 * Math.abs(a);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  static String show(TableData t) {
    StringBuilder sb = new StringBuilder(String.join(",", t.columns())).append('\n');
    for (Object[] row : t.rows()) {
      List<String> cells = new ArrayList<>();
      for (Object v : row) {
        cells.add(Values.exact(v));
      }
      sb.append(String.join(",", cells)).append('\n');
    }
    return sb.toString();
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
