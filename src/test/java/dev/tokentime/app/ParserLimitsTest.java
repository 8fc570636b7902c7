package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.TestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JSON line beyond Jackson's limits (nested over 1,000 deep, a number over 1,000 digits, a key
 * over 50,000 characters) is a reject; the file's other lines are stored. Before, the first such
 * line aborted the whole ingest ("cannot read: Document nesting depth …") and stored nothing.
 */
class ParserLimitsTest {
  @TempDir
  Path tmp;

  @Test
  void aLineBeyondAParserLimitIsARejectAndTheRestIsStored() throws Exception {
    List<String> good = Files.readAllLines(Path.of("sample-logs/canonical/c1.jsonl"));
    List<String> lines = new ArrayList<>();
    lines.add(good.get(0));
    lines.add("{\"request_id\":\"deep\",\"x\":" + "[".repeat(1500) + "]".repeat(1500) + "}");
    lines.add(good.get(1));
    lines.add("{\"request_id\":\"digits\",\"prompt_tokens\":" + "9".repeat(1500) + "}");
    lines.add(good.get(2));
    lines.add("{\"request_id\":\"key\",\"" + "k".repeat(60_000) + "\":1}");
    lines.add(good.get(3));
    Path f = Files.write(Files.createDirectories(tmp.resolve("c1")).resolve("c1.jsonl"), lines);
    try (TestDb t = new TestDb(tmp.resolve("db"))) {
      IngestResult r = t.ingest(f);
      IngestResult.FileResult fr = r.files().get(0);
      assertEquals("ingested", fr.outcome(), fr.toString());
      assertEquals(7, fr.lines());
      assertEquals(4, fr.records(), fr.toString());
      assertEquals(3, fr.rejected(), fr.firstRejects().toString());
      assertEquals(4, t.count("SELECT count(*) FROM requests"));
      assertTrue(fr.firstRejects().stream().anyMatch(j -> j.lineNo() == 2), fr.firstRejects().toString());
    }
  }
}
