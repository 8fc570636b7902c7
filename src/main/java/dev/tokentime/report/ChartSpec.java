package dev.tokentime.report;

import java.util.List;

/**
 * One chart, independent of how it is drawn: the HTML report turns it into an ECharts option
 * ({@link EChartsOption}), the Markdown report into an SVG file ({@link SvgChart}). Data are
 * already aggregated in SQL (buckets, percentiles), so a spec holds at most a few hundred points
 * per series however large the run.
 *
 * @param id a stable identifier, also the file name of the chart's SVG
 * @param title what the chart shows
 * @param note one line under the chart: where the data come from, what is marked
 * @param x the horizontal axis: categories (levels, runs) or values
 * @param y the left axis
 * @param y2 the right axis, or null
 */
public record ChartSpec(String id, String title, String note, Axis x, Axis y, Axis y2,
    List<Series> series, List<Mark> marks) {

  /**
   * An axis with its label and unit; {@code categories} non-null makes it a category axis whose
   * points are indexed by position; {@code log} draws a logarithmic value axis.
   */
  public record Axis(String label, String unit, List<String> categories, boolean log) {
    public static Axis value(String label, String unit) {
      return new Axis(label, unit, null, false);
    }

    public static Axis log(String label, String unit) {
      return new Axis(label, unit, null, true);
    }

    public static Axis categories(String label, List<String> categories) {
      return new Axis(label, null, List.copyOf(categories), false);
    }

    public boolean isCategory() {
      return categories != null;
    }

    /** "label (unit)", as axes and tables show it. */
    public String title() {
      return unit == null || unit.isEmpty() ? label : label + " (" + unit + ")";
    }
  }

  public enum Kind { LINE, STEP, BAR, SCATTER }

  /**
   * A series; {@code stack} groups bars stacked on each other (null: not stacked); {@code
   * rightAxis} puts it on y2. Points of a category chart have x = the category's index.
   */
  public record Series(String name, Kind kind, String stack, boolean rightAxis, List<Point> points) {}

  /**
   * A point; y null is "no data" (the line breaks there, it is never bridged); {@code label} is
   * extra text for the hover (a request id), taken from the logs and so escaped wherever shown.
   */
  public record Point(double x, Double y, String label) {
    public static Point of(double x, Double y) {
      return new Point(x, y, null);
    }
  }

  public enum MarkKind {
    /** A vertical line at x (a category index on a category axis). */
    VERTICAL,
    /** A horizontal line at y (on y2 when rightAxis). */
    HORIZONTAL,
    /** A shaded span from x to x2. */
    BAND
  }

  /**
   * A marked position: the knee, an SLO bound, a stall. {@code inLegend}: the label is shown in
   * the legend, not on the plot, where it would cover the bars or lines near the bound (an SLO
   * bound; the HTML report does this, the SVG charts label the line).
   */
  public record Mark(MarkKind kind, double at, double to, String label, boolean rightAxis, boolean inLegend) {
    public static Mark vertical(double x, String label) {
      return new Mark(MarkKind.VERTICAL, x, x, label, false, false);
    }

    public static Mark horizontal(double y, String label, boolean rightAxis) {
      return new Mark(MarkKind.HORIZONTAL, y, y, label, rightAxis, false);
    }

    /** A horizontal bound named in the legend. */
    public static Mark threshold(double y, String label, boolean rightAxis) {
      return new Mark(MarkKind.HORIZONTAL, y, y, label, rightAxis, true);
    }

    public static Mark band(double x0, double x1, String label) {
      return new Mark(MarkKind.BAND, x0, x1, label, false, false);
    }
  }
}
