package dev.tokentime.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentime.analysis.Conventions;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.output.TableData;
import dev.tokentime.output.TableRenderer;
import dev.tokentime.output.Terminal;
import dev.tokentime.output.Values;
import java.util.List;
import java.util.Map;

/** Prints a tool's own figures (summary --convention) and the side-by-side of conventions. */
final class ConventionReport {
  private ConventionReport() {}

  static String render(String convention, Map<String, TableData> byRun, OutputFormat f) throws Exception {
    StringBuilder sb = new StringBuilder();
    switch (f) {
      case JSON -> {
        ObjectNode root = JsonOutput.MAPPER.createObjectNode();
        root.put("format", "tokentime-summary");
        root.put("convention", convention);
        ArrayNode runs = root.putArray("runs");
        for (var e : byRun.entrySet()) {
          ObjectNode run = runs.addObject();
          run.put("run", e.getKey());
          ArrayNode metrics = run.putArray("metrics");
          TableData t = e.getValue();
          for (Object[] row : t.rows()) {
            for (int i = 1; i < t.columns().size() - 1; i++) {
              if (row[i] != null) {
                ObjectNode m = metrics.addObject();
                m.put("metric", (String) row[0]);
                m.put("stat", t.columns().get(i));
                m.put("value", ((Number) row[i]).doubleValue());
                m.put("unit", (String) row[row.length - 1]);
              }
            }
          }
        }
        sb.append(JsonOutput.MAPPER.writeValueAsString(root)).append('\n');
      }
      case CSV -> {
        sb.append("run,metric,stat,value,unit\n");
        for (var e : byRun.entrySet()) {
          TableData t = e.getValue();
          for (Object[] row : t.rows()) {
            for (int i = 1; i < t.columns().size() - 1; i++) {
              if (row[i] != null) {
                sb.append(e.getKey()).append(',').append(row[0]).append(',').append(t.columns().get(i))
                    .append(',').append(Values.exact(row[i])).append(',').append(row[row.length - 1]).append('\n');
              }
            }
          }
        }
      }
      default -> {
        sb.append("figures as ").append(convention).append(" computes them (docs/metrics.md)\n");
        if (byRun.isEmpty()) {
          sb.append("(no run has the data this convention needs)\n");
        }
        for (var e : byRun.entrySet()) {
          sb.append('\n').append("run ").append(e.getKey()).append('\n');
          sb.append(f == OutputFormat.MARKDOWN ? TableRenderer.markdown(e.getValue())
              : TableRenderer.text(e.getValue(), Terminal.width()));
        }
      }
    }
    return sb.toString();
  }

  static String sideBySide(List<Conventions.SideBySide> runs, OutputFormat f) {
    StringBuilder sb = new StringBuilder();
    if (f == OutputFormat.CSV) {
      boolean header = true;
      for (Conventions.SideBySide r : runs) {
        String csv = TableRenderer.render(r.table(), OutputFormat.CSV, Integer.MAX_VALUE);
        String[] lines = csv.split("\n");
        for (int i = header ? 0 : 1; i < lines.length; i++) {
          sb.append(i == 0 ? "run," : r.run() + ",").append(lines[i]).append('\n');
        }
        header = false;
      }
      return sb.toString();
    }
    sb.append("one run under each tool's definitions; a line per figure that differs from tokentime's, with the reason\n");
    for (Conventions.SideBySide r : runs) {
      sb.append('\n').append("run ").append(r.run()).append('\n');
      sb.append(f == OutputFormat.MARKDOWN ? TableRenderer.markdown(r.table()) : TableRenderer.text(r.table(), Terminal.width()));
      for (String why : r.reasons()) {
        sb.append("- ").append(why).append('\n');
      }
      if (r.reasons().isEmpty()) {
        sb.append("- every convention gives tokentime's figures on this run\n");
      }
    }
    return sb.toString();
  }
}
