package dev.tokentime.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ValuesTest {
  @Test
  void namesSortNaturallyAsTheViewsSortThem() {
    // the order of natural_sort_key(run), run (queries/report/natural_sort_key.sql)
    List<String> sorted = List.of("c16", "c4", "c64", "c1", "b", "c4-r2", "rate-8", "rate-0.5", "c04")
        .stream().sorted(Values.NATURAL).toList();
    assertEquals(List.of("b", "c1", "c04", "c4", "c4-r2", "c16", "c64", "rate-0.5", "rate-8"), sorted);
  }

  @Test
  void durationsReadInTheirUnit() {
    assertEquals("35.7 s", Values.duration(35718.330));
    assertEquals("432 µs", Values.duration(0.4321));
    assertEquals("41.7 ms", Values.duration(41.7));
  }
}
