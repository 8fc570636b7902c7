package dev.tokentime.formats.spec;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A declarative spec of a line-oriented log format, as read from {@code parsers/<id>.spec}
 * (syntax: parsers/README.md): outer prefixes to strip, the line kinds with their patterns, and
 * how named groups and {@code key: value} lists map to canonical columns.
 *
 * @param headers how many of {@code prefixes} are the format's own headers (they come first; the
 *     wrappers a log may come in follow)
 * @param resync where a line's own part may start behind a wrapper no prefix knows ({@code resync}),
 *     or null
 */
public record LineSpec(String format, String description, String fills, List<Sniff> sniffs,
    List<Pattern> strips, List<Prefix> prefixes, List<Envelope> envelopes, List<Kind> kinds,
    String scope, int headers, Pattern resync) {

  /**
   * The scope of the clocks of a file's times: the {@code scope} line with {@code {format}},
   * {@code {run}} and {@code {file}} filled in, else the format and the file (each file its own
   * clock).
   */
  public String clockScope(String run, String file) {
    file = rotationBase(file);
    if (scope == null) {
      return format + " " + file;
    }
    return scope.replace("{format}", format).replace("{run}", run == null ? "" : run)
        .replace("{file}", file == null ? "" : file);
  }

  // what log rotation appends to a log's name: logrotate's ".1" and dateext's "-20251201",
  // Python's RotatingFileHandler ".1" and TimedRotatingFileHandler's ".2025-12-01_13-00-00", and
  // the compression of an old one
  private static final java.util.regex.Pattern ROTATION = java.util.regex.Pattern.compile(
      "(?:\\.\\d{1,4}|[-.]\\d{8}(?:[-_]?\\d{2,6})?|\\.\\d{4}-\\d\\d-\\d\\d(?:[_T]\\d\\d(?:[-:]\\d\\d){0,2})?)?"
          + "(?:\\.(?:gz|zst|bz2|xz))?$");

  /**
   * The log a rotated file belongs to ({@code server.log.1}, {@code server.log.2.gz},
   * {@code server.log-20251201.gz} → {@code server.log}): its files were written by one process
   * on one host, so their times are one clock, and a run of them has one measured window.
   */
  public static String rotationBase(String file) {
    if (file == null) {
      return null;
    }
    String base = ROTATION.matcher(file).replaceFirst("");
    if (base.isEmpty() || base.endsWith("/")) {
      return file;
    }
    try {
      // one log however its path was typed (gz/c8/server.log.1 now, ./gz/c8/server.log later)
      return java.nio.file.Path.of(base).toAbsolutePath().normalize().toString();
    } catch (java.nio.file.InvalidPathException e) {
      return base;
    }
  }

  /**
   * A wrapper that holds the line inside a JSON object (docker's json-file driver,
   * {@code journalctl -o json}): the inner line is the value of {@code messageKey}; {@code values}
   * maps other keys to prefix group names (identity: host, container, unit, upid …).
   *
   * @param time how a key gives the line's time ({@code rfc3339 KEY} or {@code epoch-us KEY}), or null
   */
  public record Envelope(String name, String messageKey, TimeRule time, String timeKey,
      Map<String, String> values) {}

  /** A file is claimed with {@code score} when one of its first lines contains a match. */
  public record Sniff(int score, Pattern pattern) {}

  /**
   * An outer prefix or log header, tried at the start of the line; prefixes nest in any order.
   *
   * @param time how the prefix's groups give the line's time, or null when it carries none
   * @param json a JSON object follows the prefix (Fluentd's stdout output): it is unwrapped by the
   *     spec's envelopes as a line that is one would be
   * @param msgpack a record as Fluent Bit's stdout output prints it follows the prefix
   *     ({@link MsgpackPrint}): read as the same record in JSON would be; where the record names
   *     a group the prefix also has (the pod), the record's value is kept
   * @param sticky once the prefix peeled a line, its identity text (from its first group after its
   *     time to its end: rsyslog's "gpu-1 vllm: ") is peeled as it from the file's later lines
   *     where it follows another prefix, whatever comes after it ({@link LineMatcher#remember})
   * @param section the prefix is a whole line that heads the lines after it (tail's "==> a.log <=="
   *     between the files it prints): its groups are the origin of the file's later lines up to the
   *     next such line, where they name none of their own ({@link LineMatcher#section})
   * @param object the prefix peels the start of the format's own JSON line (the SGLang router's
   *     --log-json): a line it matches from its first character is never unwrapped by an envelope
   */
  public record Prefix(String name, Pattern pattern, List<String> groups, TimeRule time, boolean json,
      boolean msgpack, boolean sticky, boolean section, boolean object) {
    public Prefix(String name, Pattern pattern, List<String> groups, TimeRule time) {
      this(name, pattern, groups, time, false, false, false, false, false);
    }
  }

  /**
   * How groups of a prefix give a time.
   *
   * @param kind {@code rfc3339} (one group, with its offset), {@code date} (groups yyyy-MM-dd,
   *     HH:mm:ss and an optional fraction; local time), {@code month-day} (groups MM-dd,
   *     HH:mm:ss and an optional fraction; local time without a year) or {@code time-of-day}
   *     (groups HH:mm:ss and an optional fraction; local time without a date)
   */
  public record TimeRule(String kind, List<String> groups) {}

  /**
   * A line kind: the message (the line after its prefixes) matches {@code pattern} from its start.
   *
   * @param table the canonical table it fills ({@code engine_stats}, {@code steps},
   *     {@code engine_events}), or {@code requests} / {@code none} for kinds the format's Java
   *     handles itself
   * @param event the engine_events kind, or the lifecycle event name the Java handler acts on
   * @param hint a looser pattern (searched anywhere): a line that matches it but not
   *     {@code pattern} is a near miss, shown by --explain and rejected when it is a truncated
   *     last line
   * @param end how a whole line of this kind ends (searched in the message), or null: a last
   *     line without a line terminator that matches the kind but not this was cut off, and is
   *     rejected
   * @param cut as {@code end}, for the kind's near misses only (a kind whose pattern already
   *     holds its ending need not test every matched line again), or null
   * @param list the group holding a {@code key: value, key: value} list, or null
   * @param listExtrasPrefix prefix of the extras names of the list's unknown keys
   * @param fields list keys → columns
   * @param groupRules group names → columns (groups not listed map to the column of the same
   *     name in snake_case when the table has one); a group of a prefix fills its column only
   *     when the message gives none
   * @param items the group holding {@code key = value} / {@code key: value} items, or null
   * @param keep which items no field names land in extras (matched against the whole key), or
   *     null: all of them
   * @param nulls values that stand for no value ({@code N/A}, {@code nan}; compared ignoring case):
   *     an item's whole value, or a list value's first word (before its unit or {@code %})
   * @param computes columns computed from two others of the row
   * @param time the kind's own time (a group or item holding a local date-time), or null
   * @param restarts an iteration counter going back in a lane (instance and rank) is recorded as
   *     an engine restart
   * @param unwrap with {@code items}: an item value it matches whole is read as its first group
   *     (PyTorch's {@code tensor(256)} for 256), or null
   */
  /** "a stats line", "an access line": the kind's name with its article, for messages. */
  public static String aKind(String name) {
    return (!name.isEmpty() && "aeiou".indexOf(Character.toLowerCase(name.charAt(0))) >= 0 ? "an " : "a ") + name;
  }

  public record Kind(String name, String table, String event, Pattern pattern, List<String> groups,
      Pattern hint, Pattern end, String list, String listExtrasPrefix, Map<String, Column> fields,
      Map<String, Column> groupRules, EventClock clock, String items, Pattern keep,
      List<String> nulls, List<Compute> computes, OwnTime time, boolean restarts, Pattern notAfter, Pattern cut,
      NotFrom notFrom, Pattern frames, Pattern unwrap, Pattern requestFrames, Pattern retold) {

    /** How a whole line of the kind ends, for judging its near misses: {@code cut}, else {@code end}. */
    public Pattern wholeEnd() {
      return cut != null ? cut : end;
    }
  }

  /**
   * {@code not-from GROUP REGEX}: the kind does not apply to a line whose prefix group GROUP holds
   * a value REGEX finds (Triton's glog source {@code model.py:345}: a Python model's own log).
   */
  public record NotFrom(String group, Pattern pattern) {}

  /** {@code compute COLUMN = A - B}: the column from two others of the row, where both are known. */
  public record Compute(String column, String left, char op, String right) {}

  /**
   * A time the message itself carries (print_iter_log's {@code timestamp = 2025-04-28 09:56:44}):
   * where the line has it, it is the line's time and its prefixes' times are not used.
   *
   * @param kind {@code local}: a local date-time with a year
   * @param name the group or item holding it
   */
  public record OwnTime(String kind, String name) {}

  /**
   * A time a line carries in a group on a clock of its own (TensorRT-LLM's {@code at 32142.77}:
   * monotonic seconds), anchored to the line's wall time where it has one.
   *
   * @param kind {@code steady} (monotonic, arbitrary epoch) or {@code wall} (epoch seconds)
   * @param unit {@code s}, {@code ms}, {@code us} or {@code ns}
   */
  public record EventClock(String group, String kind, String unit) {
    public long nanos(String value) {
      java.math.BigDecimal v = new java.math.BigDecimal(value.strip());
      java.math.BigDecimal scale = switch (unit) {
        case "s" -> java.math.BigDecimal.valueOf(1_000_000_000L);
        case "ms" -> java.math.BigDecimal.valueOf(1_000_000L);
        case "us" -> java.math.BigDecimal.valueOf(1_000L);
        default -> java.math.BigDecimal.ONE;
      };
      return v.multiply(scale).setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact();
    }
  }

  /**
   * Where a value goes: a canonical column or {@code extras.<name>}, and the unit it is written in
   * ({@code %} becomes a 0..1 ratio, {@code s} becomes ms in a {@code _ms} column, {@code flag}
   * is 1 when the group matched, {@code text} keeps the text, anything else is a plain number).
   */
  public record Column(String column, String unit) {
    public boolean isExtra() {
      return column.startsWith("extras.");
    }

    public String extraName() {
      return column.substring("extras.".length());
    }
  }

  public Kind kind(String name) {
    for (Kind k : kinds) {
      if (k.name().equals(name)) {
        return k;
      }
    }
    return null;
  }
}
