package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.cli.Main;
import dev.tokentime.testing.TestDb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One generated run written as canonical CSV (a requests file and a tokens file) and as JSONL
 * gives the same request_latency rows and the same summary.
 */
class CsvJsonlEquivalenceTest {
  @TempDir
  Path tmp;

  static String cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out), new PrintWriter(err)).execute(args);
    assertEquals(0, code, err.toString());
    return out.toString();
  }

  @Test
  void csvAndJsonlOfOneRunGiveIdenticalAnswers() throws Exception {
    for (String form : new String[] {"csv", "requests", "tokens"}) {
      cli("generate", "--out", tmp.resolve(form).toString(), "--form", form, "--levels", "2,8",
          "--requests", "40", "--warmup", "3", "--mean-output", "25", "--slots", "4",
          "--error-every", "9", "--seed", "11");
    }
    // request_key, source_id and clock_id are surrogate ids, numbered in the order files commit;
    // timing_source names the input format, which is what differs here
    String latency = "SELECT * EXCLUDE (request_key, source_id, clock_id, timing_source) FROM request_latency"
        + " ORDER BY run, request_id";
    List<List<Object>> jsonl;
    List<List<Object>> perToken;
    List<List<Object>> csv;
    try (TestDb t = new TestDb(tmp.resolve("db-jsonl"))) {
      t.ingest(IngestOptions.of(List.of(tmp.resolve("requests").toString())));
      jsonl = t.rows(latency);
    }
    try (TestDb t = new TestDb(tmp.resolve("db-csv"))) {
      var r = t.ingest(IngestOptions.of(List.of(tmp.resolve("csv").toString())));
      assertEquals(4, r.ingestedFiles(), "two requests files and two tokens files");
      assertEquals(List.of("tokentime-csv"), r.files().stream().map(IngestResult.FileResult::format).distinct().toList());
      csv = t.rows(latency);
    }
    try (TestDb t = new TestDb(tmp.resolve("db-tokens"))) {
      t.ingest(IngestOptions.of(List.of(tmp.resolve("tokens").toString())));
      perToken = t.rows(latency);
    }
    assertEquals(86, jsonl.size());
    assertEquals(jsonl, csv);
    assertEquals(jsonl, perToken);

    String summaryJsonl = summary(tmp.resolve("requests"), tmp.resolve("j.duckdb"));
    String summaryCsv = summary(tmp.resolve("csv"), tmp.resolve("c.duckdb"));
    assertTrue(summaryJsonl.contains("\"runs\""));
    // the summary names the format each figure rests on (its basis): the one thing that differs
    assertTrue(summaryCsv.contains("tokentime-csv requests"), summaryCsv);
    assertEquals(withoutSourceCount(summaryJsonl), withoutSourceCount(summaryCsv).replace("tokentime-csv", "tokentime-jsonl"));
    assertEquals(textWithoutHeader(cli("summary", "--db", tmp.resolve("j.duckdb").toString())),
        textWithoutHeader(cli("summary", "--db", tmp.resolve("c.duckdb").toString())).replace("tokentime-csv", "tokentime-jsonl"));
  }

  static String summary(Path in, Path db) {
    cli("ingest", "--db", db.toString(), in.toString());
    return cli("summary", "--db", db.toString(), "--format", "json");
  }

  static String withoutSourceCount(String json) {
    return json.replaceFirst("\"sources\" : \\d+", "\"sources\" : N");
  }

  static String textWithoutHeader(String text) {
    return text.substring(text.indexOf('\n'));
  }
}
