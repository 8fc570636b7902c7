package dev.tokentime.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.BadInputException;
import org.junit.jupiter.api.Test;

class AnalysisWindowTest {
  @Test
  void durationsAreRelativeAndInstantsAbsolute() {
    AnalysisWindow w = AnalysisWindow.parse("30s", "2026-01-01T00:00:05Z", 20, "1.5m");
    assertEquals(30_000_000_000L, w.sinceRelNs());
    assertEquals(1_767_225_605_000_000_000L, w.untilNs());
    assertEquals(20, w.warmupRequests());
    assertEquals(90_000_000_000L, w.warmupNs());
    assertEquals("first 20 requests of each run are warm-up; requests in the first 90 s of each run"
        + " are warm-up; arrivals before 2026-01-01T00:00:05Z; arrivals from +30 s into each run", w.describe());
    assertEquals(1_767_225_605_500_000_000L, AnalysisWindow.parse("2026-01-01T01:00:05.5+01:00", null, null, null).sinceNs());
    assertEquals(500_000_000L, AnalysisWindow.parse(null, "500ms", null, null).untilRelNs());
    assertTrue(AnalysisWindow.parse(null, null, null, null).isEmpty());
  }

  @Test
  void badValuesNameTheOption() {
    var e = assertThrows(BadInputException.class, () -> AnalysisWindow.parse("yesterday", null, null, null));
    assertTrue(e.getMessage().startsWith("--since expects an ISO-8601 instant"), e.getMessage());
    e = assertThrows(BadInputException.class, () -> AnalysisWindow.parse(null, null, null, "soon"));
    assertTrue(e.getMessage().startsWith("--warmup expects a duration"), e.getMessage());
  }
}
