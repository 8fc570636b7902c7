package dev.tokentime.formats.vllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.JsonUnits;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * vllm-prometheus (and, with another {@link PromFamily}, sglang-prometheus, trtllm-prometheus and
 * triton-prometheus): an engine's Prometheus metrics, either as the JSON Prometheus's HTTP API returns
 * for {@code query_range} (matrix) or an instant query (vector), or as {@code /metrics} text
 * scrapes. Text samples take their time from the exposition's timestamps (ms), else from the date
 * line a shell loop printed beside their scrape (before or after it, as the file tells: {@link
 * ScrapeTime}, {@link TextReader}), else from {@code --at}, else from the file's modification
 * time. See {@link PromSeries} for the mapping.
 */
public final class VllmPrometheusFormat extends NamedFormat {
  private final PromFamily family;

  public VllmPrometheusFormat() {
    this(PromFamily.VLLM);
  }

  /** The same reader for another engine's series (SGLang, trtllm-serve, Triton). */
  public VllmPrometheusFormat(PromFamily family) {
    super(family.format(), "engine_stats, metric_histograms", family.description());
    this.family = family;
  }

  /** The formats of the other engines' metrics, registered beside vllm-prometheus. */
  public static List<InputFormat> otherEngines() {
    return PromFamily.others().stream().map(f -> (InputFormat) new VllmPrometheusFormat(f)).toList();
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

  /**
   * The text exposition format, a sample a line. Samples without a timestamp of their own take
   * the time of the date lines a shell loop printed beside its scrapes, on the side the file
   * tells: a date line before any such sample means each date comes before its scrape ({@code
   * date; curl}); such samples before the first date line mean each date comes after its scrape
   * ({@code curl; date}), and those samples wait for it, unless a command that scrapes comes
   * between them and that line, or the file ends with a scrape after its last date line (read
   * from the file again: {@link #endsWithScrape}): then those samples are a one-off scrape
   * before a {@code date; curl} loop, at the time of {@code --at} or the file. OpenMetrics'
   * {@code # EOF} ends a scrape.
   */
  static final class TextReader {
    private final ParseContext ctx;
    private final RecordSink sink;
    private PromSeries series;
    private int clockWithTs;
    private int clockWithoutTs;
    /** The series of the current scrape without timestamps of their own: a repeat is a second scrape. */
    private final Set<String> seenWithoutTs = new HashSet<>();
    private final PromFamily family;
    /** The samples dated by date lines, on those lines' clock; null before the first. */
    private PromSeries dated;
    /** The time of the last date line (ns), or NONE. */
    private long scrapeNs = NONE;
    /** The times of the date lines so far: a scrape per time. */
    private final Set<Long> scrapeTimes = new HashSet<>();
    /** The samples without a time of their own when the file has none: --at or the file's time. */
    private PromSeries untimed;
    private long fallback = NONE;

    /** Which side of its scrape a date line is on, as the file tells. */
    private enum Side { UNKNOWN, BEFORE, AFTER }

    private Side side = Side.UNKNOWN;

    /** An untimed sample waiting for its time (before the first date line, or before its date line). */
    private record Held(long lineNo, TextSample sample, String text) {}

    /**
     * A scrape's untimed samples waiting for their time. A scrape ends at {@code # EOF} or where a
     * series repeats: the {@code # EOF}'s line, or the repeated series and its line, say which began
     * this one (neither for the file's first).
     */
    private static final class Scrape {
      final List<Held> samples = new ArrayList<>();
      final Set<String> keys = new HashSet<>();
      final long eofLine;
      final String repeated;
      final long repeatLine;

      Scrape(long eofLine, String repeated, long repeatLine) {
        this.eofLine = eofLine;
        this.repeated = repeated;
        this.repeatLine = repeatLine;
      }

      /** How this scrape began, as a phrase after "the scrape". */
      String why() {
        return eofLine > 0 ? "after the # EOF of line " + eofLine
            : repeated != null ? "from line " + repeatLine + ", where series " + repeated + " repeats"
            : "from line " + samples.get(0).lineNo();
      }
    }

    /**
     * Whether a command that scrapes (a prompt line naming curl, wget or /metrics) came after the
     * first scrape and before any date line: that scrape was a command of its own, and the date
     * lines come with the later command's scrapes, before each ({@code $ curl …} once, then {@code
     * $ while …; do date; curl …; done}). A date printed after its scrape follows it with no
     * command between.
     */
    private boolean scrapedAgain;

    /** Whether a prompt line's command scrapes. */
    private static boolean scrapes(String prompt) {
      return prompt.contains("curl") || prompt.contains("wget") || prompt.contains("metrics");
    }

    /** The first scrape while the side is unknown; null once placed. */
    private Scrape first = new Scrape(0, null, 0);
    /** The scrape being read, waiting for its time ({@link #first} at first). */
    private Scrape current = first;
    /** The line of the {@code # EOF} that ended the scrape being read, or 0 while it goes on. */
    private long endedAt;

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
      fallback = fallbackTime();
      if (fallback != NONE) {
        String how = ctx.at() != null ? "--at" : "file modification time";
        clockWithoutTs = sink.clock(new ClockSpec("wall", family.format() + " " + ctx.sourceName() + " (" + how + ")",
            1_000_000_000L, null, false));
        untimed = new PromSeries(sink, clockWithoutTs, family);
      }
      long n = new LineReader(in).forEach(new LineReader.Handler() {
        @Override
        public void line(long lineNo, byte[] buf, int off, int len) {
          String line = new String(buf, off, len, StandardCharsets.UTF_8).strip();
          if (line.equals("# EOF")) {
            endedAt = current.samples.isEmpty() && side != Side.BEFORE ? endedAt : lineNo;
            sink.otherLine(); // OpenMetrics' end of one exposition: the next sample starts a scrape
            return;
          }
          if (line.isEmpty() || line.startsWith("#") || ScrapeTime.isShellPrompt(line)) {
            if (side == Side.UNKNOWN && !first.samples.isEmpty() && !line.startsWith("#") && scrapes(line)) {
              scrapedAgain = true;
            }
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
            if (s.tsMs != null) {
              take(series, s, dev.tokentime.ingest.Checked.msToNs("sample timestamp", s.tsMs), lineNo);
            } else if (!family.owns(s.name)) {
              sink.otherLine(); // another exporter's series: no time needed
            } else if (side == Side.BEFORE) {
              if (endedAt > 0) {
                throw new NumberFormatException("a scrape after the # EOF of line " + endedAt
                    + " without a date line of its own (the date lines here come before their scrapes)");
              }
              untimedSample(dated, s, scrapeNs, lineNo);
            } else {
              hold(new Held(lineNo, s, line));
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
      atEnd();
      series.finish();
      if (untimed != null) {
        untimed.finish();
      }
      if (dated != null) {
        dated.finish();
      }
      return n;
    }

    /**
     * An untimed sample whose date line is not read yet. A scrape ended by {@code # EOF}, or one
     * a series repeats in, gives way to the next: at most the first and the latest are held.
     */
    private void hold(Held h) {
      String key = h.sample().name + h.sample().labels;
      if (!current.samples.isEmpty() && (endedAt > 0 || current.keys.contains(key))) {
        Scrape next = endedAt > 0 ? new Scrape(endedAt, null, 0) : new Scrape(0, key, h.lineNo());
        if (current != first) {
          // neither the first scrape (the time of --at or the file) nor one a date line follows
          refuse(current, side == Side.AFTER ? noDateAfter(current, next) : noTime(current));
        }
        current = next;
      }
      endedAt = 0;
      current.keys.add(key);
      current.samples.add(h);
    }

    /**
     * Why a scrape is refused in a file whose date lines follow their scrapes: another scrape began
     * before a date line came for it.
     */
    private String noDateAfter(Scrape sc, Scrape next) {
      return (sc == first ? "the file's first scrape" : "the scrape " + sc.why()) + " has no date line after it, as"
          + " this file's other scrapes have (curl; date): the next scrape begins " + next.why();
    }

    /** Why a scrape after the first is refused in a file without sample timestamps or date lines. */
    private static String noTime(Scrape sc) {
      return (sc.repeated == null ? "a scrape after the # EOF of line " + sc.eofLine
          : "series " + sc.repeated + " repeats") + " in a file without sample timestamps or date lines: several"
          + " scrapes cannot be placed in time (give each its own file and --at, or print the time beside each scrape)";
    }

    /**
     * A line holding only a time. Before any untimed sample: each date line times the samples after
     * it ({@code date -Is && curl …/metrics}). After such samples: each times the scrape before it
     * ({@code curl …/metrics; date}).
     */
    private void dateLine(long[] date) {
      long ns;
      try {
        ns = Math.addExact(Math.multiplyExact(date[0], 1_000_000_000L), date[1]);
      } catch (ArithmeticException e) {
        throw new dev.tokentime.ingest.Checked.OutOfRange("date line out of range: " + date[0] + " s");
      }
      dev.tokentime.ingest.Checked.timestamp("date line", ns);
      if (side == Side.UNKNOWN) {
        // a scrape before the first date line: its own command (a one-off curl before a date;
        // curl loop) when a prompt says so or the file ends with a scrape after its last date,
        // else the scrape that date follows (curl; date)
        boolean oneOff = !first.samples.isEmpty() && (scrapedAgain || endsWithScrape());
        side = first.samples.isEmpty() || oneOff ? Side.BEFORE : Side.AFTER;
        if (oneOff) {
          // the first scrape is a command of its own before the loop: the time of --at or the file
          for (Held h : first.samples) {
            place(h, untimed, fallback);
          }
          if (current != first) {
            refuse(current, noTime(current));
          }
          first = null;
          current = new Scrape(0, null, 0);
        }
      }
      if (side == Side.BEFORE) {
        endedAt = 0;
      }
      if (side == Side.AFTER && current.samples.isEmpty()) {
        return; // no scrape since the last date line (the curl printed nothing)
      }
      if (ns == scrapeNs && side == Side.BEFORE) {
        return; // the same time again: its samples are checked against this scrape's
      }
      if (!scrapeTimes.add(ns)) {
        throw new NumberFormatException("date line " + java.time.Instant.ofEpochSecond(0, ns)
            + " repeats the time of an earlier scrape" + (side == Side.BEFORE ? ", not the one before it" : ""));
      }
      seenWithoutTs.clear();
      if (dated == null) {
        int clock = sink.clock(new ClockSpec("wall", family.format() + " " + ctx.sourceName() + " (date lines)",
            date[2], null, false));
        dated = new PromSeries(sink, clock, family);
      }
      scrapeNs = ns;
      if (side == Side.AFTER) {
        if (first != null && current != first) {
          refuse(first, noDateAfter(first, current));
        }
        endedAt = 0;
        for (Held h : current.samples) {
          place(h, dated, ns);
        }
        first = null;
        current = new Scrape(0, null, 0);
      }
    }

    /**
     * Whether the file's last scrape comes after its last date line, read from the file again
     * ({@link ParseContext#reopen}; false when it cannot be). The one thing that tells a loop
     * printing the time before each scrape, after a one-off scrape, from one printing it after
     * each: {@code S D S D S} is a one-off scrape, then {@code date; curl} twice (stopped during
     * its sleep), where {@code curl; date} stopped during its sleep ends with a date line. A
     * last scrape missing a series of the scrape before it is cut ({@code curl; date} stopped
     * during its curl: {@code S D S D S'}) and does not count: that file stays {@code curl; date},
     * its cut scrape refused for want of a date line after it. Only each line's kind and series
     * are looked at: nothing else is held.
     */
    private boolean endsWithScrape() {
      if (ctx.reopen() == null) {
        return false;
      }
      boolean[] scrapeLast = {false};
      // the series of the scrape since the last date line, and of the one before that line
      List<Set<String>> keys = new ArrayList<>(List.of(new HashSet<>(), new HashSet<>()));
      try (InputStream again = ctx.reopen().open()) {
        new LineReader(again).forEach(new LineReader.Handler() {
          @Override
          public void line(long lineNo, byte[] buf, int off, int len) {
            String line = new String(buf, off, len, StandardCharsets.UTF_8).strip();
            if (line.isEmpty() || line.startsWith("#") || ScrapeTime.isShellPrompt(line)) {
              return;
            }
            try {
              if (ScrapeTime.parse(line) != null) {
                dated();
                return;
              }
            } catch (NumberFormatException e) {
              dated(); // a date line in a zone of no offset is still a date line
              return;
            }
            try {
              TextSample sample = TextSample.parse(line);
              if (sample.tsMs == null && family.owns(sample.name)) {
                scrapeLast[0] = true;
                keys.get(0).add(sample.name + sample.labels);
              }
            } catch (NumberFormatException e) {
              // a cut or other line: neither a scrape's sample nor a time
            }
          }

          /** A date line: the scrape since the last one, if any, is the one before the next. */
          private void dated() {
            if (scrapeLast[0]) {
              keys.set(1, keys.get(0));
              keys.set(0, new HashSet<>());
            }
            scrapeLast[0] = false;
          }

          @Override
          public void tooLong(long lineNo, long length, byte[] head, int headLen) {}
        });
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return scrapeLast[0] && keys.get(0).containsAll(keys.get(1));
    }

    /** At the end of the file: the held samples' time is --at or the file's, or none. */
    private void atEnd() {
      if (side == Side.UNKNOWN) {
        // no date line: the first scrape takes the time of --at or the file, as one scrape does
        for (Held h : first.samples) {
          place(h, untimed, fallback);
        }
        if (current != first) {
          refuse(current, noTime(current));
        }
      } else if (side == Side.AFTER && !current.samples.isEmpty()) {
        refuse(current, "a scrape after the last date line: this file's date lines follow their scrapes (its first"
            + " scrape comes before any date line: curl; date), and this one has none after it (were the dates"
            + " printed before their scrapes instead, each scrape here would take the date before it, and the"
            + " first none)");
      }
    }

    private void place(Held h, PromSeries target, long ns) {
      try {
        untimedSample(target, h.sample(), ns, h.lineNo());
      } catch (NumberFormatException e) {
        byte[] b = h.text().getBytes(StandardCharsets.UTF_8);
        sink.reject(h.lineNo(), e.getMessage(), b, 0, b.length);
      }
    }

    private void refuse(Scrape scrape, String reason) {
      for (Held h : scrape.samples) {
        byte[] b = h.text().getBytes(StandardCharsets.UTF_8);
        sink.reject(h.lineNo(), reason, b, 0, b.length);
      }
      scrape.samples.clear();
    }

    /** A sample of this engine without a timestamp of its own, at the time of its scrape. */
    private void untimedSample(PromSeries target, TextSample s, long ns, long lineNo) {
      String key = s.name + s.labels;
      if (!seenWithoutTs.add(key)) {
        throw new NumberFormatException(target == dated
            ? "series " + key + " repeats " + (side == Side.AFTER ? "before" : "after") + " the date line of "
                + java.time.Instant.ofEpochSecond(0, ns) + ": two scrapes under one time (print the time beside each"
                + " scrape)"
            : "series " + key + " repeats in a file without sample timestamps: several scrapes"
                + " cannot be placed in time (give each its own file and --at, or print the time"
                + " before each scrape)");
      }
      if (target == null) {
        sink.otherLine();
        return;
      }
      take(target, s, ns, lineNo);
    }

    private void take(PromSeries target, TextSample s, long ns, long lineNo) {
      PromSeries.Use u = target.sample(s.name, s.labels, ns, s.value, lineNo);
      if (u == PromSeries.Use.STATS || u == PromSeries.Use.HISTOGRAM) {
        sink.record();
      } else {
        sink.otherLine();
      }
    }

    private long fallbackTime() {
      java.time.Instant t = ctx.at() != null ? ctx.at() : ctx.fileModified();
      return t == null ? NONE : t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
  }

  /** One sample line: {@code name{label="v",…} value [timestamp]} (ms, or OpenMetrics' seconds). */
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
        ts = timestampMs(name, rest[1]);
      }
      return new TextSample(name, labels, value, ts);
    }

    /**
     * A sample's timestamp in ms. The Prometheus text format writes integer ms; OpenMetrics (the
     * form that ends in {@code # EOF}) writes seconds, with a fraction or without. An integer
     * below 10^11 is read as seconds: as ms it would be a time before March 1973.
     */
    static long timestampMs(String name, String text) {
      try {
        long v = Long.parseLong(text);
        return Math.abs(v) < 100_000_000_000L ? Math.multiplyExact(v, 1000L) : v;
      } catch (NumberFormatException e) {
        double sec;
        try {
          sec = Double.parseDouble(text);
        } catch (NumberFormatException e2) {
          throw new NumberFormatException("sample " + name + ": timestamp \"" + text + "\" is not a number");
        }
        if (!(Math.abs(sec) < 9.2e15)) {
          throw new NumberFormatException("sample " + name + ": timestamp \"" + text + "\" out of range (seconds)");
        }
        return Math.round(sec * 1000); // OpenMetrics' seconds with a fraction
      }
    }
  }
}
