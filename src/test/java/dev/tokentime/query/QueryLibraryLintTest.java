package dev.tokentime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.TableDef;
import dev.tokentime.testing.GoldenCase;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conventions of queries/ (docs/design.md, "Queries"), enforced: one documented object per
 * file, named after it; a grain; every column of every public view documented with a unit, and
 * nothing documented that the view does not have; every public view covered by a golden case.
 */
class QueryLibraryLintTest {
  @TempDir
  Path tmp;

  @Test
  void everyPublicViewAndColumnIsDocumented() throws Exception {
    List<String> problems = new ArrayList<>();
    try (TestDb t = new TestDb(tmp)) {
      for (QueryFile q : QueryLibrary.get().all()) {
        if (q.helper()) {
          continue;
        }
        if (q.description().isBlank()) {
          problems.add(q.path() + ": no description above the CREATE");
        }
        if (q.grain() == null || q.grain().isBlank()) {
          problems.add(q.path() + ": no -- @grain line");
        }
        Set<String> actual = new LinkedHashSet<>();
        if (q.isView()) {
          for (List<Object> row : t.rows("SELECT column_name FROM duckdb_columns() WHERE table_name = '"
              + q.name() + "' ORDER BY column_index")) {
            actual.add((String) row.get(0));
          }
        } else if (q.isTableMacro()) {
          if (q.example() == null) {
            problems.add(q.path() + ": a table macro needs -- @example SELECT * FROM " + q.name() + "(...)");
            continue;
          }
          actual.addAll(t.table(q.example()).columns());
          if (q.params().isEmpty()) {
            problems.add(q.path() + ": document the macro's parameters (-- @param name doc)");
          }
        } else {
          continue;
        }
        Set<String> documented = new LinkedHashSet<>();
        for (QueryFile.Doc c : q.columns()) {
          documented.add(c.name());
          if (c.unit().isBlank() || c.doc().isBlank()) {
            problems.add(q.path() + ": column " + c.name() + " needs a [unit] and a description");
          }
        }
        for (String c : actual) {
          if (!documented.contains(c)) {
            problems.add(q.path() + ": column " + c + " is not documented (-- @column " + c + " [unit] ...)");
          }
        }
        for (String c : documented) {
          if (!actual.contains(c)) {
            problems.add(q.path() + ": documents column " + c + " that the view does not have");
          }
        }
        if (!new ArrayList<>(actual).equals(new ArrayList<>(documented)) && actual.equals(documented)) {
          problems.add(q.path() + ": document the columns in the order the view returns them");
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void docsReachTheCatalogAsComments() throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Object viewComment = t.value("SELECT comment FROM duckdb_views() WHERE view_name = 'request_latency'");
      assertTrue(String.valueOf(viewComment).contains("Grain: one row per request row"), String.valueOf(viewComment));
      Object colComment = t.value("SELECT comment FROM duckdb_columns() WHERE table_name = 'request_latency'"
          + " AND column_name = 'ttft_ms'");
      assertTrue(String.valueOf(colComment).startsWith("[ms] Time to first token"), String.valueOf(colComment));
      Object tableComment = t.value("SELECT comment FROM duckdb_tables() WHERE table_name = 'tokens'");
      assertTrue(String.valueOf(tableComment).startsWith("One row per streamed token or chunk"));
    }
  }

  @Test
  void everyPublicViewHasAGoldenCase() throws Exception {
    StringBuilder queries = new StringBuilder();
    for (GoldenCase c : GoldenTest.cases()) {
      queries.append(c.query()).append('\n');
    }
    List<String> missing = new ArrayList<>();
    for (QueryFile q : QueryLibrary.get().all()) {
      if (!q.helper() && !Pattern.compile("\\b" + q.name() + "\\b").matcher(queries).find()) {
        missing.add(q.name());
      }
    }
    assertEquals(List.of(), missing, "views without a golden case under src/test/resources/golden");
  }

  /**
   * The derive step's cached figures (_gap_stats) are read only while _scope_is_default(): a
   * variable that _request_scope reads but that macro does not test would make readers take
   * figures computed for another scope.
   */
  @Test
  void scopeIsDefaultTestsEveryVariableTheScopeReads() {
    Pattern var = Pattern.compile("getvariable\\('(tt_\\w+)'\\)");
    Set<String> read = new LinkedHashSet<>();
    Set<String> tested = new LinkedHashSet<>();
    var m = var.matcher(QueryLibrary.get().get("_request_scope").sql());
    while (m.find()) {
      read.add(m.group(1));
    }
    m = var.matcher(QueryLibrary.get().get("_scope_is_default").sql());
    while (m.find()) {
      tested.add(m.group(1));
    }
    assertEquals(6, read.size(), "the scope's variables: " + read);
    assertEquals(read, tested);
  }

  @Test
  void fileConventionsAreChecked() {
    var e = assertThrows(IllegalArgumentException.class, () -> QueryLibrary.load(Map.of(
        "core/a.sql", "-- A.\n-- @grain one row\nCREATE VIEW b AS SELECT 1 AS x")));
    assertTrue(e.getMessage().contains("creates b but the file is named a"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> QueryLibrary.load(Map.of(
        "core/a.sql", "-- A.\nCREATE VIEW a AS SELECT 1; CREATE VIEW c AS SELECT 2")));
    assertTrue(e.getMessage().contains("more than one statement"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> QueryLibrary.load(Map.of(
        "core/a.sql", "-- A.\n-- @colum x [ms] typo\nCREATE VIEW a AS SELECT 1 AS x")));
    assertTrue(e.getMessage().contains("unknown doc tag"), e.getMessage());
  }

  @Test
  void objectsAreInstalledAfterWhatTheyMention() {
    QueryLibrary lib = QueryLibrary.load(Map.of(
        "a/zz_base.sql", "-- Base.\n-- @grain one\nCREATE VIEW zz_base AS SELECT 1 AS x",
        "a/aa_top.sql", "-- Top.\n-- @grain one\nCREATE VIEW aa_top AS SELECT * FROM zz_base"));
    List<String> order = lib.all().stream().map(QueryFile::name).toList();
    assertEquals(List.of("zz_base", "aa_top"), order);
    assertFalse(lib.hash().isBlank());
  }

  /**
   * Readers go through the public views (docs/design.md, "Boundaries"): the SQL in Java outside
   * store/ (the ingest, derive and snapshot plumbing) and schema/ (the tables' own declaration and
   * docs) names no helper of the query library (a
   * name starting with _) and reads no table of the canonical schema directly. Only string
   * literals are searched, comments are not.
   */
  @Test
  void javaOutsideStoreReadsPublicViewsOnly() throws IOException {
    assertEquals(List.of(), privateNamesInJava(Path.of("src/main/java/dev/tokentime")));
  }

  /** The rule fails on what it is there to catch, naming the file and line. */
  @Test
  void privateNamesInJavaAreFound() throws IOException {
    Path dir = tmp.resolve("java/dev/tokentime/report");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("Bad.java"), "class Bad {\n  // _itl_stalls_top in a comment is fine\n"
        + "  String a = \"SELECT * FROM _itl_stalls_top(5)\";\n  String b = \"SELECT request_id FROM requests\";\n"
        + "  String c = \"SELECT * FROM request_latency\";\n}\n");
    Path store = tmp.resolve("java/dev/tokentime/store");
    Files.createDirectories(store);
    Files.writeString(store.resolve("Fine.java"), "class Fine { String a = \"SELECT * FROM _token_cells\"; }\n");
    List<String> found = privateNamesInJava(tmp.resolve("java/dev/tokentime"));
    assertEquals(2, found.size(), found.toString());
    assertTrue(found.get(0).matches(".*Bad.java:3: .*_itl_stalls_top.*"), found.get(0));
    assertTrue(found.get(1).matches(".*Bad.java:4: .*table requests.*"), found.get(1));
  }

  /** A string literal, a char literal or a comment, whichever starts first (so "//" in a string is no comment). */
  private static final Pattern TOKEN = Pattern.compile(
      "\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\])'|(?s:/\\*.*?\\*/)|//[^\\n]*");

  static List<String> privateNamesInJava(Path root) throws IOException {
    Set<String> helpers = new LinkedHashSet<>();
    for (QueryFile q : QueryLibrary.get().all()) {
      if (q.helper()) {
        helpers.add(q.name());
      }
    }
    List<String> tables = new ArrayList<>();
    for (TableDef t : CanonicalSchema.all()) {
      // rejects excepted: messages send users there to read every rejected line of a file
      if (!t.name().equals("rejects")) {
        tables.add(t.name());
      }
    }
    Pattern helper = Pattern.compile("(?<![A-Za-z0-9_])(" + String.join("|", helpers) + ")(?![A-Za-z0-9_])");
    Pattern table = Pattern.compile("(?i)\\b(?:FROM|JOIN)\\s+(" + String.join("|", tables) + ")(?![A-Za-z0-9_])");
    List<String> problems = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> s = Files.walk(root)) {
      files = s.filter(p -> p.toString().endsWith(".java") && !root.relativize(p).startsWith("store")
          && !root.relativize(p).startsWith("schema")).sorted().toList();
    }
    for (Path f : files) {
      String text = Files.readString(f, StandardCharsets.UTF_8);
      Matcher m = TOKEN.matcher(text);
      while (m.find()) {
        if (!m.group().startsWith("\"")) {
          continue;
        }
        int line = (int) text.substring(0, m.start()).chars().filter(ch -> ch == '\n').count() + 1;
        Matcher h = helper.matcher(m.group());
        while (h.find()) {
          problems.add(f + ":" + line + ": names the query library's helper " + h.group(1)
              + " (make it public with docs, or wrap it in a view)");
        }
        Matcher t = table.matcher(m.group());
        while (t.find()) {
          problems.add(f + ":" + line + ": reads the table " + t.group(1) + " (read a public view)");
        }
      }
    }
    return problems;
  }
}
