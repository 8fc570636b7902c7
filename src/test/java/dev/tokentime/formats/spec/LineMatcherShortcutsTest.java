package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * LineMatcher skips regexes it can prove cannot match (a prefix that cannot start at the next
 * character; peeling that must stop at a kind's literal start). These shortcuts must never change
 * a result: every line of the real vLLM logs, the sample log and a set of made-up shapes is
 * matched with and without them, and the two MatchedLines must agree field by field.
 */
class LineMatcherShortcutsTest {
  static final LineSpec VLLM = SpecReader.load("vllm-log.spec");

  static final List<String> MADE_UP = List.of(
      "",
      " ",
      "INFO",
      "Generated response",
      "Generated | response x: output: '', output_token_ids: [], finish_reason: None",
      "api-1  | INFO 05-22 02:20:59 [logger.py:43] Received request chatcmpl-1: params: x.",
      "vllm-1  | (APIServer pid=1) INFO 05-22 02:20:59 [logger.py:43] Added request cmpl-2.",
      "[pod/vllm-0/server] INFO 05-22 02:20:59 [async_llm.py:346] Finished request cmpl-3.",
      "авг 18 14:15:04 gpu01 python3[28059]: INFO 08-18 14:15:04 [loggers.py:123] Engine 000: "
          + "Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 2.0 tokens/s, Running: 1 reqs, "
          + "Waiting: 0 reqs, GPU KV cache usage: 1.0%, Prefix cache hit rate: 0.0%",
      "Aug 18 14:15:04 gpu01 vllm@0[28059]: Iteration(7): 1 context requests, 12 context tokens, "
          + "0 generation requests, 0 generation tokens, iteration elapsed time: 3.5 ms",
      "2025-07-08 17:24:00 - vllm.engine.metrics - INFO - Avg prompt throughput: 0.0 tokens/s, "
          + "Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Swapped: 0 reqs, Pending: 0 reqs",
      "2025-05-14 17:45:10.901 1647689 kserve.trace Received request x: y.",
      "2026-01-01T00:00:00.000000Z (EngineCore pid=925) (RayWorkerProc pid=8272) INFO 01-01 00:00:00 "
          + "[core.py:1] Added request cmpl-9.",
      "\u001b[1;36m(APIServer pid=1)\u001b[0;0m INFO 01-01 00:00:00 [logger.py:71] Generated response "
          + "cmpl-1 (streaming delta): output: 'a', output_token_ids: [5], finish_reason: None",
      "INFO:     10.0.0.7:40000 - \"POST /v1/completions HTTP/1.1\" 200 OK",
      "Received request 1234 | x",
      "Added request  ",
      "DEBUG 01-01 00:00:00 [v1/metrics/loggers.py:271] Generated response r: output: '', "
          + "output_token_ids: None",
      "Traceback (most recent call last):",
      // journald's first field is 3 to 12 characters: its precheck stops reading at the 13th
      "Decembre2026 12 10:00:00 gpu01 vllm[7]: INFO 01-01 00:00:00 [core.py:1] Added request r12.",
      "Decembre2026x 12 10:00:00 gpu01 vllm[7]: INFO 01-01 00:00:00 [core.py:1] Added request r13.",
      "Dec 12 10:00:00 gpu01 vllm[7]: INFO 01-01 00:00:00 [core.py:1] Added request r3.",
      "Decembre2026",
      "é INFO 01-01 00:00:00 [x.py:1] Added request r.",
      // an actor name's own parenthesised id, whole, empty, unclosed, with a space, with a rank
      "(Llumlet(iid=f3664) pid=26863) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(Llumlet() pid=1) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(Llumlet(iid=f3664 pid=1) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(Llumlet(iid f3664) pid=1) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(Llumlet(a=1,b:2.c-d) rank=3 pid=1, ip=10.0.0.1) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=589, ip=240.248.0.198) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(MapWorker(MapBatches(a)(b)) pid=5) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(MapWorker(MapBatches(a((b))) pid=5) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(MapWorker(MapBatches(a) pid=5) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(VllmWorker TP1 pid=21355) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(VllmWorker PP1_TP2 pid=2976907) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(VllmWorker DCP12_PCP3_EP0 pid=7) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(VllmWorker TP1_ pid=7) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(VllmWorker TP pid=7) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(VllmWorker XP1 pid=7) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "(VllmWorker TP1 rank=2 pid=7) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "[1;36m(APIServer pid=1)[0;0m INFO 01-01 00:00:00 [x.py:1] Added request r.",
      // journalctl -o short-iso and its near misses (its precheck)
      "2025-08-12T10:00:03+0000 gpu-1 vllm[2107]: (APIServer pid=1) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "2025-08-12T10:00:03.123456+0000 gpu-1 vllm@x/y.z[2107]: INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "2025-08-12T10:00:03Z  gpu-1   vllm[2107]:INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "2025-08-12T10:00:03Z gpu-1 vllm 2107: INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "2025-08-12T10:00:03Z stdout F INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "2025-08-12T10:00:03Z gpu(1) vllm[2107]: INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "2025-08-12T10:00:03Z gpu-1 [2107]: INFO 01-01 00:00:00 [x.py:1] Added request r.",
      // rsyslog's file format without a pid: only before a line start, never a level word as host
      "2025-08-12T10:00:03.123456+00:00 gpu-1 vllm: INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "2025-08-12T10:00:03.123456+00:00 gpu-1 vllm:(APIServer pid=1) INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "2025-08-12T10:00:03.123456+00:00 gpu-1 vllm: Traceback (most recent call last):",
      "2025-08-12T10:00:03.123456+00:00 gpu-1 vllm: [rank0]: Traceback (most recent call last):",
      "2025-08-12T10:00:03Z  INFO engine.core: [x] Added request r.",
      "2025-08-12T10:00:03Z WARNING scheduler._schedule: INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "2025-08-12T10:00:03Z gpu-1 vllm@0.service: INFO: 10.0.0.1:1 - \"POST /v1/completions HTTP/1.1\" 200 OK",
      // Fluent Bit's stdout output and near misses of its precheck ("[", digits, "] ")
      "[0] kube.var.log.containers.vllm-0_default_vllm-abc.log: [[1733000000.123456789, {}], {\"log\"=>\"INFO 01-01 00:00:00 [x.py:1] Added request r.\"}]",
      "[17] vllm: [1733000000.123456789, {\"log\"=>\"INFO 01-01 00:00:00 [x.py:1] Added request r.\"}]",
      "[0]kube.x: [1733000000.1, {\"log\"=>\"INFO 01-01 00:00:00 [x.py:1] Added request r.\"}]",
      "[] kube.x: [1733000000.1, {\"log\"=>\"INFO 01-01 00:00:00 [x.py:1] Added request r.\"}]",
      "[0 kube.x: [1733000000.1, {\"log\"=>\"INFO 01-01 00:00:00 [x.py:1] Added request r.\"}]",
      "[0] INFO 01-01 00:00:00 [x.py:1] Added request r.",
      "[2025-08-12 10:00:03] INFO loggers.py:271: Added request r.");

  @Test
  void shortcutsNeverChangeWhatALineMatches() throws IOException {
    List<String> lines = new ArrayList<>(MADE_UP);
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(Path.of("src/test/resources/real-logs/vllm"))) {
      s.filter(p -> p.toString().endsWith(".log")).sorted().forEach(files::add);
    }
    files.add(Path.of("sample-logs/vllm/server.log"));
    files.add(Path.of("src/test/resources/real-logs/wrapped/excerpts.log"));
    try (Stream<Path> s = Files.list(Path.of("src/test/resources/real-logs/wrapped"))) {
      s.filter(p -> p.getFileName().toString().startsWith("fluentbit-")).sorted().forEach(files::add);
    }
    try (Stream<Path> s = Files.list(Path.of("src/test/resources/real-logs/field"))) {
      s.filter(p -> p.getFileName().toString().matches("\\d\\d-.*\\.log")).sorted().forEach(files::add); // vLLM's
    }
    try (Stream<Path> s = Files.list(Path.of("sample-logs/wrapped"))) {
      s.filter(p -> p.toString().endsWith(".log")).sorted().forEach(files::add); // every wrapper
    }
    for (Path f : files) {
      lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
    }
    LineMatcher fast = new LineMatcher(VLLM);
    LineMatcher reference = new LineMatcher(VLLM, false);
    int matched = 0;
    for (String line : lines) {
      MatchedLine a = new MatchedLine();
      MatchedLine b = new MatchedLine();
      fast.match(1, line, a);
      reference.match(1, line, b);
      assertEquals(describe(b), describe(a), () -> "line: " + line);
      if (a.kind != null) {
        matched++;
      }
    }
    // the comparison covered real work: most real lines are of a kind
    assertTrue(lines.size() > 300, "lines compared: " + lines.size());
    assertTrue(matched > lines.size() / 2, "matched " + matched + " of " + lines.size());
  }

  /**
   * The hand-compiled patterns (FastPatterns) and the fixed-width starts (LeadingSkeleton) against
   * the regexes on a generated log (the benchmark's shape: container times, process tags,
   * streaming deltas, access lines, stats) and on thousands of near misses of its lines: a
   * character dropped, doubled or replaced by one a pattern cares about, the line cut short.
   */
  @Test
  void handCompiledPatternsAgreeWithTheRegexesOnGeneratedLinesAndTheirMutations(@org.junit.jupiter.api.io.TempDir Path tmp)
      throws IOException {
    dev.tokentime.generate.SweepWriter.write(tmp, new dev.tokentime.generate.SweepWriter.Spec(
        List.of(4), 6, null, 0, 40, 3, 4, 7, "vllm-log", "steps", false));
    List<String> lines = new ArrayList<>();
    try (Stream<Path> s = Files.walk(tmp)) { // one folder per level (c4/c4.log)
      for (Path f : s.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
        lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
      }
    }
    assertTrue(lines.size() >= 150, "generated lines: " + lines.size());
    LineMatcher fast = new LineMatcher(VLLM);
    LineMatcher reference = new LineMatcher(VLLM, false);
    java.util.Random rnd = new java.util.Random(20);
    String alphabet = " :-.,()[]TZ+0123456789aINFOPFstdoutpid=Generated response'\"\t/h";
    List<String> seeds = new ArrayList<>(lines.subList(0, 40));
    seeds.addAll(MADE_UP);
    seeds.add("2026-01-01T00:00:00.5+02:00 stdout F (EngineCore rank=1 pid=7, ip=10.0.0.1) WARNING 01-01 "
        + "00:00:00,123 [<frozen>/x-y.py:9]  Generated response r-1 (streaming complete): output: 'x, "
        + "output_token_ids: [1]', output_token_ids: [2], finish_reason: length  ");
    seeds.add("Jan  5 10:00:00 host vllm[9]: INFO 01-05 10:00:00 [a.py:1] Added request r.");
    seeds.add("Jan  5 10:00:00 vllm[9]: INFO 01-05 10:00:00 [a.py:1] Added request r.");
    seeds.add("Jan  5 10:00:00 vllm: INFO 01-05 10:00:00 [a.py:1] Added request r.");
    seeds.add("Generated response r: output: None, output_token_ids: None, finish_reason: stop x");
    // the 2026-08 line: the finish reason alone after the text, and the ids' DEBUG line
    seeds.add("(APIServer pid=1) INFO 08-20 10:00:06 [request_logger.py:95] Generated response r (streaming delta): "
        + "output: 'a, finish_reason: None', finish_reason: stop");
    seeds.add("Generated response r (streaming complete): output: 'a, output_token_ids: [1]', finish_reason: streaming_complete ");
    seeds.add("Generated response r: output: 'x', finish_reason: length, output_token_ids: [1]");
    seeds.add("DEBUG 08-20 10:00:06 [request_logger.py:88] Generated response r (streaming delta) details: output_token_ids: [1]");
    // the header's source pasted as a markdown link (vllm-ascend#10532), and near forms of it
    for (String src : new String[] {"[[loggers.py:259](http://loggers.py:259/)]", "[[loggers.py:259](https://x.py:259/)] ",
        "[[a.py:1](http://a.py:1)]", "[[a.py:1](http://a b)]", "[[a.py:1](http://a.py:1/)", "[a.py:1](http://)]",
        "[[a.py:1](ftp://a)]", "[[a.py:1]"}) {
      seeds.add("(APIServer pid=1) INFO 06-11 12:33:49 " + src + " Engine 000: Avg prompt throughput: 0.0 tokens/s,"
          + " Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%");
    }
    // a finish reason cut short, a longer new one, one with a digit, and the five known words
    for (String reason : new String[] {"N", "No", "sto", "lengt", "length", "abort", "error", "None", "stop",
        "tool_calls", "stop2", "content_filter", "Stop", "abortx"}) {
      seeds.add("Generated response r (streaming delta): output: 'a', output_token_ids: [1], finish_reason: " + reason);
    }
    // the counted parts at and beyond their limits (fractions of 0-11 digits, offsets, levels)
    for (int n = 0; n <= 11; n++) {
      String frac = n == 0 ? "" : "." + "1234567890123".substring(0, n);
      for (String level : List.of("INFO", "WARNING", "WARN", "WARNINGS", "CRITICAL")) {
        seeds.add("2026-01-01T00:00:00" + frac + "Z (APIServer pid=1) " + level + " 01-01 00:00:00" + frac
            + " [logger.py:71] Finished request r" + n + ".");
      }
      seeds.add("2026-01-01T00:00:00" + frac + "+0100 (Worker_TP1 rank=0 pid=12) INFO:     1.2.3.4:5 - "
          + "\"POST /v1/completions HTTP/1.1\" 500 Internal Server Error");
    }
    int compared = 0;
    for (String line : seeds) {
      compare(fast, reference, line);
    }
    for (String line : lines) {
      compare(fast, reference, line);
      compared++;
    }
    for (String seed : seeds) {
      for (int k = 0; k < 150; k++) {
        String m = mutate(seed, rnd, alphabet);
        compare(fast, reference, m);
        compared++;
      }
    }
    assertTrue(compared > 5000, "compared " + compared);
  }

  private static void compare(LineMatcher fast, LineMatcher reference, String line) {
    MatchedLine a = new MatchedLine();
    MatchedLine b = new MatchedLine();
    fast.match(1, line, a, FastPatterns.printableAscii(line));
    reference.match(1, line, b);
    assertEquals(describe(b), describe(a), () -> "line: " + line);
  }

  private static String mutate(String s, java.util.Random rnd, String alphabet) {
    StringBuilder sb = new StringBuilder(s);
    int edits = 1 + rnd.nextInt(3);
    for (int e = 0; e < edits && sb.length() > 0; e++) {
      int at = rnd.nextInt(sb.length());
      switch (rnd.nextInt(5)) {
        case 0 -> sb.deleteCharAt(at);
        case 1 -> sb.insert(at, sb.charAt(at));
        case 2 -> sb.setCharAt(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
        case 3 -> sb.insert(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
        default -> sb.setLength(at);
      }
    }
    return sb.toString();
  }

  @Test
  void everyHandCompiledPatternIsOneASpecDeclares() throws IOException {
    StringBuilder specs = new StringBuilder();
    try (Stream<Path> s = Files.list(Path.of("parsers"))) {
      for (Path f : s.filter(p -> p.toString().endsWith(".spec")).sorted().toList()) {
        specs.append(Files.readString(f)).append('\n');
      }
    }
    for (String p : FastPatterns.patterns()) {
      assertTrue(specs.toString().contains(" " + p + "\n"), () -> "FastPatterns holds a pattern no spec declares "
          + "(the spec changed: update or drop its equivalent): " + p);
    }
    for (String p : FastPatterns.prechecked()) {
      assertTrue(specs.toString().contains(" " + p + "\n"), () -> "FastPatterns prechecks a pattern no spec declares: " + p);
    }
    // and the vLLM log's hot patterns are the ones in use
    assertTrue(VLLM.prefixes().stream().anyMatch(p -> p.pattern().pattern().equals(FastPatterns.CONTAINER)));
    assertTrue(VLLM.kinds().stream().anyMatch(k -> k.pattern().pattern().equals(FastPatterns.GENERATED)));
  }

  @Test
  void aFixedWidthStartIsReadFromTheRegex() {
    assertEquals(11, LeadingSkeleton.of("^(?<ymd>\\d{4}-\\d\\d-\\d\\d) (?<hms>x)?").length());
    assertFalse(LeadingSkeleton.of("^(?<ymd>\\d{4}-\\d\\d-\\d\\d) ").mayMatch("2026-01-01T00:00:00Z", 0));
    assertTrue(LeadingSkeleton.of("^(?<ymd>\\d{4}-\\d\\d-\\d\\d) ").mayMatch("x 2026-01-01 00", 2));
    assertEquals(0, LeadingSkeleton.of("^(?:a|b)c").length(), "an alternation ends it");
    assertEquals(1, LeadingSkeleton.of("^a(?:b)?c").length(), "an optional group ends it");
    assertEquals(1, LeadingSkeleton.of("^ab*").length(), "a repeated atom is not part of it");
    assertEquals(3, LeadingSkeleton.of("^[^\\]\\s][\\w.-]\\(").length());
    assertFalse(LeadingSkeleton.of("^[^\\]\\s]").mayMatch("]", 0));
    assertTrue(LeadingSkeleton.of("^[^\\]\\s]").mayMatch("é", 0), "non-ASCII is never ruled out");
  }

  @Test
  void aStripPatternsRequiredTextIsFoundOnlyWhereEveryMatchHasIt() {
    assertEquals("x across cluster]", LineMatcher.requiredLiteral("\\s\\[repeated \\d+x across cluster\\]\\s*$"));
    assertEquals("[", LineMatcher.requiredLiteral("\\x1b\\[[0-9;]*[A-Za-z]"));
    assertEquals("ab", LineMatcher.requiredLiteral("ab+c?"));
    assertEquals("ab", LineMatcher.requiredLiteral("abc{0,2}d"), "c may be absent, d stands alone");
    assertEquals("", LineMatcher.requiredLiteral("foo|bar"), "an alternation: nothing is required");
    assertEquals("tail", LineMatcher.requiredLiteral("(?:opt)?tail"), "a group's text may be absent");
  }

  @Test
  void anOutputThatQuotesTheFieldNamesIsSplitAtTheLastOne() {
    MatchedLine m = new MatchedLine();
    new LineMatcher(VLLM).match(1, "Generated response r1: output: 'a, output_token_ids: [1]', "
        + "output_token_ids: [5, 6], finish_reason: stop", m);
    assertEquals("generated", m.kind.name());
    assertEquals("'a, output_token_ids: [1]'", m.group("output"));
    assertEquals("[5, 6]", m.group("ids"));
    assertEquals("stop", m.group("reason"));
  }

  @Test
  void aPatternThatRanOutOfInputMightStillMatch() {
    Pattern p = Pattern.compile("^(?<md>\\d\\d-\\d\\d) INFO");
    assertTrue(LineMatcher.canMatchText(p, "0"));
    assertTrue(LineMatcher.canMatchText(p, "05-22 INFO and more"));
    assertFalse(LineMatcher.canMatchText(p, "x"));
    assertFalse(LineMatcher.canMatchText(p, "05-22 DEBUG"));
    // journald's first field is any non-space run: it cannot be ruled out by one character
    Pattern journald = VLLM.prefixes().stream().filter(x -> x.name().equals("journald")).findFirst()
        .orElseThrow().pattern();
    assertTrue(LineMatcher.canMatchText(journald, "G"));
    assertFalse(LineMatcher.canMatchText(journald, "Generated response "));
  }

  private static String describe(MatchedLine m) {
    StringBuilder sb = new StringBuilder();
    sb.append("kind=").append(m.kind == null ? null : m.kind.name())
        .append(" prefixes=").append(m.prefixes)
        .append(" values=").append(m.prefixValues)
        .append(" message=").append(m.message())
        .append(" groups=").append(m.groups)
        .append(" times=");
    for (MatchedLine.TimeReading t : m.times) {
      sb.append(t.rule().kind()).append(java.util.Arrays.toString(t.parts()));
    }
    return sb.toString();
  }
}
