package dev.tokentime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.GoldenCase;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
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
}
