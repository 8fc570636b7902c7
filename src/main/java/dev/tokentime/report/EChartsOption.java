package dev.tokentime.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentime.report.ChartSpec.Axis;
import dev.tokentime.report.ChartSpec.Kind;
import dev.tokentime.report.ChartSpec.Mark;
import dev.tokentime.report.ChartSpec.MarkKind;
import dev.tokentime.report.ChartSpec.Point;
import dev.tokentime.report.ChartSpec.Series;
import java.util.List;

/**
 * A {@link ChartSpec} as an ECharts option (JSON). Readable in grey-scale: lines differ by dash
 * pattern and symbol as well as colour, bars by decal pattern (ECharts' aria decals), and the
 * palette steps through distinct lightness. No animation, so a screenshot or a print shows the
 * finished chart. The hover text is built by report.js, which escapes everything it shows.
 */
final class EChartsOption {
  private EChartsOption() {}

  static final ObjectMapper JSON = new ObjectMapper();

  /** Distinct in hue and in lightness, so series stay apart when printed in grey. */
  static final List<String> PALETTE = List.of("#1b2a49", "#d55e00", "#7fb3e0", "#4d4d4d", "#e6ab02", "#009e73",
      "#cc79a7", "#a6a6a6");
  static final List<String> DASHES = List.of("solid", "dashed", "dotted");
  static final List<String> SYMBOLS = List.of("circle", "rect", "triangle", "diamond", "emptyCircle", "roundRect",
      "emptyTriangle", "pin");

  static ObjectNode of(ChartSpec c) {
    ObjectNode o = JSON.createObjectNode();
    o.put("animation", false);
    ArrayNode color = o.putArray("color");
    PALETTE.forEach(color::add);
    ObjectNode aria = o.putObject("aria");
    aria.put("enabled", true);
    aria.putObject("decal").put("show", true);
    ObjectNode tooltip = o.putObject("tooltip");
    boolean itemTrigger = c.series().stream().allMatch(s -> s.kind() == Kind.SCATTER);
    tooltip.put("trigger", itemTrigger ? "item" : "axis");
    tooltip.put("confine", true);
    ObjectNode legend = o.putObject("legend");
    legend.put("type", "scroll");
    legend.put("top", 0);
    ArrayNode names = legend.putArray("data");
    c.series().forEach(s -> names.add(s.name()));
    c.marks().stream().filter(Mark::inLegend).forEach(m -> names.add(m.label()));
    ObjectNode grid = o.putObject("grid");
    // containLabel makes room for tick labels; the y axes' names sit above their axes (between
    // the legend and the plot), where five-digit tick labels cannot run into them
    grid.put("left", 16).put("right", c.y2() != null ? 16 : 24).put("top", 62).put("bottom", 36).put("containLabel", true);

    o.set("xAxis", axis(c.x(), true));
    ArrayNode y = o.putArray("yAxis");
    y.add(axis(c.y(), false));
    if (c.y2() != null) {
      ObjectNode y2 = axis(c.y2(), false);
      ((ObjectNode) y2.get("nameTextStyle")).put("align", "right");
      y2.putObject("splitLine").put("show", false);
      y.add(y2);
    }
    if (!c.x().isCategory()) {
      o.putArray("dataZoom").addObject().put("type", "inside");
    }
    ArrayNode series = o.putArray("series");
    int line = 0;
    for (Series s : c.series()) {
      ObjectNode n = series.addObject();
      n.put("name", s.name());
      n.put("yAxisIndex", s.rightAxis() && c.y2() != null ? 1 : 0);
      switch (s.kind()) {
        case BAR -> {
          n.put("type", "bar");
          if (s.stack() != null) {
            n.put("stack", s.stack());
          }
          n.put("barMaxWidth", 48);
        }
        case SCATTER -> {
          n.put("type", "scatter");
          n.put("symbol", SYMBOLS.get(line % SYMBOLS.size()));
          n.put("symbolSize", 9);
          n.put("z", 5);
          line++;
        }
        default -> {
          n.put("type", "line");
          if (s.kind() == Kind.STEP) {
            n.put("step", "end");
          }
          n.put("connectNulls", false);
          n.put("symbol", SYMBOLS.get(line % SYMBOLS.size()));
          n.put("symbolSize", 6);
          n.put("showSymbol", s.points().size() <= 45);
          // each later line thinner and drawn above the earlier ones: lines that coincide (two
          // runs with the same CDF) show as a thick line with a thin one of another colour inside
          n.put("z", 2 + line);
          n.putObject("lineStyle").put("width", Math.max(1.2, 3.6 - 0.8 * line)).put("type", DASHES.get(line % DASHES.size()));
          line++;
        }
      }
      n.set("data", data(c, s));
    }
    marks(c, series);
    return o;
  }

  private static ObjectNode axis(Axis a, boolean x) {
    ObjectNode n = JSON.createObjectNode();
    n.put("type", a.isCategory() ? "category" : a.log() ? "log" : "value");
    n.put("name", a.title() + (a.log() && !x ? ", log scale" : ""));
    n.put("nameLocation", x ? "middle" : "end");
    n.put("nameGap", x ? 26 : 14);
    if (a.isCategory()) {
      ArrayNode d = n.putArray("data");
      a.categories().forEach(d::add);
      n.putObject("axisLabel").put("hideOverlap", true);
    } else if (x) {
      n.put("scale", true);
    }
    if (!x) {
      n.putObject("nameTextStyle").put("fontWeight", "bold").put("align", "left");
      // at the plot's edge even when the time axis starts before 0 (engine steps logged before
      // the run's first arrival), not across the plot at x = 0
      n.putObject("axisLine").put("onZero", false);
    }
    return n;
  }

  private static ArrayNode data(ChartSpec c, Series s) {
    ArrayNode d = JSON.createArrayNode();
    boolean log = (s.rightAxis() && c.y2() != null ? c.y2() : c.y()).log();
    for (Point p0 : s.points()) {
      // a logarithmic axis has no place for 0 (a part of TTFT that took no time): no bar
      Point p = log && p0.y() != null && p0.y() <= 0 ? new Point(p0.x(), null, p0.label()) : p0;
      if (c.x().isCategory() && s.kind() != Kind.SCATTER && p.label() == null) {
        if (p.y() == null) {
          d.addNull();
        } else {
          d.add(p.y());
        }
        continue;
      }
      ArrayNode v = JSON.createArrayNode();
      if (c.x().isCategory()) {
        v.add((int) p.x());
      } else {
        v.add(p.x());
      }
      if (p.y() == null) {
        v.addNull();
      } else {
        v.add(p.y());
      }
      if (p.label() == null) {
        d.add(v);
      } else {
        ObjectNode item = d.addObject();
        item.set("value", v);
        item.put("tt", p.label());
      }
    }
    return d;
  }

  /**
   * Marks ride on two empty series (left and right axis) so they need no data series of their
   * own: vertical and horizontal lines as markLine, bands as markArea.
   */
  private static void marks(ChartSpec c, ArrayNode series) {
    if (c.marks().isEmpty()) {
      return;
    }
    for (boolean right : new boolean[] {false, true}) {
      List<Mark> ms = c.marks().stream().filter(m -> m.rightAxis() == right).toList();
      if (ms.isEmpty() || (right && c.y2() == null)) {
        continue;
      }
      ObjectNode n = series.addObject();
      n.put("type", "line");
      n.put("name", right ? "marks (right axis)" : "marks");
      n.put("yAxisIndex", right ? 1 : 0);
      n.putArray("data");
      ObjectNode ml = JSON.createObjectNode();
      ml.put("silent", false);
      ml.putArray("symbol").add("none").add("none");
      ml.putObject("lineStyle").put("color", "#000").put("type", "dashed").put("width", 1.5);
      ArrayNode lines = ml.putArray("data");
      ObjectNode ma = JSON.createObjectNode();
      ma.putObject("itemStyle").put("color", "rgba(120,120,120,0.28)");
      ma.putObject("label").put("show", false);
      ArrayNode bands = ma.putArray("data");
      for (Mark m : ms) {
        if (m.inLegend()) {
          legendMark(m, series);
          continue;
        }
        if (m.kind() == MarkKind.BAND) {
          ArrayNode pair = bands.addArray();
          pair.addObject().put("xAxis", m.at()).put("name", m.label());
          pair.addObject().put("xAxis", m.to());
          continue;
        }
        ObjectNode l = lines.addObject();
        if (m.kind() == MarkKind.VERTICAL) {
          if (c.x().isCategory()) {
            l.put("xAxis", c.x().categories().get((int) m.at()));
          } else {
            l.put("xAxis", m.at());
          }
        } else {
          l.put("yAxis", m.at());
        }
        l.put("name", m.label());
        ObjectNode label = l.putObject("label");
        label.put("formatter", "{b}");
        label.put("position", m.kind() == MarkKind.VERTICAL ? "end" : "insideEndTop");
        label.put("color", "#000");
      }
      if (!lines.isEmpty()) {
        n.set("markLine", ml);
      }
      if (!bands.isEmpty()) {
        n.set("markArea", ma);
      }
    }
  }

  /** A bound named in the legend: an empty series of its own carrying the dashed line, unlabelled on the plot. */
  private static void legendMark(Mark m, ArrayNode series) {
    ObjectNode n = series.addObject();
    n.put("type", "line");
    n.put("name", m.label());
    n.put("yAxisIndex", m.rightAxis() ? 1 : 0);
    n.putArray("data");
    n.put("symbol", "none");
    n.putObject("itemStyle").put("color", "#000");
    n.putObject("lineStyle").put("color", "#000").put("type", "dashed").put("width", 1.5);
    ObjectNode ml = n.putObject("markLine");
    ml.put("silent", false);
    ml.putArray("symbol").add("none").add("none");
    ml.putObject("lineStyle").put("color", "#000").put("type", "dashed").put("width", 1.5);
    ml.putObject("label").put("show", false);
    ObjectNode l = ml.putArray("data").addObject();
    l.put("yAxis", m.at());
    l.put("name", m.label());
  }
}
