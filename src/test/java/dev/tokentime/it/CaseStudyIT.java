package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The seed methodology's case study (§3.3), through the packaged jar: a server with 16 batch
 * slots driven at concurrency 16 and 32. At 32 half the requests wait for a slot, so TTFT P95
 * misses 1 s because of queueing, not compute; summary, ttft_breakdown and check must say so and
 * name concurrency 16 as the level that meets the SLO; compare weighs the two.
 */
class CaseStudyIT {
  static Path db;

  @BeforeAll
  static void ingestTheSweep() throws Exception {
    db = CaseStudySweep.db();
  }

  @Test
  void summaryAndBreakdownShowQueueingAt32() throws Exception {
    Cli.Result s = Cli.run("summary", "--db", db.toString(), "--format", "csv", "--run", "c32");
    assertEquals(0, s.code(), s.err());
    Cli.Result q = Cli.run("query", "--db", db.toString(), "--format", "csv",
        "SELECT run, round(queue_share, 2) AS queue_share FROM ttft_breakdown WHERE percentile = 95 ORDER BY run");
    assertEquals(0, q.code(), q.err());
    String[] rows = q.out().strip().split("\n");
    assertEquals("run,queue_share", rows[0]);
    // at 16 a request only waits for the engine iteration in progress (the generator's engine
    // admits new requests between iterations): a tenth of the tail TTFT
    assertTrue(rows[1].startsWith("c16,") && Double.parseDouble(rows[1].split(",")[1]) < 0.2,
        "little queueing at 16: " + q.out());
    double c32 = Double.parseDouble(rows[2].split(",")[1]);
    assertTrue(c32 > 0.9, "queueing dominates the TTFT tail at 32: " + q.out());
  }

  @Test
  void checkBlamesQueueingAndRecommends16() throws Exception {
    Cli.Result c = Cli.run("check", "--db", db.toString(), "--slo", "ttft_p95<=1s,itl_p95<=80ms");
    assertEquals(1, c.code(), c.out() + c.err());
    assertTrue(c.out().contains("concurrency 16  met"), c.out());
    assertTrue(c.out().contains("concurrency 32  MISSED"), c.out());
    assertTrue(c.out().contains("the cause is queueing, not compute"), c.out());
    assertTrue(c.out().contains("recommendation: concurrency 16 is the highest level that meets the SLO"), c.out());
    Cli.Result only16 = Cli.run("check", "--db", db.toString(), "--slo", "ttft_p95<=1s,itl_p95<=80ms", "--run", "c16");
    assertEquals(0, only16.code(), only16.out());
    assertTrue(only16.out().contains("verdict: every level checked meets the SLO"), only16.out());
    Cli.Result json = Cli.run("check", "--db", db.toString(), "--slo", "ttft_p95<=1s", "--format", "json");
    assertTrue(json.out().contains("\"all_met\" : false"), json.out());
    Cli.Result bad = Cli.run("check", "--db", db.toString(), "--slo", "ttft_p95<=soon");
    assertEquals(2, bad.code(), bad.err());
  }

  @Test
  void compareWeighsTtftAgainstUnchangedDecoding() throws Exception {
    Cli.Result c = Cli.run("compare", "--db", db.toString(), "c16", "c32", "--format", "csv");
    assertEquals(0, c.code(), c.err());
    String out = c.out();
    assertTrue(out.lines().anyMatch(l -> l.startsWith("ttft_ms,p95,") && l.endsWith(",worse")), out);
    // decoding is the same full batch of 16 at both levels: TPOT moves by under 2 % (with the
    // generator's lock-step tokens the run is steady enough that even that can be beyond noise)
    String tpot = out.lines().filter(l -> l.startsWith("tpot_ms,p50,")).findFirst().orElseThrow();
    double change = Double.parseDouble(tpot.split(",")[5].replace("%", "").strip());
    assertTrue(Math.abs(change) < 2.0, tpot);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("output_tokens_per_s,value,") && l.contains("one run each")), out);
    Cli.Result unknown = Cli.run("compare", "--db", db.toString(), "c16", "c99");
    assertEquals(2, unknown.code());
    assertTrue(unknown.err().contains("no run named c99"), unknown.err());
  }
}
