package dev.tokentime.formats.trtllm;

import dev.tokentime.testing.RecordingSink;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The real TensorRT-LLM samples (copied from ../shared/real-logs/trtllm with their provenance), split
 * at the {@code === SAMPLE <ID> | ...} header lines the collector added (they are not the source's);
 * and parsing on strings with the accounting checked.
 */
final class Samples {
  private Samples() {}

  static final Path REAL = Path.of("src/test/resources/real-logs/trtllm");

  /** The samples of a multi-sample file by id, each exactly the text after its header line. */
  static Map<String, String> split(String file) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    String id = null;
    StringBuilder text = new StringBuilder();
    for (String line : Files.readString(REAL.resolve(file), StandardCharsets.UTF_8).split("\n", -1)) {
      if (line.startsWith("=== SAMPLE ")) {
        if (id != null) {
          out.put(id, text.toString());
        }
        id = line.substring("=== SAMPLE ".length()).split(" ")[0];
        text.setLength(0);
        continue;
      }
      if (id != null) {
        text.append(line).append('\n');
      }
    }
    if (id != null) {
      out.put(id, text.toString().replaceAll("\n\n$", "\n"));
    }
    return out;
  }

  static String read(String file) throws IOException {
    return Files.readString(REAL.resolve(file), StandardCharsets.UTF_8);
  }

  static RecordingSink parse(InputFormat f, String text) throws IOException {
    return parse(f, text.getBytes(StandardCharsets.UTF_8), null);
  }

  static RecordingSink parse(InputFormat f, byte[] bytes, ZoneId zone) throws IOException {
    RecordingSink sink = new RecordingSink();
    long units = f.parse(new ByteArrayInputStream(bytes),
        new ParseContext("test-input", "dir", false, zone, null), sink);
    assertEquals(units, sink.c.records + sink.c.other + sink.c.rejects.size(),
        "units read = records + other + rejects (" + sink.c.records + " + " + sink.c.other + " + "
            + sink.c.rejects.size() + "); rejects: " + sink.c.rejects);
    return sink;
  }

  /** Bytes of a string with an invalid UTF-8 sequence where {@code @@} stands. */
  static byte[] withInvalidUtf8(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    int at = text.indexOf("@@");
    b[at] = (byte) 0xC3;
    b[at + 1] = (byte) 0x28;
    return b;
  }
}
