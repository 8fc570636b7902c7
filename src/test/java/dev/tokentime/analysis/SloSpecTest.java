package dev.tokentime.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.BadInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SloSpecTest {
  @Test
  void readsLatencyAndThroughputTerms() {
    SloSpec s = SloSpec.parse("ttft_p95<=1s, itl_p95<=80ms,throughput>=500tok/s, e2e_mean < 2500 ms,throughput>=2 req/s");
    assertEquals(List.of("ttft p95 <= 1000 ms", "itl p95 <= 80 ms", "throughput >= 500 tokens/s",
        "e2e mean < 2500 ms", "throughput >= 2 requests/s"),
        s.terms().stream().map(SloSpec.Term::describe).toList());
    assertEquals("ttft_ms", s.terms().get(0).metric());
    assertEquals(95, s.terms().get(0).percentile());
    assertTrue(s.terms().get(0).holds(1000));
    assertFalse(s.terms().get(0).holds(1000.1));
    assertTrue(s.terms().get(2).holds(500));
    assertFalse(s.terms().get(3).holds(2500));
    assertEquals(1000.0, s.perRequestTarget("ttft_ms"));
    assertEquals(80.0, s.perRequestTarget("itl_ms"));
  }

  @Test
  void explainsWhatItCannotRead() {
    var e = assertThrows(BadInputException.class, () -> SloSpec.parse("ttft_p95<=fast"));
    assertTrue(e.getMessage().startsWith("cannot read the SLO term \"ttft_p95<=fast\""), e.getMessage());
    assertThrows(BadInputException.class, () -> SloSpec.parse("latency_p95<=1s"));
    assertThrows(BadInputException.class, () -> SloSpec.parse(" , "));
  }

  @Test
  void ttftBreakdownPercentilesAreSnappedUpward() {
    assertEquals(50, SloCheck.snap(-1));
    assertEquals(90, SloCheck.snap(75));
    assertEquals(95, SloCheck.snap(95));
    assertEquals(99, SloCheck.snap(97));
  }
}
