package dev.tokentime.summary;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** Lets the end-to-end tests compare JSON the way SampleSummaryTest does. */
public final class SampleSummaryTestAccess {
  private SampleSummaryTestAccess() {}

  public static void compare(String path, JsonNode want, JsonNode got, List<String> diffs) {
    SampleSummaryTest.compare(path, want, got, diffs);
  }
}
