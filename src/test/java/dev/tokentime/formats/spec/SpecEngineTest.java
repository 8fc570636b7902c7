package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.ParseContext;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The spec engine on its own: a spec read from text, key: value lists, unknown fields, errors. */
class SpecEngineTest {
  static final String SPEC = ""
      + "# a made-up engine\n"
      + "format  toy-log\n"
      + "description a toy\n"
      + "sniff 70 ^TOY\\s\n"
      + "prefix stamp ^(?<ts>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?Z)\\s\n"
      + "  time rfc3339 ts\n"
      + "kind load engine_stats\n"
      + "  match ^TOY load: (?<list>.*)$\n"
      + "  list list x_\n"
      + "  field busy -> running reqs\n"
      + "  field kv -> kv_usage %\n"
      + "kind step steps\n"
      + "  match ^TOY step (?<iter>\\d+) took (?<durationMs>[\\d.]+) s(?<warm> warm)?\n"
      + "  group durationMs -> duration_ms s\n"
      + "  group warm -> extras.warm flag\n";

  static final class Toy extends SpecFormat {
    Toy() {
      super(SpecReader.read("toy.spec", SPEC));
    }

    @Override
    protected SpecParser.Handler handler(SpecParser parser, ParseContext ctx, dev.tokentime.ingest.RecordSink sink) {
      return (m, ts, clock, raw, off, len) -> SpecParser.Outcome.OTHER;
    }
  }

  @Test
  void aNewFormatIsASpecNotJava() throws Exception {
    CollectingSink sink = new CollectingSink();
    String text = "2026-01-02T03:04:05.5Z TOY load: busy: 4 reqs, kv: 25%, temp: 71 C, lanes: 1, 2, 3\n"
        + "2026-01-02T03:04:06Z TOY step 9 took 0.25 s warm\n"
        + "2026-01-02T03:04:07Z TOY step 3 took 0.5 s\n"
        + "TOY something else\n";
    long lines = new Toy().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("t", "r", false, null, null), sink);
    assertEquals(4, lines);
    assertEquals(3, sink.records);
    assertEquals(1, sink.other);
    assertEquals(List.of("line=1 ts=1767323045500000000 running=4 waiting=null swapped=null prompt=null gen=null"
        + " kv=0.25 prefix=null preempt=null extras={x_temp=71.0, x_lanes_1=1.0, x_lanes_2=2.0, x_lanes_3=3.0}"), sink.stats);
    assertEquals("iter=9 epoch=0 rank=null ts=1767323046000000000 dur=250.0 running=null waiting=null ctx=null/null"
        + " gen=null/null paused=null kv=null extras={warm=1.0}", sink.steps.get(0));
    assertTrue(sink.steps.get(1).startsWith("iter=3 epoch=1 "), "the counter went back: a new epoch");
    assertEquals(100_000_000L, sink.clocks.get(0).resolutionNs(), "one decimal: 0.1 s");
    assertEquals(70, new Toy().sniff(new dev.tokentime.ingest.Sample("x", "TOY load: busy: 1\n".getBytes(), 18)));
  }

  /**
   * A prefix whose time sits in an optional part: a line without it has no time from that prefix.
   * Before, such a line stopped the whole file ("internal error (NullPointerException …)").
   */
  @Test
  void aPrefixsOptionalTimeIsNoTimeWhereItIsAbsent() throws Exception {
    LineSpec spec = SpecReader.read("toy2.spec", SPEC.replace(
        "prefix stamp ^(?<ts>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?Z)\\s\n  time rfc3339 ts\n",
        "prefix stamp ^\\[(?:(?<ymd>\\d{4}-\\d\\d-\\d\\d) (?<hms>\\d\\d:\\d\\d:\\d\\d) )?node\\]\\s\n"
            + "  time date ymd hms\n"));
    class Toy2 extends SpecFormat {
      Toy2() {
        super(spec);
      }

      @Override
      protected SpecParser.Handler handler(SpecParser parser, ParseContext ctx, dev.tokentime.ingest.RecordSink sink) {
        return (m, ts, clock, raw, off, len) -> SpecParser.Outcome.OTHER;
      }
    }
    CollectingSink sink = new CollectingSink();
    String text = "[2026-01-02 03:04:05 node] TOY step 9 took 0.25 s\n"
        + "[node] TOY step 10 took 0.5 s\n";
    long lines = new Toy2().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("t", "r", false, null, null), sink);
    assertEquals(2, lines);
    assertEquals(2, sink.records, sink.rejects.toString());
    assertTrue(sink.steps.get(0).contains(" ts=1767323045000000000 "), sink.steps.get(0));
    assertTrue(sink.steps.get(1).startsWith("iter=10 "), sink.steps.get(1));
  }

  @Test
  void keyValueListsKeepListsOfNumbersTogether() {
    assertEquals(List.of(new KeyValueList.Entry("Accepted", "78 tokens"),
        new KeyValueList.Entry("Per-position acceptance rate", "0.615, 0.415, 0.169"),
        new KeyValueList.Entry("Avg Draft acceptance rate", "40.0%")),
        KeyValueList.parse("Accepted: 78 tokens, Per-position acceptance rate: 0.615, 0.415, 0.169, Avg Draft acceptance rate: 40.0%"));
    // vLLM 0.3's "Avg time/tok:149.4 ms" (vllm-project/vllm#2731): a key of its own, not a second
    // figure of the value before it
    assertEquals(List.of(new KeyValueList.Entry("Max iteration time", "386.7 ms"),
        new KeyValueList.Entry("Avg time/tok", "149.4 ms"), new KeyValueList.Entry("Running", "35 reqs")),
        KeyValueList.parse("Max iteration time: 386.7 ms, Avg time/tok:149.4 ms, Running: 35 reqs"));
    assertEquals(List.of(new KeyValueList.Entry("at", "10:00:03, step 4:5")),
        KeyValueList.parse("at: 10:00:03, step 4:5"), "a digit before the colon: no key");
    assertEquals("avg_draft_acceptance_rate", KeyValueList.extraName("Avg Draft acceptance rate"));
    assertEquals("mfu", KeyValueList.extraName("MFU"));
    assertEquals("number_of_draft_tokens", KeyValueList.extraName("Number of draft tokens tokens"));
    assertEquals("tokens_per_s", KeyValueList.extraName("tokens tokens per s"));
    assertEquals("a_b_a_b", KeyValueList.extraName("a b a b"));
  }

  @Test
  void aBrokenSpecSaysWhereAndWhy() {
    var e = assertThrows(IllegalArgumentException.class, () -> SpecReader.read("bad.spec",
        "format x\nkind k engine_stats\n  match ^(?<a>x)\n  field A -> no_such_column\n"));
    assertEquals("bad.spec:4: table engine_stats has no column no_such_column", e.getMessage());
    var r = assertThrows(IllegalArgumentException.class, () -> SpecReader.read("bad.spec", "format x\nprefix p ^(unclosed\n"));
    assertTrue(r.getMessage().startsWith("bad.spec:2: bad regex"), r.getMessage());
    var g = assertThrows(IllegalArgumentException.class, () -> SpecReader.read("bad.spec",
        "format x\nprefix p ^(?<a>\\d+)\\s\n  time rfc3339 b\n"));
    assertEquals("bad.spec:3: group b is not in the prefix's pattern", g.getMessage());
    // a pattern's trailing space would be dropped unseen ("^# " was read as "^#")
    var space = assertThrows(IllegalArgumentException.class, () -> SpecReader.read("bad.spec", "format x\nprefix p ^# \n"));
    assertTrue(space.getMessage().startsWith("bad.spec:2: trailing whitespace is dropped"), space.getMessage());
    var twice = assertThrows(IllegalArgumentException.class, () -> SpecReader.read("bad.spec",
        "format x\nresync \\[x\\]\nresync \\[y\\]\n"));
    assertEquals("bad.spec:3: one resync line (alternatives go in its regex)", twice.getMessage());
    var layer = assertThrows(IllegalArgumentException.class, () -> SpecReader.read("bad.spec",
        "layer w\nresync \\[x\\]\n"));
    assertTrue(layer.getMessage().contains("a layer has none"), layer.getMessage());
  }

  /**
   * A spec's resync, without Java: a line behind a wrapper no prefix knows is read from the first
   * start the spec names; a header ends the search (a message quoting a start stays a message).
   */
  @Test
  void aSpecsResyncReadsLinesBehindUnknownWrappers() {
    LineSpec spec = SpecReader.read("toy.spec", "format toy\nresync \\[toy\\]\n"
        + "prefix toy ^\\[toy\\]\\s\nkind ev engine_events start\n  match ^started (?<detail>\\S+)$\n");
    assertEquals(1, spec.headers());
    LineMatcher m = new LineMatcher(spec);
    MatchedLine line = new MatchedLine();
    m.match(1, "node-7 >>> [toy] started now", line);
    assertEquals("ev", line.kind.name());
    assertEquals(List.of(LineMatcher.UNKNOWN_WRAPPER, "toy"), line.prefixes);
    assertEquals("node-7 >>> ", line.prefixValue(LineMatcher.UNKNOWN_WRAPPER));
    m.match(2, "[toy] said: [toy] started now", line);
    assertEquals(null, line.kind, "after the header, a quoted start is the message's");
  }

  @Test
  void theShippedSpecsRead() {
    LineSpec vllm = SpecReader.load("vllm-log.spec");
    assertEquals("vllm-log", vllm.format());
    assertEquals(Map.of("Pending", "waiting", "Waiting", "waiting"),
        Map.of("Pending", vllm.kind("stats").fields().get("Pending").column(),
            "Waiting", vllm.kind("stats").fields().get("Waiting").column()));
  }

  /** Carriage returns read as a terminal showed the line, where what they overwrote was a progress bar. */
  @Test
  void aLineIsReadAsTheTerminalShowedIt() {
    assertEquals("INFO 06-16 x", SpecParser.asShown("INFO 06-16 x\r\r"), "CRLF through a terminal");
    assertEquals("INFO 06-16 x", SpecParser.asShown("\rProcessed:  5%|#  | 1/20 [00:01]\rINFO 06-16 x"));
    assertEquals("INFO 06-16 x", SpecParser.asShown("\rINFO 06-16 x"));
    assertEquals("a\rb", SpecParser.asShown("a\rb"), "no bar was overwritten: left to be named");
    // GitLab's section markers (CR and erase-line: hidden in every view of a job log) are dropped
    assertEquals("2026-01-21T09:47:05.094269Z 00O \u001b[0K\u001b[36;1mPreparing the executor",
        SpecParser.asShown("2026-01-21T09:47:05.094269Z 00O section_start:1768988825:prepare_executor\r\u001b[0K"
            + "\u001b[0K\u001b[36;1mPreparing the executor"));
    assertEquals("\u001b[0KHeader", SpecParser.asShown(
        "\u001b[0Ksection_end:1:a\r\u001b[0K\u001b[0Ksection_start:2:b_c[collapsed=true]\r\u001b[0K\u001b[0KHeader"));
    assertEquals("section_start:x:a\rb", SpecParser.asShown("section_start:x:a\rb"), "no marker: left to be named");
    assertEquals("a\rb\rc", SpecParser.asShown("a\rb\rc"), "lines ended by lone CRs: named");
    // a wrapper's prefix before the first redraw stays the line's
    assertEquals("2025-08-12T10:00:03Z INFO 06-16 x",
        SpecParser.asShown("2025-08-12T10:00:03Z \rProcessed:  5%|#  | 1/20 [00:01]\rINFO 06-16 x"));
    // vLLM's own weight-loading bar
    assertEquals("Loading safetensors checkpoint shards: 100% Completed | 2/2 [00:02<00:00]",
        SpecParser.asShown("Loading safetensors checkpoint shards:   0% Completed | 0/2 [00:00<?, ?it/s]"
            + "\rLoading safetensors checkpoint shards: 100% Completed | 2/2 [00:02<00:00]"));
  }

  /**
   * What may go on a wrapped line that already ends whole: the rest of its list (its last value
   * going on, further key: value items), never a bare print, a traceback or a progress bar.
   */
  /**
   * A cut last item with a long run of spaces after its colon, then a character of no value: the
   * pattern backtracked in quadratic time (a line of 80,000 spaces held an ingest for a minute).
   * The bound is no benchmark: linear work finishes in milliseconds, the old one in minutes.
   */
  @Test
  void aLongCutItemIsJudgedInLinearTime() {
    String tail = "#queue-req: 0, X: " + " ".repeat(200_000) + "!";
    boolean judged = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
        () -> SpecParser.listTail(tail, true));
    org.junit.jupiter.api.Assertions.assertFalse(judged);
  }

  @Test
  void onlyTheRestOfAListGoesOnAWholeWrappedLine() {
    for (String tail : List.of("input throughput (token/s): 12345.67", "#queue-req: 0, #prealloc-req: 0, #inflight-req: 0",
        "cuda graph: True, input throughput (token/s): 1.0", "Prefix cache hit rate: GPU: 12.5%, CPU: 0.0%.",
        "Avg time/tok: 149.4 ms.", "#queue-req: 1,")) {
      assertTrue(SpecParser.listTail(tail, false), tail);
    }
    for (String tail : List.of("input throughput (token/s): 0.00warmup done", "#queue-req: 1, warmup done, 3 requests sent",
        "#queue-req: 1, Traceback (most recent call last):",
        "#queue-req: 1, Processed prompts: 100%|##########| 8/8 [00:01<00:00,  5.31it/s]")) {
      assertTrue(!SpecParser.listTail(tail, false), tail);
    }
    // a piece that filled the width may end inside a key or a value; never inside a progress bar
    assertTrue(SpecParser.listTail("#queue-req: 0, #prealloc-req: 0, input throughput (tok", true));
    assertTrue(!SpecParser.listTail("#queue-req: 0, Processed prompts:  50%|#####", true));
  }
}
