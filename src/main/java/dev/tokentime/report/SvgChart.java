package dev.tokentime.report;

import dev.tokentime.report.ChartSpec.Axis;
import dev.tokentime.report.ChartSpec.Kind;
import dev.tokentime.report.ChartSpec.Mark;
import dev.tokentime.report.ChartSpec.MarkKind;
import dev.tokentime.report.ChartSpec.Point;
import dev.tokentime.report.ChartSpec.Series;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@link ChartSpec} drawn as a static SVG file, for the Markdown report: no browser and no
 * JavaScript needed, so it works in CI and in any issue tracker that shows images. Same
 * grey-scale rules as the HTML charts: lines differ by dash pattern and marker, bars by hatching.
 * Every text is XML-escaped (run names and request ids come from the logs).
 */
final class SvgChart {
  static final int W = 760;
  static final int H = 380;
  private static final String[] DASH = {"", "7 4", "2 3", "9 3 2 3"};
  private static final String[] HATCH = {"", "M0,6 L6,0", "M0,0 L6,6", "M3,0 L3,6", "M0,3 L6,3"};

  private final ChartSpec c;
  private final StringBuilder sb = new StringBuilder(16_384);
  private double left = 64;
  private double right;
  private final double top;
  private final double bottom = H - 48.0;
  private double xMin;
  private double xMax;
  private double[] yRange;
  private double[] y2Range;

  private SvgChart(ChartSpec c) {
    this.c = c;
    this.right = W - (c.y2() != null ? 64 : 20);
    int legendRows = (int) Math.ceil(c.series().size() / 4.0);
    this.top = 44 + 16.0 * Math.max(0, legendRows - 1);
  }

  static String render(ChartSpec c) {
    return new SvgChart(c).draw();
  }

  private String draw() {
    sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(W).append("\" height=\"").append(H)
        .append("\" viewBox=\"0 0 ").append(W).append(' ').append(H)
        .append("\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"11\">\n<title>")
        .append(Html.esc(c.title())).append("</title>\n<defs>\n");
    for (int i = 1; i < HATCH.length; i++) {
      sb.append("<pattern id=\"h").append(i).append("\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">")
          .append("<path d=\"").append(HATCH[i]).append("\" stroke=\"#fff\" stroke-width=\"1.6\"/></pattern>\n");
    }
    sb.append("</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
    text(8, 16, c.title(), "start", "font-size=\"13\" font-weight=\"bold\"");
    ranges();
    axes();
    for (Mark m : c.marks()) {
      if (m.kind() == MarkKind.BAND) {
        mark(m);
      }
    }
    bars();
    int line = 0;
    int scatter = 0;
    for (Series s : c.series()) {
      if (s.kind() == Kind.LINE || s.kind() == Kind.STEP) {
        line(s, line++);
      } else if (s.kind() == Kind.SCATTER) {
        scatter(s, scatter++);
      }
    }
    for (Mark m : c.marks()) {
      if (m.kind() != MarkKind.BAND) {
        mark(m);
      }
    }
    legend();
    sb.append("</svg>\n");
    return sb.toString();
  }

  // --- scales ---

  private void ranges() {
    if (c.x().isCategory()) {
      xMin = -0.5;
      xMax = c.x().categories().size() - 0.5;
    } else {
      xMin = Double.MAX_VALUE;
      xMax = -Double.MAX_VALUE;
      for (Series s : c.series()) {
        for (Point p : s.points()) {
          xMin = Math.min(xMin, p.x());
          xMax = Math.max(xMax, p.x());
        }
      }
      for (Mark m : c.marks()) {
        if (m.kind() != MarkKind.HORIZONTAL) {
          xMin = Math.min(xMin, m.at());
          xMax = Math.max(xMax, m.to());
        }
      }
      if (xMin > xMax) {
        xMin = 0;
        xMax = 1;
      }
      if (c.x().log()) {
        xMin = Math.log10(Math.max(xMin, 1e-9));
        xMax = Math.log10(Math.max(xMax, 1e-9));
      }
      if (xMax - xMin < 1e-12) {
        xMax = xMin + 1;
      }
    }
    yRange = yRange(false);
    y2Range = c.y2() == null ? null : yRange(true);
  }

  private double[] yRange(boolean rightAxis) {
    double lo = 0;
    double hi = 0;
    Map<String, double[]> stacks = new LinkedHashMap<>();
    for (Series s : c.series()) {
      if ((s.rightAxis() && c.y2() != null) != rightAxis) {
        continue;
      }
      for (Point p : s.points()) {
        if (p.y() == null) {
          continue;
        }
        double y = p.y();
        if (s.kind() == Kind.BAR && s.stack() != null) {
          double[] acc = stacks.computeIfAbsent(s.stack() + "@" + (int) p.x(), k -> new double[1]);
          acc[0] += y;
          y = acc[0];
        }
        lo = Math.min(lo, y);
        hi = Math.max(hi, y);
      }
    }
    for (Mark m : c.marks()) {
      if (m.kind() == MarkKind.HORIZONTAL && m.rightAxis() == rightAxis) {
        hi = Math.max(hi, m.at());
      }
    }
    if (hi <= lo) {
      hi = lo + 1;
    }
    double step = nice((hi - lo) / 5);
    return new double[] {Math.floor(lo / step + 1e-9) * step, Math.ceil(hi / step - 1e-9) * step, step};
  }

  private double px(double x) {
    double v = c.x().log() ? Math.log10(Math.max(x, 1e-9)) : x;
    return left + (v - xMin) / (xMax - xMin) * (right - left);
  }

  private double py(double y, boolean rightAxis) {
    double[] r = rightAxis && y2Range != null ? y2Range : yRange;
    return bottom - (y - r[0]) / (r[1] - r[0]) * (bottom - top);
  }

  // --- axes ---

  private void axes() {
    for (double y = yRange[0]; y <= yRange[1] + yRange[2] / 2; y += yRange[2]) {
      double yy = py(y, false);
      sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e2e2e2\"/>%n",
          left, yy, right, yy));
      text(left - 6, yy + 4, Fmt.num(y), "end", "");
    }
    if (y2Range != null) {
      for (double y = y2Range[0]; y <= y2Range[1] + y2Range[2] / 2; y += y2Range[2]) {
        text(right + 6, py(y, true) + 4, Fmt.num(y), "start", "");
      }
    }
    sb.append(String.format(Locale.ROOT, "<path d=\"M%.1f,%.1f V%.1f H%.1f\" fill=\"none\" stroke=\"#333\"/>%n",
        left, top, bottom, right));
    if (c.x().isCategory()) {
      List<String> cats = c.x().categories();
      // skip labels so that the longest ones (about 6.5 px a character) do not overlap
      int longest = cats.stream().mapToInt(String::length).max().orElse(1);
      int every = Math.max(1, (int) Math.ceil(cats.size() * (longest * 6.5 + 8) / (right - left)));
      for (int i = 0; i < cats.size(); i += every) {
        text(px(i), bottom + 15, cats.get(i), "middle", "");
      }
    } else if (c.x().log()) {
      for (int e = (int) Math.floor(xMin); e <= Math.ceil(xMax); e++) {
        double x = Math.pow(10, e);
        if (Math.log10(x) >= xMin - 1e-9 && Math.log10(x) <= xMax + 1e-9) {
          tick(x);
        }
      }
    } else {
      double step = nice((xMax - xMin) / 6);
      for (double x = Math.ceil(xMin / step) * step; x <= xMax + 1e-9; x += step) {
        tick(x);
      }
    }
    text((left + right) / 2, H - 12, c.x().title(), "middle", "font-weight=\"bold\"");
    text(14, (top + bottom) / 2, c.y().title(), "middle",
        String.format(Locale.ROOT, "font-weight=\"bold\" transform=\"rotate(-90 14 %.1f)\"", (top + bottom) / 2));
    if (c.y2() != null) {
      double x = W - 10;
      text(x, (top + bottom) / 2, c.y2().title(), "middle",
          String.format(Locale.ROOT, "font-weight=\"bold\" transform=\"rotate(90 %.1f %.1f)\"", x, (top + bottom) / 2));
    }
  }

  private void tick(double x) {
    double xx = px(x);
    sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>%n",
        xx, bottom, xx, bottom + 4));
    text(xx, bottom + 15, Fmt.num(x), "middle", "");
  }

  // --- series ---

  private void bars() {
    List<Series> bars = c.series().stream().filter(s -> s.kind() == Kind.BAR).toList();
    if (bars.isEmpty()) {
      return;
    }
    List<String> groups = new ArrayList<>();
    for (Series s : bars) {
      String g = s.stack() != null ? "stack:" + s.stack() : "own:" + s.name();
      if (!groups.contains(g)) {
        groups.add(g);
      }
    }
    double band = c.x().isCategory() ? (right - left) / c.x().categories().size()
        : (right - left) / Math.max(1, bars.get(0).points().size());
    double w = Math.min(40, band * 0.7 / groups.size());
    Map<String, Double> base = new LinkedHashMap<>();
    int i = 0;
    for (Series s : bars) {
      String g = s.stack() != null ? "stack:" + s.stack() : "own:" + s.name();
      int gi = groups.indexOf(g);
      String color = EChartsOption.PALETTE.get(i % EChartsOption.PALETTE.size());
      String hatch = i % HATCH.length == 0 ? null : "url(#h" + (i % HATCH.length) + ")";
      for (Point p : s.points()) {
        if (p.y() == null) {
          continue;
        }
        String key = g + "@" + p.x();
        double b = base.getOrDefault(key, 0.0);
        double x = px(p.x()) - groups.size() * w / 2 + gi * w;
        double y0 = py(b, s.rightAxis());
        double y1 = py(b + p.y(), s.rightAxis());
        rect(x, Math.min(y0, y1), w, Math.abs(y0 - y1), color, s.name() + ": " + Fmt.num(p.y()));
        if (hatch != null) {
          rect(x, Math.min(y0, y1), w, Math.abs(y0 - y1), hatch, null);
        }
        if (s.stack() != null) {
          base.put(key, b + p.y());
        }
      }
      i++;
    }
  }

  private void rect(double x, double y, double w, double h, String fill, String title) {
    sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
        x, y, w, h, fill));
    if (title != null) {
      sb.append("><title>").append(Html.esc(title)).append("</title></rect>\n");
    } else {
      sb.append("/>\n");
    }
  }

  private void line(Series s, int i) {
    String color = EChartsOption.PALETTE.get(i % EChartsOption.PALETTE.size());
    StringBuilder d = new StringBuilder();
    boolean pen = false;
    double prevY = 0;
    for (Point p : s.points()) {
      if (p.y() == null) {
        pen = false;
        continue;
      }
      double x = px(p.x());
      double y = py(p.y(), s.rightAxis());
      if (pen && s.kind() == Kind.STEP) {
        d.append(String.format(Locale.ROOT, " L%.1f,%.1f", x, prevY));
      }
      d.append(String.format(Locale.ROOT, "%s%.1f,%.1f", pen ? " L" : " M", x, y));
      pen = true;
      prevY = y;
    }
    sb.append("<path d=\"").append(d.toString().strip()).append("\" fill=\"none\" stroke=\"").append(color)
        .append("\" stroke-width=\"2\"");
    String dash = DASH[i % DASH.length];
    if (!dash.isEmpty()) {
      sb.append(" stroke-dasharray=\"").append(dash).append('"');
    }
    sb.append("/>\n");
    long shown = s.points().stream().filter(p -> p.y() != null).count();
    if (shown <= 40) {
      for (Point p : s.points()) {
        if (p.y() != null) {
          symbol(px(p.x()), py(p.y(), s.rightAxis()), i, color, s.name() + ": " + Fmt.num(p.y()), 3.5);
        }
      }
    }
  }

  private void scatter(Series s, int i) {
    String color = EChartsOption.PALETTE.get((i + 1) % EChartsOption.PALETTE.size());
    for (Point p : s.points()) {
      if (p.y() != null) {
        String t = s.name() + ": " + Fmt.num(p.y()) + (p.label() == null ? "" : " — " + p.label());
        symbol(px(p.x()), py(p.y(), s.rightAxis()), i + 1, color, t, 5);
      }
    }
  }

  /** Markers differ by shape too: circle, square, triangle, diamond. */
  private void symbol(double x, double y, int i, String color, String title, double r) {
    String shape = switch (i % 4) {
      case 0 -> String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, r);
      case 1 -> String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x - r, y - r, 2 * r, 2 * r);
      case 2 -> String.format(Locale.ROOT, "<path d=\"M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f Z\"", x, y - r * 1.2, x + r * 1.1,
          y + r * 0.8, x - r * 1.1, y + r * 0.8);
      default -> String.format(Locale.ROOT, "<path d=\"M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f L%.1f,%.1f Z\"", x, y - r * 1.3,
          x + r * 1.1, y, x, y + r * 1.3, x - r * 1.1, y);
    };
    sb.append(shape).append(" fill=\"").append(color).append("\" stroke=\"#fff\" stroke-width=\"0.8\"><title>")
        .append(Html.esc(title)).append("</title>").append(shape.startsWith("<circle") ? "</circle>"
            : shape.startsWith("<rect") ? "</rect>" : "</path>").append('\n');
  }

  private void mark(Mark m) {
    switch (m.kind()) {
      case BAND -> {
        double x0 = px(m.at());
        double x1 = px(m.to());
        sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#787878\" "
            + "fill-opacity=\"0.28\"><title>%s</title></rect>%n", x0, top, Math.max(1, x1 - x0), bottom - top, Html.esc(m.label())));
      }
      case VERTICAL -> {
        double x = px(m.at());
        sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
            + "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>%n", x, top, x, bottom));
        text(x + 4, top + 12, m.label(), "start", "font-weight=\"bold\"");
      }
      default -> {
        double y = py(m.at(), m.rightAxis());
        sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
            + "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>%n", left, y, right, y));
        text(right - 4, y - 4, m.label(), "end", "font-weight=\"bold\"");
      }
    }
  }

  private void legend() {
    int line = 0;
    int bar = 0;
    int scatter = 0;
    for (int i = 0; i < c.series().size(); i++) {
      Series s = c.series().get(i);
      double x = 8 + (i % 4) * (W - 16) / 4.0;
      double y = 32 + 16 * (i / 4);
      switch (s.kind()) {
        case BAR -> {
          String color = EChartsOption.PALETTE.get(bar % EChartsOption.PALETTE.size());
          rect(x, y - 8, 14, 10, color, null);
          if (bar % HATCH.length != 0) {
            rect(x, y - 8, 14, 10, "url(#h" + (bar % HATCH.length) + ")", null);
          }
          bar++;
        }
        case SCATTER -> {
          symbol(x + 7, y - 3, scatter + 1, EChartsOption.PALETTE.get((scatter + 1) % EChartsOption.PALETTE.size()), s.name(), 4);
          scatter++;
        }
        default -> {
          String dash = DASH[line % DASH.length];
          sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
              + "stroke-width=\"2\"%s/>%n", x, y - 3, x + 14, y - 3, EChartsOption.PALETTE.get(line % EChartsOption.PALETTE.size()),
              dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\""));
          line++;
        }
      }
      String name = s.name().length() > 30 ? s.name().substring(0, 29) + "…" : s.name();
      text(x + 18, y, name + (s.rightAxis() && c.y2() != null ? " (right)" : ""), "start", "");
    }
  }

  private void text(double x, double y, String s, String anchor, String attrs) {
    sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y, anchor));
    if (!attrs.isEmpty()) {
      sb.append(' ').append(attrs);
    }
    sb.append('>').append(Html.esc(s)).append("</text>\n");
  }

  /** The smallest 1, 2 or 5 x 10^k at or above v (v > 0): a tick step. */
  static double nice(double v) {
    if (!(v > 0)) {
      return 1;
    }
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= v * (1 - 1e-9)) {
        return m * p;
      }
    }
    return 10 * p;
  }
}
