package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.JsonUnits;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * vllm-prometheus (and, with another {@link PromFamily}, sglang-prometheus, trtllm-prometheus and
 * triton-prometheus): an engine's Prometheus metrics, either as the JSON Prometheus's HTTP API returns
 * for {@code query_range} (matrix) or an instant query (vector), or as {@code /metrics} text
 * scrapes. Text samples take their time from the exposition's timestamps (ms), else from the
 * last date line before them (a shell loop's {@code date -Is} before each scrape: {@link
 * ScrapeTime}), else from {@code --at}, else from the file's modification time. See {@link
 * PromSeries} for the mapping.
 */
public final class VllmPrometheusFormat implements InputFormat {
  private final PromFamily family;

  public VllmPrometheusFormat() {
    this(PromFamily.VLLM);
  }

  /** The same reader for another engine's series (SGLang, trtllm-serve, Triton). */
  public VllmPrometheusFormat(PromFamily family) {
    this.family = family;
  }

  /** The formats of the other engines' metrics, registered beside vllm-prometheus. */
  public static List<InputFormat> otherEngines() {
    return PromFamily.others().stream().map(f -> (InputFormat) new VllmPrometheusFormat(f)).toList();
  }

  @Override
  public String id() {
    return family.format();
  }

  @Override
  public String description() {
    return family.description();
  }

  @Override
  public String fills() {
    return "engine_stats, metric_histograms";
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text();
    String start = text.stripLeading();
    if (start.startsWith("{")) {
      return text.contains("\"resultType\"") && text.contains(family.jsonMarker()) ? 90 : 0;
    }
    return family.textMarkers().matcher(text).find() ? 90 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    PushbackInputStream pin = new PushbackInputStream(in, 64);
    int first;
    do {
      first = pin.read();
    } while (first == ' ' || first == '\n' || first == '\r' || first == '\t');
    if (first >= 0) {
      pin.unread(first);
    }
    if (first == '{') {
      int clock = sink.clock(new ClockSpec("wall", id() + " " + ctx.sourceName(), 1_000_000, null, false));
      PromSeries series = new PromSeries(sink, clock, family);
      ApiReader reader = new ApiReader(series, sink);
      long n = JsonUnits.read(pin, sink, reader, reader.counter);
      series.finish();
      return n;
    }
    return new TextReader(ctx, sink, family).read(pin);
  }

  /** The Prometheus HTTP API's JSON: each series of data.result is a unit. */
  static final class ApiReader implements JsonUnits.DocumentReader {
    final JsonUnits.UnitCounter counter = new JsonUnits.UnitCounter();
    private final PromSeries series;
    private final RecordSink sink;

    ApiReader(PromSeries series, RecordSink sink) {
      this.series = series;
      this.sink = sink;
    }

    @Override
    public boolean read(JsonParser p, long line) throws IOException, JsonUnits.BadUnit {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw new JsonUnits.BadUnit("not a Prometheus API response (a JSON object with data.result)");
      }
      boolean any = false;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String f = p.currentName();
        p.nextToken();
        if (f.equals("data") && p.currentToken() == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String g = p.currentName();
            p.nextToken();
            if (g.equals("result") && p.currentToken() == JsonToken.START_ARRAY) {
              while (p.nextToken() == JsonToken.START_OBJECT) {
                long at = p.currentLocation().getLineNr();
                JsonNode s = JsonUnits.TREE.readTree(p);
                any |= one(s, line > 0 ? line : at, line > 0);
              }
            } else {
              p.skipChildren();
            }
          }
        } else if (f.equals("status") && !"success".equals(p.getText())) {
          throw new JsonUnits.BadUnit("the Prometheus API answered status " + p.getText());
        } else {
          p.skipChildren();
        }
      }
      return any;
    }

    /** One series: a unit of its own in the document form. */
    private boolean one(JsonNode s, long line, boolean lineForm) throws JsonUnits.BadUnit {
      Map<String, String> labels = new LinkedHashMap<>();
      s.path("metric").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
      String name = labels.getOrDefault("__name__", "");
      boolean used = false;
      String bad = null;
      JsonNode values = s.has("values") ? s.get("values") : null;
      JsonNode single = s.get("value");
      try {
        if (values != null && values.isArray()) {
          for (JsonNode v : values) {
            used |= point(name, labels, v, line);
          }
        } else if (single != null && single.isArray()) {
          used = point(name, labels, single, line);
        }
      } catch (NumberFormatException e) {
        bad = "series " + name + labels + ": " + e.getMessage();
      }
      if (lineForm) {
        if (bad != null) {
          throw new JsonUnits.BadUnit(bad);
        }
        return used;
      }
      counter.units++;
      if (bad != null) {
        sink.reject(line, bad, null, 0, 0);
      } else if (used) {
        sink.record();
      } else {
        sink.otherLine(); // not a vLLM series (a rate(), a quantile, another exporter's metric)
      }
      return used;
    }

    private boolean point(String name, Map<String, String> labels, JsonNode v, long line) {
      if (!v.isArray() || v.size() != 2) {
        throw new NumberFormatException("a point is [time, \"value\"], got " + v);
      }
      long ns = dev.tokentime.ingest.Checked.msToNs("point time", Math.round(v.get(0).asDouble() * 1e3));
      double value = parseValue(v.get(1).asText());
      PromSeries.Use u = series.sample(name, labels, ns, value, line);
      return u == PromSeries.Use.STATS || u == PromSeries.Use.HISTOGRAM;
    }
  }

  static double parseValue(String s) {
    return switch (s) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(s);
    };
  }

  /** The text exposition format, a sample a line. */
  static final class TextReader {
    private final ParseContext ctx;
    private final RecordSink sink;
    private PromSeries series;
    private int clockWithTs;
    private int clockWithoutTs;
    /** The series of the current scrape without timestamps of their own: a repeat is a second scrape. */
    private final Set<String> seenWithoutTs = new HashSet<>();
    private final PromFamily family;
    /** The samples after a date line, on that line's clock; null before the first. */
    private PromSeries dated;
    /** The time of the last date line (ns), or NONE. */
    private long scrapeNs = NONE;
    /** The times of the date lines so far: a scrape per time. */
    private final Set<Long> scrapeTimes = new HashSet<>();

    TextReader(ParseContext ctx, RecordSink sink) {
      this(ctx, sink, PromFamily.VLLM);
    }

    TextReader(ParseContext ctx, RecordSink sink, PromFamily family) {
      this.ctx = ctx;
      this.sink = sink;
      this.family = family;
    }

    long read(InputStream in) throws IOException {
      clockWithTs = sink.clock(new ClockSpec("wall", family.format() + " " + ctx.sourceName(), 1_000_000, null, false));
      series = new PromSeries(sink, clockWithTs, family);
      PromSeries untimed = null;
      long fallback = fallbackTime();
      if (fallback != NONE) {
        String how = ctx.at() != null ? "--at" : "file modification time";
        clockWithoutTs = sink.clock(new ClockSpec("wall", family.format() + " " + ctx.sourceName() + " (" + how + ")",
            1_000_000_000L, null, false));
        untimed = new PromSeries(sink, clockWithoutTs, family);
      }
      PromSeries untimedSeries = untimed;
      long n = new LineReader(in).forEach(new LineReader.Handler() {
        @Override
        public void line(long lineNo, byte[] buf, int off, int len) {
          String line = new String(buf, off, len, StandardCharsets.UTF_8).strip();
          if (line.isEmpty() || line.startsWith("#") || ScrapeTime.isShellPrompt(line)) {
            sink.otherLine(); // a shell transcript's prompt and command around a scrape
            return;
          }
          try {
            long[] date = ScrapeTime.parse(line);
            if (date != null) {
              dateLine(date);
              sink.otherLine();
              return;
            }
            TextSample s = TextSample.parse(line);
            boolean timed = s.tsMs != null;
            boolean byDate = !timed && dated != null;
            long ns = timed ? dev.tokentime.ingest.Checked.msToNs("sample timestamp", s.tsMs)
                : byDate ? scrapeNs : fallback;
            PromSeries target = timed ? series : byDate ? dated : untimedSeries;
            if (!timed) {
              String key = s.name + s.labels;
              if (family.owns(s.name) && !seenWithoutTs.add(key)) {
                throw new NumberFormatException(byDate
                    ? "series " + key + " repeats after the date line of " + java.time.Instant.ofEpochSecond(0, ns)
                        + ": two scrapes under one time (print the time before each scrape)"
                    : "series " + key + " repeats in a file without sample timestamps: several scrapes"
                        + " cannot be placed in time (give each its own file and --at, or print the time"
                        + " before each scrape)");
              }
            }
            if (target == null) {
              sink.otherLine();
              return;
            }
            PromSeries.Use u = target.sample(s.name, s.labels, ns, s.value, lineNo);
            if (u == PromSeries.Use.STATS || u == PromSeries.Use.HISTOGRAM) {
              sink.record();
            } else {
              sink.otherLine();
            }
          } catch (NumberFormatException e) {
            sink.reject(lineNo, e.getMessage(), buf, off, len);
          }
        }

        @Override
        public void tooLong(long lineNo, long length, byte[] head, int headLen) {
          sink.reject(lineNo, "line of " + length + " bytes is longer than the limit; skipped", head, 0, headLen);
        }
      });
      series.finish();
      if (untimedSeries != null) {
        untimedSeries.finish();
      }
      if (dated != null) {
        dated.finish();
      }
      return n;
    }

    /**
     * A line holding only a time ({@code date -Is} before each {@code curl …/metrics}): the
     * samples after it, without timestamps of their own, are a scrape at that time.
     */
    private void dateLine(long[] date) {
      long ns;
      try {
        ns = Math.addExact(Math.multiplyExact(date[0], 1_000_000_000L), date[1]);
      } catch (ArithmeticException e) {
        throw new dev.tokentime.ingest.Checked.OutOfRange("date line out of range: " + date[0] + " s");
      }
      dev.tokentime.ingest.Checked.timestamp("date line", ns);
      if (ns == scrapeNs) {
        return; // the same time again: its samples are checked against this scrape's
      }
      if (!scrapeTimes.add(ns)) {
        throw new NumberFormatException("date line " + java.time.Instant.ofEpochSecond(0, ns)
            + " repeats the time of an earlier scrape, not the one before it");
      }
      seenWithoutTs.clear();
      if (dated == null) {
        int clock = sink.clock(new ClockSpec("wall", family.format() + " " + ctx.sourceName() + " (date lines)",
            date[2], null, false));
        dated = new PromSeries(sink, clock, family);
      }
      scrapeNs = ns;
    }

    private long fallbackTime() {
      java.time.Instant t = ctx.at() != null ? ctx.at() : ctx.fileModified();
      return t == null ? NONE : t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
  }

  /** One sample line: {@code name{label="v",…} value [timestamp_ms]}. */
  record TextSample(String name, Map<String, String> labels, double value, Long tsMs) {
    static TextSample parse(String line) {
      int i = 0;
      int n = line.length();
      while (i < n && line.charAt(i) != '{' && line.charAt(i) != ' ' && line.charAt(i) != '\t') {
        i++;
      }
      String name = line.substring(0, i);
      if (name.isEmpty()) {
        throw new NumberFormatException("not a sample line (no metric name)");
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (i < n && line.charAt(i) == '{') {
        i++;
        while (true) {
          while (i < n && (line.charAt(i) == ' ' || line.charAt(i) == ',')) {
            i++;
          }
          if (i < n && line.charAt(i) == '}') {
            i++;
            break;
          }
          int eq = line.indexOf('=', i);
          if (eq < 0 || eq + 1 >= n || line.charAt(eq + 1) != '"') {
            throw new NumberFormatException("bad label list (truncated line?)");
          }
          String key = line.substring(i, eq).strip();
          StringBuilder v = new StringBuilder();
          int j = eq + 2;
          boolean closed = false;
          while (j < n) {
            char c = line.charAt(j);
            if (c == '\\' && j + 1 < n) {
              char e = line.charAt(j + 1);
              v.append(e == 'n' ? '\n' : e);
              j += 2;
            } else if (c == '"') {
              closed = true;
              j++;
              break;
            } else {
              v.append(c);
              j++;
            }
          }
          if (!closed) {
            throw new NumberFormatException("unterminated label value (truncated line?)");
          }
          labels.put(key, v.toString());
          i = j;
        }
      }
      String[] rest = line.substring(i).strip().split("\\s+");
      if (rest.length == 0 || rest[0].isEmpty()) {
        throw new NumberFormatException("sample " + name + " has no value (truncated line?)");
      }
      double value;
      try {
        value = parseValue(rest[0]);
      } catch (NumberFormatException e) {
        throw new NumberFormatException("sample " + name + ": value \"" + rest[0] + "\" is not a number");
      }
      Long ts = null;
      if (rest.length > 1) {
        try {
          ts = Long.parseLong(rest[1]);
        } catch (NumberFormatException e) {
          throw new NumberFormatException("sample " + name + ": timestamp \"" + rest[1] + "\" is not integer ms");
        }
      }
      return new TextSample(name, labels, value, ts);
    }
  }
}
