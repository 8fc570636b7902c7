package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.formats.vllm.VllmLogFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lines decoded and matched on worker threads in batches (MatchPipeline) are stored exactly as
 * the one-thread path stores them: the same requests, tokens, engine rows, rejects (with their
 * line numbers) and counts, whatever the batch size, on real logs and on damaged input.
 */
class MatchPipelineTest {
  static final ParseContext CTX = new ParseContext("server.log", "r1", false, ZoneOffset.UTC, 2026);

  @Test
  void parallelBatchesStoreWhatOneThreadStores() throws IOException {
    ByteArrayOutputStream input = new ByteArrayOutputStream();
    for (String f : List.of("src/test/resources/real-logs/vllm/request-lines.log",
        "src/test/resources/real-logs/vllm/stats-lines.log",
        "src/test/resources/real-logs/vllm/iteration-lines.log",
        "src/test/resources/real-logs/vllm/access-lines.log",
        "sample-logs/vllm/server.log")) {
      input.write(Files.readAllBytes(Path.of(f)));
    }
    // damage: invalid UTF-8, a control character, blank lines, and a cut-off last line
    input.write("INFO 01-01 00:00:01 [logger.py:43] Received request bad-\u00ff: x.\n"
        .getBytes(StandardCharsets.ISO_8859_1));
    input.write("INFO 01-01 00:00:01 [logger.py:43] Added request ctl\u0001.\n\n   \n"
        .getBytes(StandardCharsets.UTF_8));
    input.write("INFO 01-01 00:00:02 [loggers.py:123] Engine 000: Avg prompt throughput: 1.0 tokens/s, Avg gen"
        .getBytes(StandardCharsets.UTF_8));
    byte[] bytes = input.toByteArray();

    CollectingSink one = parse(bytes, 0, 0);
    assertTrue(one.requests.size() > 10, "requests: " + one.requests.size());
    String reasons = one.rejects.stream().map(CollectingSink.Rej::reason).toList().toString();
    for (String reason : List.of("invalid UTF-8", "control character", "truncated last line")) {
      assertTrue(reasons.contains(reason), "the damage is rejected (" + reason + "): " + reasons);
    }
    for (int[] batch : new int[][] {{1, 1 << 20}, {7, 300}, {256, 256 << 10}, {100_000, 64}}) {
      CollectingSink many = parse(bytes, batch[0], batch[1]);
      String what = "batches of " + batch[0] + " lines / " + batch[1] + " bytes: ";
      assertEquals(one.requests, many.requests, what + "requests");
      assertEquals(one.tokens, many.tokens, what + "tokens");
      assertEquals(one.rejects, many.rejects, what + "rejects");
      assertEquals(one.steps, many.steps, what + "steps");
      assertEquals(one.stats, many.stats, what + "engine stats");
      assertEquals(one.events, many.events, what + "engine events");
      assertEquals(one.clocks, many.clocks, what + "clocks");
      assertEquals(one.records, many.records, what + "records");
      assertEquals(one.other, many.other, what + "other lines");
    }
  }

  @Test
  void aReadErrorReachesTheCallerAfterTheLinesBeforeIt() {
    byte[] good = "INFO 01-01 00:00:01 [logger.py:43] Added request a.\n".getBytes(StandardCharsets.UTF_8);
    InputStream failing = new InputStream() {
      int at;

      @Override
      public int read() throws IOException {
        if (at < good.length) {
          return good[at++];
        }
        throw new IOException("disk gone");
      }
    };
    CollectingSink sink = new CollectingSink();
    IOException e = assertThrows(IOException.class,
        () -> ((SpecFormat) new VllmLogFormat()).run(failing, CTX, sink, null, p -> p.batches(4, 1024)));
    assertEquals("disk gone", e.getMessage());
  }

  private static CollectingSink parse(byte[] bytes, int batchLines, int batchBytes) throws IOException {
    CollectingSink sink = new CollectingSink();
    ((SpecFormat) new VllmLogFormat()).run(new ByteArrayInputStream(bytes), CTX, sink, null, p -> p.batches(batchLines, batchBytes));
    return sink;
  }
}
