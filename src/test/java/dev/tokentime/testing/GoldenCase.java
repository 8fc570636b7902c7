package dev.tokentime.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A golden test of the SQL library: a hand-sized input, a query and the expected rows, in one
 * text file small enough to check by hand.
 *
 * <pre>
 * # name: what the case shows
 * # Lines starting with # explain how the expected numbers follow from the input.
 * -- input c4/requests.jsonl
 * {"request_id":"r1", ...}
 * -- query
 * SELECT request_id, ttft_ms FROM request_latency ORDER BY request_id
 * -- expected
 * request_id,ttft_ms
 * r1,100
 * </pre>
 *
 * An optional {@code -- setup} section holds statements (one per line, e.g. SET VARIABLE) run
 * before the query. Expected values are CSV; an empty cell is NULL; numbers match within 1e-6 (absolute) plus
 * 1e-9 (relative).
 */
public record GoldenCase(String file, String name, Map<String, String> inputs, String setup,
    String query, String expected) {

  public static GoldenCase parse(String file, String text) {
    String name = file;
    Map<String, String> inputs = new LinkedHashMap<>();
    StringBuilder query = new StringBuilder();
    StringBuilder setup = new StringBuilder();
    StringBuilder expected = new StringBuilder();
    String section = null;
    String inputName = null;
    List<String> buf = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("# name:")) {
        name = line.substring("# name:".length()).strip();
        continue;
      }
      if (line.startsWith("#") && !"expected".equals(section) && !"input".equals(section)) {
        continue;
      }
      if (line.startsWith("-- input ") || line.equals("-- query") || line.equals("-- expected")
          || line.equals("-- setup")) {
        if ("input".equals(section)) {
          inputs.put(inputName, String.join("\n", buf) + "\n");
        }
        buf.clear();
        if (line.startsWith("-- input ")) {
          section = "input";
          inputName = line.substring("-- input ".length()).strip();
        } else {
          section = line.substring(3);
        }
        continue;
      }
      if (section == null) {
        continue;
      }
      switch (section) {
        case "input" -> buf.add(line);
        case "query" -> query.append(line).append('\n');
        case "setup" -> setup.append(line).append('\n');
        case "expected" -> {
          if (!line.isBlank()) {
            expected.append(line).append('\n');
          }
        }
        default -> throw new IllegalStateException(section);
      }
    }
    if ("input".equals(section)) {
      inputs.put(inputName, String.join("\n", buf) + "\n");
    }
    if (inputs.isEmpty() || query.toString().isBlank() || expected.length() == 0) {
      throw new IllegalArgumentException(file + ": a golden case needs -- input, -- query and -- expected");
    }
    return new GoldenCase(file, name, inputs, setup.toString().strip(), query.toString().strip(),
        expected.toString());
  }
}
