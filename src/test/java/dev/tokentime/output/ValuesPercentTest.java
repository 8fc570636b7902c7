package dev.tokentime.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** One rounding of SLO attainment for check, summary and report (issue 23: check said 0.2 %, the report 0 %). */
class ValuesPercentTest {
  @Test
  void attainmentReadsTheSameEverywhere() {
    assertEquals("0.2 %", Values.percent(0.002));
    assertEquals("0.0 %", Values.percent(0.0));
    assertEquals("< 0.1 %", Values.percent(0.0004));
    assertEquals("> 99.9 %", Values.percent(0.9996));
    assertEquals("100.0 %", Values.percent(1.0));
    assertEquals("87.5 %", Values.percent(0.875));
    assertEquals("n/a", Values.percent(null));
  }
}
