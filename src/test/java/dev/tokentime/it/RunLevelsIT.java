package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vLLM-log sweep through the packaged jar: generated into a directory per level, the runs get
 * their levels from the directories' names and sort naturally (c1, c4, c16); a log in a directory
 * that names no level gets one from ingest --level; a malformed --level is a usage error.
 */
class RunLevelsIT {
  @TempDir
  Path tmp;

  @Test
  void levelsFromNamesAndFromTheLevelOption() throws Exception {
    Path gen = tmp.resolve("sweep");
    Cli.Result g = Cli.run("generate", "--out", gen.toString(), "--form", "vllm-log", "--levels", "16,1,4",
        "--requests", "8", "--mean-output", "10");
    assertEquals(0, g.code(), g.err());
    Path db = tmp.resolve("s.duckdb");
    Cli.Result in = Cli.run("ingest", "--db", db.toString(), gen.toString());
    assertEquals(0, in.code(), in.err());
    Cli.Result s = Cli.run("summary", "--db", db.toString(), "--format", "json");
    assertEquals(0, s.code(), s.err());
    JsonNode j = new ObjectMapper().readTree(s.out());
    List<String> runs = new ArrayList<>();
    j.get("runs").forEach(r -> runs.add(r.get("run").asText() + "@" + r.get("level_kind").asText() + "="
        + r.get("level").asDouble()));
    assertEquals(List.of("c1@concurrency=1.0", "c4@concurrency=4.0", "c16@concurrency=16.0"), runs);
    assertEquals(3, j.get("levels").size());

    // the c16 log again, in a folder that names no level, as run "base" at --level concurrency=16
    Path other = Files.createDirectories(tmp.resolve("logs"));
    Files.copy(gen.resolve("c16/c16.log"), other.resolve("server.log"));
    Path db2 = tmp.resolve("b.duckdb");
    Cli.Result bad = Cli.run("ingest", "--db", db2.toString(), "--run", "base", "--level", "concurrency=1.5",
        other.toString());
    assertEquals(2, bad.code(), bad.out() + bad.err());
    assertTrue(bad.err().contains("--level: concurrency must be a whole number"), bad.err());
    Cli.Result ok = Cli.run("ingest", "--db", db2.toString(), "--run", "base", "--level", "concurrency=16",
        other.toString());
    assertEquals(0, ok.code(), ok.err());
    Cli.Result q = Cli.run("query", "--db", db2.toString(), "--format", "csv",
        "SELECT run, level_kind, level, label_source FROM run_levels");
    assertEquals("run,level_kind,level,label_source\nbase,concurrency,16,from --level\n", q.out(), q.err());
  }
}
