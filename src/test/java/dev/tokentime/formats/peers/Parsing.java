package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Runs a parser on a string or bytes against a CollectingSink, checking the accounting. */
final class Parsing {
  private Parsing() {}

  static CollectingSink parse(InputFormat f, String text) throws IOException {
    return parse(f, text.getBytes(StandardCharsets.UTF_8), "dir");
  }

  static CollectingSink parse(InputFormat f, byte[] bytes, String run) throws IOException {
    CollectingSink sink = new CollectingSink();
    long units = f.parse(new ByteArrayInputStream(bytes), new ParseContext("test-input", run, false, null, null), sink);
    assertEquals(units, sink.records + sink.other + sink.rejects.size(),
        "units read = records + other + rejects (" + sink.records + " + " + sink.other + " + "
            + sink.rejects.size() + "); rejects: " + sink.rejects);
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
