package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.formats.vllm.VllmLogFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A line log's bytes that are not UTF-8 (a prompt logged in Latin-1: "café" as 63 61 66 E9) cost
 * no record whose values are whole: the Received line of such a prompt was a reject, and its
 * request lost its arrival. Where the bytes fall in an id, a time or a wrapper's identity, the
 * line is still a reject naming which (two ids of different bytes would read as one).
 */
class LossyLinesTest {
  static final ParseContext CTX = new ParseContext("server.log", "r1", false, ZoneOffset.UTC, 2026);

  static final String RECEIVED = "INFO 01-01 00:00:01 [logger.py:43] Received request %s: prompt: '%s',"
      + " params: SamplingParams(n=1, max_tokens=16), prompt_token_ids: [1, 2, 3], lora_request: None.\n";

  @Test
  void aLatin1PromptKeepsItsRequestAnIdOrAnOtherLineOfSuchBytesDoesNot() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes(String.format(RECEIVED, "cmpl-1", "caf\u00e9 cr\u00e8me").getBytes(StandardCharsets.ISO_8859_1));
    b.writeBytes(String.format(RECEIVED, "cmpl-\u00e9", "x").getBytes(StandardCharsets.ISO_8859_1));
    b.writeBytes("INFO 01-01 00:00:01 [other.py:1] d\u00e9j\u00e0 vu\n".getBytes(StandardCharsets.ISO_8859_1));
    b.writeBytes("INFO 01-01 00:00:02 [async_llm.py:346] Added request cmpl-1.\n".getBytes(StandardCharsets.UTF_8));
    CollectingSink s = new CollectingSink();
    ((SpecFormat) new VllmLogFormat()).run(new ByteArrayInputStream(b.toByteArray()), CTX, s, null, p -> { });
    assertEquals(List.of("cmpl-1"), s.requests.stream().map(CollectingSink.Req::id).toList());
    assertEquals(1_767_225_601_000_000_000L, s.requests.get(0).arrivalNs(), "its arrival: the Received line");
    assertEquals(List.of("invalid UTF-8 (a malformed byte sequence) in its id; the line is damaged",
        "invalid UTF-8 (a malformed byte sequence); the line is damaged"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(List.of(2L, 3L), s.rejects.stream().map(CollectingSink.Rej::lineNo).toList());
  }
}
