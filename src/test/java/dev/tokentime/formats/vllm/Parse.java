package dev.tokentime.formats.vllm;

import dev.tokentime.testing.RecordingSink;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.formats.spec.ExplainStats;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/** Runs a vLLM format on a file or a string into a CollectingSink, checking the line accounting. */
final class Parse {
  static final Path REAL = Path.of("src/test/resources/real-logs/vllm");

  final RecordingSink full = new RecordingSink();
  final CollectingSink sink = full.c;
  long lines;
  ExplainStats explain;

  static ParseContext ctx(Integer year, ZoneId zone, boolean keepText, Instant at) {
    return new ParseContext("test.log", "r1", keepText, zone, year, Instant.parse("2025-12-31T00:00:00Z"), at);
  }

  static Parse real(InputFormat f, String file, ParseContext ctx) throws IOException {
    try (InputStream in = Files.newInputStream(REAL.resolve(file))) {
      return run(f, in, ctx.reopen() != null ? ctx : ctx.withReopen(() -> Files.newInputStream(REAL.resolve(file))));
    }
  }

  /** The text as the ingest reads a file: its content may be read again ({@link ParseContext#reopen}). */
  static Parse text(InputFormat f, String text, ParseContext ctx) throws IOException {
    return bytes(f, text.getBytes(StandardCharsets.UTF_8), ctx);
  }

  static Parse bytes(InputFormat f, byte[] bytes, ParseContext ctx) throws IOException {
    return run(f, new ByteArrayInputStream(bytes), ctx.reopen() != null ? ctx : ctx.withReopen(() -> new ByteArrayInputStream(bytes)));
  }

  /** The text as a stream read once (no {@link ParseContext#reopen}: a stream that cannot be read again). */
  static Parse once(InputFormat f, String text, ParseContext ctx) throws IOException {
    return run(f, new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), ctx);
  }

  private static Parse run(InputFormat f, InputStream in, ParseContext ctx) throws IOException {
    Parse p = new Parse();
    if (f instanceof VllmLogFormat log) {
      p.explain = log.explain(in, ctx, p.full);
      p.lines = p.explain.lines;
    } else {
      p.lines = f.parse(in, ctx, p.full);
    }
    assertEquals(p.lines, p.sink.records + p.sink.other + p.sink.rejects.size(),
        "lines = records + other + rejects");
    return p;
  }

  /** Matched lines per kind (kinds with none left out). */
  Map<String, Long> kinds() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (ExplainStats.KindCount k : explain.kinds()) {
      if (k.matched > 0) {
        m.put(k.kind, k.matched);
      }
    }
    return m;
  }

  CollectingSink.Req request(String id) {
    return sink.requests.stream().filter(r -> r.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no request " + id + " in " + sink.requests));
  }

  static long ns(String instant) {
    Instant i = Instant.parse(instant);
    return i.getEpochSecond() * 1_000_000_000L + i.getNano();
  }
}
