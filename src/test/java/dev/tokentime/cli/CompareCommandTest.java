package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentime.testing.Generated;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare across two database files: a baseline and a candidate captured apart. */
class CompareCommandTest {
  @TempDir
  Path tmp;

  @Test
  void sidesFromTwoFilesGiveTheFiguresOfOneFile() throws Exception {
    Generated.into(tmp.resolve("gen"), "--levels", "2,4", "--requests", "30", "--seed", "3");
    Path a = tmp.resolve("a.duckdb");
    assertEquals(0, CliTest.run("ingest", "--db", a.toString(), tmp.resolve("gen").toString()).code());
    Path b = Files.copy(a, tmp.resolve("b.duckdb"));

    CliTest.Run one = CliTest.run("compare", "--db", a.toString(), "c2", "c4", "--format", "json");
    CliTest.Run two = CliTest.run("compare", a + ":c2", b + ":c4", "--format", "json");
    assertEquals(0, one.code(), one.err());
    assertEquals(0, two.code(), two.err());
    ObjectMapper m = new ObjectMapper();
    JsonNode r1 = m.readTree(one.out());
    JsonNode r2 = m.readTree(two.out());
    assertEquals(a + ":c2", r2.get("a").asText());
    assertEquals(r1.get("rows"), r2.get("rows"), "the same runs in two files compare as in one");

    // a side with a file and one without: the latter reads --db
    CliTest.Run mixed = CliTest.run("compare", "--db", a.toString(), "c2", b + ":c4", "--format", "json");
    assertEquals(r1.get("rows"), m.readTree(mixed.out()).get("rows"));

    CliTest.Run missing = CliTest.run("compare", a + ":c2", tmp.resolve("nope.duckdb") + ":c4");
    assertEquals(2, missing.code());
    assertTrue(missing.err().contains("no database file " + tmp.resolve("nope.duckdb")), missing.err());
  }
}
