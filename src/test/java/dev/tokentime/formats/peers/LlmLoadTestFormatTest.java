package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import dev.tokentime.testing.RecordingSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * openshift-psap/llm-load-test's output files: a real non-streaming run of 2024 (a fork's
 * committed output, real-logs/tools/llm-load-test-2024-nonstreaming-c2: bare NaN statistics, the
 * prompt in input_id) and a streaming run written by the tool's own writer of 2025
 * (constructed/llm-load-test-streaming, README there); cuts and bad values on strings.
 */
class LlmLoadTestFormatTest {
  static final Path REAL = Path.of("src/test/resources/real-logs/tools/llm-load-test-2024-nonstreaming-c2/output.json");
  static final Path STREAMING = Path.of("src/test/resources/constructed/llm-load-test-streaming/output-003.json");
  final LlmLoadTestFormat format = new LlmLoadTestFormat();

  static RecordingSink read(byte[] b, boolean keepText) throws IOException {
    RecordingSink s = new RecordingSink();
    long units = new LlmLoadTestFormat().parse(new ByteArrayInputStream(b),
        new ParseContext("output.json", "dir", keepText, null, null), s);
    assertEquals(units, s.c.records + s.c.other + s.c.rejects.size(), s.c.rejects.toString());
    return s;
  }

  static String sniffed(Path p) throws IOException {
    byte[] b = Files.readAllBytes(p);
    InputFormat f = FormatRegistry.standard().sniff(new Sample(p.getFileName().toString(), b, b.length));
    return f == null ? null : f.id();
  }

  @Test
  void theRealNonStreamingRunIsItsRequestsLevelAndSummary() throws IOException {
    assertEquals("llm-load-test-json", sniffed(REAL));
    RecordingSink s = read(Files.readAllBytes(REAL), false);
    assertEquals(38, s.c.records, "36 requests, the config, the summary");
    assertEquals(List.of(), s.c.rejects);
    assertEquals(2.0, s.c.levels.get("dir")[1]);
    RequestRecord r = s.request("0");
    assertEquals(3, r.lineNo);
    assertEquals(1730235864542380600L, r.arrivalNs, "start_time 1730235864.5423806 s, to the ns as written");
    assertEquals(1730235866064870400L, r.finishedNs);
    assertEquals(RequestRecord.NONE, r.firstTokenNs, "non-streaming: no first token");
    assertEquals(1522.4897861480713, r.e2eMs, 0.0);
    assertNull(r.ttftMs);
    assertNull(r.tpotMs, "no itl without a first token");
    assertEquals("36.249756813049316", r.extras.get("llm_load_test_tpot_ms"));
    assertEquals(75, r.promptTokens);
    assertEquals(42, r.outputTokens);
    assertEquals("ok", r.status);
    assertEquals("stop", r.finishReason);
    assertEquals("42", r.extras.get("output_tokens_before_timeout"));
    assertEquals("0", r.extras.get("user_id"));
    assertFalse(r.extras.containsKey("prompt"), "the prompt the plugin wrote in input_id stays out: " + r.extras);
    assertFalse(r.extras.containsKey("input_id"));
    assertFalse(r.extras.containsKey("output_text"));
    assertEquals("1", s.request("35").extras.get("user_id"));
    List<String> m = s.c.reported;
    assertEquals(48, m.size(), "5 metrics x 8 statistics (ttft, itl, tt_ack: NaN, no figure) + 7 run figures + duration: " + m);
    assertTrue(m.contains("dir 2.0 tpot median 35.59918197474085 ms"), m.toString());
    assertTrue(m.contains("dir 2.0 input_tokens percentile_95 116.75 tokens"), m.toString());
    assertTrue(m.contains("dir 2.0 throughput_full_duration value 54.9520303880812 tokens/s"), m.toString());
    assertTrue(m.contains("dir 2.0 failure_rate value 0.0 %"), m.toString());
    assertTrue(m.contains("dir 2.0 duration value 30.0 s"), m.toString());
    assertTrue(m.stream().noneMatch(x -> x.contains(" ttft ") || x.contains(" itl ") || x.contains(" tt_ack ")), m.toString());

    RecordingSink kept = read(Files.readAllBytes(REAL), true);
    assertTrue(kept.request("0").extras.get("prompt").startsWith("You are a helpful assistant"));
    assertTrue(kept.request("0").extras.get("output_text").startsWith("\nEU leaders"));
  }

  @Test
  void aStreamingRunKeepsItsTimesFiguresAndFailures() throws IOException {
    assertEquals("llm-load-test-json", sniffed(STREAMING));
    RecordingSink s = read(Files.readAllBytes(STREAMING), false);
    assertEquals(14, s.c.records);
    assertEquals(List.of(), s.c.rejects);
    assertEquals(3.0, s.c.levels.get("dir")[1]);
    RequestRecord r = s.request("0");
    assertEquals(1733563200125000000L, r.arrivalNs);
    assertEquals(1733563200375000000L, r.firstTokenNs);
    assertEquals(1733563202375000000L, r.finishedNs);
    assertEquals(String.valueOf(1733563200175000000L), r.extras.get("ack_time_ns"));
    assertEquals(250.0, r.ttftMs, 0.0);
    assertEquals(2250.0, r.e2eMs, 0.0);
    assertEquals(100.0, r.tpotMs, 0.0, "the tool's itl, (end - first token)/(N - 1): tokentime's TPOT");
    assertEquals("107.14285714285714", r.extras.get("llm_load_test_tpot_ms"), "its tpot, response_time / N");
    assertEquals("49.99995231628418", r.extras.get("tt_ack_ms"));
    assertEquals("11", r.extras.get("input_id"));
    assertEquals("29", s.request("3").extras.get("output_tokens_before_timeout"));
    RequestRecord http = s.request("5");
    assertEquals("error", http.status);
    assertEquals(500, http.httpStatus);
    assertTrue(http.error.startsWith("HTTPError('500 Server Error"), http.error);
    assertEquals("true", http.extras.get("tool_failed"));
    RequestRecord conn = s.request("9");
    assertEquals("error", conn.status);
    assertNull(conn.httpStatus, "a connection error has no status code");
    RequestRecord empty = s.request("11");
    assertEquals("error", empty.status, "a 200 without data is a failure to tokentime");
    assertEquals(200, empty.httpStatus);
    assertEquals("false", empty.extras.get("tool_failed"), "and a success to the tool");
    assertTrue(empty.error.contains("without error_text"), empty.error);
    List<String> m = s.c.reported;
    assertTrue(m.contains("dir 3.0 itl percentile_99 195.00000000000003 ms"), m.toString());
    assertTrue(m.contains("dir 3.0 total_failures value 3.0 requests"), m.toString());
    assertTrue(m.contains("dir 3.0 req_completed_within_test_duration value 7.0 requests"), m.toString());
  }

  @Test
  void aCutFileKeepsTheRequestsBeforeTheCut() throws IOException {
    byte[] whole = Files.readAllBytes(STREAMING);
    String text = new String(whole, StandardCharsets.UTF_8);
    // cut inside request 4's object (line 84, the line after its opening brace): requests 0-3 are kept
    int at = text.indexOf("\"input_id\": 21");
    RecordingSink s = read(Arrays.copyOf(whole, at), false);
    assertEquals(4, s.c.records);
    assertEquals(1, s.c.rejects.size());
    assertEquals(84, s.c.rejects.get(0).lineNo(), "the line the file ends on");
    assertTrue(s.c.rejects.get(0).reason().contains("nothing after this point could be read"), s.c.rejects.toString());
    assertTrue(s.c.levels.isEmpty(), "the config follows the results: no level");
    assertEquals(List.of(), s.c.reported);
    // cut inside the summary: every request and the level kept, the summary a reject
    int inSummary = text.indexOf("\"percentile_90\"", text.indexOf("\"summary\""));
    RecordingSink t = read(Arrays.copyOf(whole, inSummary), false);
    assertEquals(13, t.c.records, "12 requests and the config");
    assertEquals(1, t.c.rejects.size(), t.c.rejects.toString());
    assertEquals(3.0, t.c.levels.get("dir")[1]);
    assertEquals(List.of("dir 3.0 duration value 10.0 s"), t.c.reported);
  }

  static final String REQ = "{\"user_id\": 0, \"input_id\": 1, \"input_tokens\": 10, \"output_tokens\": 3,"
      + " \"start_time\": 1733563200.0, \"first_token_time\": 1733563200.1, \"end_time\": 1733563200.3,"
      + " \"response_time\": 300.0, \"ttft\": 100.0, \"itl\": 100.0, \"error_code\": null, \"error_text\": null}";

  static String file(String results, String config, String summary) {
    return "{\"results\": [" + results + "], \"config\": " + config + ", \"summary\": " + summary + "}";
  }

  static final String CONFIG = "{\"load_options\": {\"type\": \"constant\", \"concurrency\": 4, \"duration\": 20}}";

  @Test
  void badValuesAreRejectsSayingWhy() throws IOException {
    CollectingSink back = Parsing.parse(format, file(REQ.replace("\"end_time\": 1733563200.3", "\"end_time\": 1733563199.3")
        + ", " + REQ.replace("\"output_tokens\": 3", "\"output_tokens\": 2.5")
        + ", " + REQ.replace("\"start_time\": 1733563200.0", "\"start_time\": \"now\"")
        + ", " + REQ.replace("\"ttft\": 100.0", "\"ttft\": -5.0")
        + ", " + REQ.replace("\"error_code\": null", "\"error_code\": \"E42\""), CONFIG, "{}"));
    assertEquals(List.of("[0]: end_time 1733563199.3 is before start_time 1733563200",
        "[1]: output_tokens: expected a token count, got 2.5",
        "[2]: start_time: \"now\" is not a time in seconds",
        "[3]: ttft out of range: -5.0 ms (a duration is 0 to 30 days)",
        "[4]: error_code: expected a status code, got \"E42\""),
        back.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(2, back.records, "the config and the (empty) summary");

    // a summary figure out of range keeps none of the summary; the requests and level stay
    CollectingSink sum = Parsing.parse(format, file(REQ, CONFIG,
        "{\"ttft\": {\"min\": 1.0, \"max\": Infinity}, \"total_requests\": 1}"));
    assertEquals(List.of("summary.ttft.max: Infinity is no finite number; none of the summary's figures kept"),
        sum.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(2, sum.records);
    assertEquals(List.of("dir 4.0 duration value 20.0 s"), sum.reported);
    CollectingSink count = Parsing.parse(format, file(REQ, CONFIG, "{\"total_requests\": 1.5}"));
    assertEquals(1, count.rejects.size());
    assertTrue(count.rejects.get(0).reason().startsWith("summary.total_requests: 1.5 is no whole number"), count.rejects.toString());
    CollectingSink rate = Parsing.parse(format, file(REQ, CONFIG, "{\"failure_rate\": 250.0}"));
    assertEquals("summary.failure_rate out of range: 250.0 (a percentage, 0 to 100); none of the summary's figures kept",
        rate.rejects.get(0).reason());

    // a concurrency that is no number of users: no level, the requests still read
    CollectingSink conc = Parsing.parse(format, file(REQ, "{\"load_options\": {\"concurrency\": [1, 2]}}", "{}"));
    assertEquals(List.of("config: load_options.concurrency: expected the file's number of users, got [1,2];"
        + " the run's level and duration not kept"), conc.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(2, conc.records);

    // the first layout (February 2024) has no summary; NaN statistics (before 2025) are no figure
    CollectingSink old = Parsing.parse(format, "{\"results\": [" + REQ.replace("\"input_id\": 1", "\"input_text\": \"hi\"")
        + "], \"config\": " + CONFIG + ", \"summary\": {\"itl\": {\"min\": NaN}}}");
    assertEquals(List.of(), old.rejects);
    assertEquals(3, old.records);
    assertEquals(List.of("dir 4.0 duration value 20.0 s"), old.reported);
  }

  @Test
  void sniffClaimsOnlyItsOwnHead() {
    assertEquals(90, format.sniff(sample("output-001.json", "{\n  \"results\": [\n    {\n      \"user_id\": 7,\n"
        + "      \"input_id\": 3,")));
    assertEquals(90, format.sniff(sample("output.json", "{\"results\": [{\"user_id\": 0, \"input_text\": \"x\"")));
    assertEquals(0, format.sniff(sample("x.json", "{\"results\": [{\"id\": 0}]}")));
    assertEquals(0, format.sniff(sample("x.json", "{\"results\": [{\"user_id\": \"u\", \"input_id\": 1}]}")));
    // the v2 draft of December 2023 (start, end, TTFT; removed before any release) is not claimed
    assertEquals(0, format.sniff(sample("output.json", "{\"results\": [{\"start\": 1703281620.5, \"end\": 1703281624.6}]}")));
  }

  static Sample sample(String name, String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return new Sample(name, b, b.length);
  }
}
