package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 100 MB line (issue 10, target 5) is rejected with its line number and a reason, the lines
 * around it are read, and the packaged jar never runs out of memory, even with a small heap.
 */
class LongLineIT {
  @TempDir
  Path tmp;

  @Test
  void aHundredMegabyteLineIsRejectedCleanlyWithASmallHeap() throws Exception {
    Path file = tmp.resolve("c1").resolve("requests.jsonl");
    Files.createDirectories(file.getParent());
    String good = "{\"request_id\":\"r%d\",\"arrival_ns\":1000,\"first_token_ns\":2000,\"tokens_ns\":[2000,3000]}\n";
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write(String.format(good, 1));
      w.write("{\"request_id\":\"big\",\"arrival_ns\":1000,\"prompt\":\"");
      char[] chunk = new char[1 << 20];
      java.util.Arrays.fill(chunk, 'x');
      for (int i = 0; i < 100; i++) {
        w.write(chunk);
      }
      w.write("\"}\n");
      w.write(String.format(good, 2));
    }
    Path db = tmp.resolve("t.duckdb");
    Cli.Result r = Cli.exec(List.of(Cli.javaBin(), "-Xmx256m", "-jar", Cli.jar().toString(),
        "ingest", "--db", db.toString(), file.toString()), null);
    assertEquals(0, r.code(), r.err());
    assertFalse(r.err().contains("OutOfMemoryError"), r.err());
    assertTrue(r.out().contains("3 lines = 2 records + 0 other + 1 rejected"), r.out());
    Cli.Result q = Cli.run("query", "--db", db.toString(), "--format", "csv",
        "SELECT line_no, reason FROM rejects");
    assertEquals(0, q.code(), q.err());
    assertTrue(q.out().contains("2,line of 104857650 bytes is longer than the limit of 67108864 bytes; skipped"), q.out());
  }
}
