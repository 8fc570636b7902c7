package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.StepRecord;
import dev.tokentime.testing.RecordingSink;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The spec engine's {@code key = value} items (parsers/README.md): a made-up tool's iteration
 * lines as a spec alone, with dicts, parts of a value, the first of several fields, N/A, kept
 * counters, a computed column, a prefix's rank as the fallback, the line's own time, restarts.
 */
class ItemsSpecTest {
  static final String SPEC = ""
      + "format kv-toy\n"
      + "description a made-up tool's iteration lines\n"
      + "fills steps, engine_events\n"
      + "sniff 60 step=\\d+,\n"
      + "scope kv clock of run {run}\n"
      + "prefix ts ^\\[(?<ymd>\\d{4}-\\d\\d-\\d\\d)T(?<hms>\\d\\d:\\d\\d:\\d\\d)\\]\\s*\n"
      + "  time date ymd hms\n"
      + "prefix rk ^\\(rank (?<r>\\d+)\\)\\s*\n"
      + "kind step steps\n"
      + "  match ^(?<kv>step\\s*=\\s*\\d+\\s*,.*)$\n"
      + "  items kv\n"
      + "  null none\n"
      + "  field step -> iter int\n"
      + "  field dur_ms -> duration_ms ms\n"
      + "  field wall -> duration_ms s\n"
      + "  field batch.prefill -> ctx_requests int\n"
      + "  field batch.decode -> gen_requests int\n"
      + "  field tokens[1] -> ctx_tokens int\n"
      + "  field tokens[2] -> gen_tokens int\n"
      + "  keep x_\\w+|batch\\.\\w+\n"
      + "  compute running = ctx_requests + gen_requests\n"
      + "  group r -> rank\n"
      + "  time local at\n"
      + "  restarts\n";

  static RecordingSink parse(String text) throws Exception {
    RecordingSink sink = new RecordingSink();
    long lines = SpecFormat.of(SpecReader.read("kv-toy.spec", SPEC)).parse(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
        new ParseContext("t.log", "r1", false, null, null), sink);
    assertEquals(lines, sink.c.records + sink.c.other + sink.c.rejects.size(), "every line accounted");
    return sink;
  }

  @Test
  void anotherToolsKeyValueLinesAreASpecAlone() throws Exception {
    RecordingSink s = parse(""
        + "[2025-01-02T03:04:05] (rank 1) step=5, dur_ms=12.5, wall=0.02s, batch={'prefill': 1, 'decode': 3,"
        + " 'spec': 2, 'ok': True}, tokens=100/3, x_a=7, x_b=seven, y=9, at=2025-01-02 03:04:06.5\n"
        + "[2025-01-02T03:04:07] step = 6 , Wall: 0.03s,tokens = 50\n"
        + "(rank 1) step=2, wall=none, at=2025-01-02 03:04:09\n"
        + "steps are fine\n");
    assertEquals(List.of(), s.c.rejects);
    assertEquals(3, s.c.records);
    assertEquals(1, s.c.other);
    StepRecord a = s.steps.get(0);
    assertEquals(5L, a.iter);
    assertEquals(12.5, a.durationMs, "dur_ms comes first in the spec: it wins over wall");
    assertEquals(1, a.ctxRequests);
    assertEquals(3, a.genRequests);
    assertEquals(4, a.running, "computed: prefill + decode");
    assertEquals(100, a.ctxTokens, "the first part of 100/3");
    assertEquals(3, a.genTokens, "the second part");
    assertEquals(1, a.rank, "the prefix's rank: the line states none");
    assertEquals(Map.of("x_a", 7.0, "spec", 2.0), a.extras, "kept: plain numbers of x_* and the dict's other keys");
    assertEquals(1_735_787_046_500_000_000L, a.tsNs, "its own time, not the prefix's");
    assertEquals(100_000_000L, s.c.clocks.get(a.clockId - 1).resolutionNs(), "the digits written: 0.1 s");
    assertEquals("kv clock of run r1", s.c.clocks.get(a.clockId - 1).scope());

    StepRecord b = s.steps.get(1);
    assertEquals(6L, b.iter, "keys are read in lower case (Wall), with blanks and either separator");
    assertEquals(30.0, b.durationMs, "wall in s, as ms");
    assertEquals(50, b.ctxTokens);
    assertNull(b.genTokens, "tokens has one part");
    assertNull(b.running, "compute needs both operands");
    assertNull(b.rank);
    assertEquals(1_735_787_047_000_000_000L, b.tsNs, "no own time: the prefix's");

    StepRecord c = s.steps.get(2);
    assertNull(c.durationMs, "none is no value");
    assertEquals(1, c.epoch, "rank 1's counter went back from 5 to 2");
    assertEquals(0, b.epoch, "a lane of its own (no rank)");
    assertEquals(List.of("3 restart iteration counter went back from 5 to 2 (rank 1): epoch 1"), s.c.events);
  }

  @Test
  void unusableValuesRejectTheLineNamingTheItem() throws Exception {
    RecordingSink s = parse(""
        + "step=7, at=yesterday\n"
        + "step=8, tokens=x/2\n"
        + "step=9, dur_ms=fast\n"
        + "step=10, batch={'prefill': 1} and more\n"
        + "step=11, at=2025-02-30 10:00:00\n"
        + "step=12, batch={'prefill': 2\n");
    List<String> reasons = s.c.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList();
    assertEquals(List.of("1: at: not a time of a known shape: \"yesterday\"",
        "2: tokens: expected an integer, got \"x\"",
        "3: dur_ms: expected a number, got \"fast\"",
        "4: batch: not a dict: {'prefill': 1} and more",
        "5: at: not a time of a known shape: \"2025-02-30 10:00:00\""), reasons);
    assertEquals(1, s.c.records, "a dict still open at the end is dropped, the rest read");
    assertNull(s.steps.get(0).ctxRequests);
  }

  @Test
  void aSpecWithItemsIsSniffedAndCheckedWhenRead() {
    SpecFormat f = SpecFormat.of(SpecReader.read("kv-toy.spec", SPEC));
    byte[] b = "[2025-01-02T03:04:05] step=5, wall=1s\n".getBytes(StandardCharsets.UTF_8);
    assertEquals(60, f.sniff(new Sample("x.log", b, b.length)));
    String base = "format x\nkind k steps\n  match ^(?<kv>.*)$\n";
    for (String[] bad : new String[][] {
        {"  items nope\n", "items group nope is not in its pattern"},
        {"  items kv\n  field a[0] -> iter\n", "KEY or KEY[N]"},
        {"  items kv\n  compute iter = rank\n", "compute COLUMN = A - B"},
        {"  items kv\n  compute nope = rank - iter\n", "has no column nope"},
        {"  items kv\n  group who -> rank\n", "group who is neither in its pattern nor in a prefix's"},
        {"  items kv\n  time utc at\n", "a kind's time is local NAME"},
        {"  time local at\n", "time group at is not in its pattern"},
        {"  not-from src model\\.py\n", "not-from group src is in no prefix"},
        {"  not-from src\n", "not-from GROUP REGEX"},
        {"  items kv\n  restarts\n", null}}) {
      if (bad[1] == null) {
        SpecReader.read("x.spec", base + bad[0]);
        var e = assertThrows(IllegalArgumentException.class,
            () -> SpecReader.read("x.spec", base.replace("steps", "engine_stats") + bad[0]));
        assertTrue(e.getMessage().contains("belongs to a kind of steps"), e.getMessage());
        continue;
      }
      var e = assertThrows(IllegalArgumentException.class, () -> SpecReader.read("x.spec", base + bad[0]));
      assertTrue(e.getMessage().contains(bad[1]), bad[0] + " → " + e.getMessage());
    }
  }
}
