package dev.tokentime.formats.spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a {@code .spec} file (parsers/README.md): one directive a line, sub-directives of a prefix
 * or kind on the lines after it, {@code #} comments on lines of their own. A spec that does not
 * read is a build error, reported with its line.
 */
public final class SpecReader {
  private SpecReader() {}

  static final Set<String> TABLES = Set.of("engine_stats", "steps", "engine_events", "requests", "none");
  static final Set<String> TIME_KINDS = Set.of("rfc3339", "utc", "epoch", "tai64n", "date", "date-mdy", "month-day",
      "time-of-day");
  /** The spec of the wrapper layer a line spec takes in with {@code wrappers}. */
  public static final String WRAPPERS = "wrappers.spec";
  private static final Pattern COMPUTE = Pattern.compile("(\\S+)\\s*=\\s*(\\S+)\\s*([-+*/])\\s*(\\S+)");
  private static final Pattern FIELD_KEY = Pattern.compile("[^\\[\\]]+(?:\\[[1-9]\\d*\\])?");
  private static final Pattern GROUP_NAME = Pattern.compile("\\(\\?<([a-zA-Z][a-zA-Z0-9]*)>");

  /** A spec shipped with tokentime, from the classpath ({@code parsers/<name>}). */
  public static LineSpec load(String resource) {
    try (InputStream in = SpecReader.class.getClassLoader().getResourceAsStream("parsers/" + resource)) {
      if (in == null) {
        throw new IllegalStateException("parser spec parsers/" + resource + " is not on the classpath");
      }
      return read(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static LineSpec read(String name, String text) {
    return read(name, text, SpecReader::load);
  }

  /** Reads a spec; {@code layers} loads the spec a {@code wrappers} line takes in. */
  static LineSpec read(String name, String text, java.util.function.Function<String, LineSpec> layers) {
    String format = null;
    String layer = null;
    LineSpec wrappers = null;
    List<LineSpec.Envelope> envelopes = new ArrayList<>();
    EnvelopeBuilder envelope = null;
    String description = "";
    String fills = "";
    String scope = null;
    List<LineSpec.Sniff> sniffs = new ArrayList<>();
    Pattern resync = null;
    List<Pattern> strips = new ArrayList<>();
    List<LineSpec.Prefix> prefixes = new ArrayList<>();
    List<LineSpec.Kind> kinds = new ArrayList<>();
    /** Another format's kinds, read after this spec's own (kinds-from): its lines in this one's logs. */
    List<LineSpec.Kind> imported = new ArrayList<>();
    KindBuilder kind = null;
    PrefixBuilder prefix = null;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = name + ":" + (i + 1);
      String word = firstWord(line);
      String rest = line.substring(word.length()).strip();
      String raw = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
      if (PATTERN_WORDS.contains(word) && Character.isWhitespace(raw.charAt(raw.length() - 1))) {
        // a pattern's trailing space would be lost unseen ("^# " read as "^#" peeled the '#' of
        // SGLang 0.1's "#running-req: …" lines): write it as \s or [ ]
        throw new IllegalArgumentException(where + ": trailing whitespace is dropped; write a trailing space"
            + " of a pattern as \\s or [ ]");
      }
      try {
        switch (word) {
          case "format" -> format = rest;
          case "layer" -> layer = rest;
          case "kinds-from" -> {
            if (rest.equals(name) || rest.equals(WRAPPERS)) {
              throw new IllegalArgumentException("kinds-from names another format's spec");
            }
            imported.addAll(layers.apply(rest).kinds());
          }
          case "wrappers" -> {
            if (name.equals(WRAPPERS)) {
              throw new IllegalArgumentException("the wrapper layer cannot take in itself");
            }
            wrappers = layers.apply(WRAPPERS);
          }
          case "envelope" -> {
            finish(kind, kinds, prefix, prefixes);
            kind = null;
            prefix = null;
            finishEnvelope(envelope, envelopes);
            String[] parts = rest.split("\\s+");
            if (parts.length != 3 || !parts[1].equals("json")) {
              throw new IllegalArgumentException("envelope NAME json MESSAGE_KEY");
            }
            envelope = new EnvelopeBuilder(parts[0], parts[2]);
          }
          case "value" -> {
            if (envelope == null) {
              throw new IllegalArgumentException("value belongs to an envelope");
            }
            String[] mapping = arrow(rest);
            envelope.values.put(mapping[0], mapping[1]);
          }
          case "description" -> description = rest;
          case "fills" -> fills = rest;
          case "scope" -> scope = rest;
          case "sniff" -> {
            String score = firstWord(rest);
            sniffs.add(new LineSpec.Sniff(Integer.parseInt(score), regex(rest.substring(score.length()).strip())));
          }
          case "strip" -> strips.add(regex(rest));
          case "resync" -> {
            if (resync != null) {
              throw new IllegalArgumentException("one resync line (alternatives go in its regex)");
            }
            resync = regex(rest);
          }
          case "prefix" -> {
            finish(kind, kinds, prefix, prefixes);
            finishEnvelope(envelope, envelopes);
            envelope = null;
            kind = null;
            String n = firstWord(rest);
            prefix = new PrefixBuilder(n, regex(rest.substring(n.length()).strip()));
          }
          case "json" -> {
            if (prefix == null || !rest.isEmpty()) {
              throw new IllegalArgumentException("json (no argument) belongs to a prefix: a JSON object follows it");
            }
            prefix.json = true;
          }
          case "sticky" -> {
            if (prefix == null || !rest.isEmpty()) {
              throw new IllegalArgumentException("sticky (no argument) belongs to a prefix");
            }
            prefix.sticky = true;
          }
          case "object" -> {
            if (prefix == null || !rest.isEmpty()) {
              throw new IllegalArgumentException("object (no argument) belongs to a prefix: it peels the start of the format's own JSON line");
            }
            prefix.object = true;
          }
          case "section" -> {
            if (prefix == null || !rest.isEmpty()) {
              throw new IllegalArgumentException("section (no argument) belongs to a prefix");
            }
            prefix.section = true;
          }
          case "msgpack" -> {
            if (prefix == null || !rest.isEmpty()) {
              throw new IllegalArgumentException("msgpack (no argument) belongs to a prefix: Fluent Bit's print of a record follows it");
            }
            prefix.msgpack = true;
          }
          case "time" -> {
            if (kind != null) {
              String[] parts = rest.split("\\s+");
              if (parts.length != 2 || !parts[0].equals("local")) {
                throw new IllegalArgumentException("a kind's time is local NAME (a group or item)");
              }
              kind.time = new LineSpec.OwnTime(parts[0], parts[1]);
              continue;
            }
            if (envelope != null && prefix == null && kind == null) {
              String[] parts = rest.split("\\s+");
              if (parts.length != 2 || !(parts[0].equals("rfc3339") || parts[0].equals("epoch-us")
                  || parts[0].equals("month-day"))) {
                throw new IllegalArgumentException("an envelope's time is rfc3339 KEY, epoch-us KEY or month-day KEY");
              }
              envelope.time = parts[0].equals("month-day")
                  ? new LineSpec.TimeRule(parts[0], List.of("md", "hms", "frac"))
                  : new LineSpec.TimeRule(parts[0], List.of("ts"));
              envelope.timeKey = parts[1];
              continue;
            }
            if (prefix == null) {
              throw new IllegalArgumentException("time belongs to a prefix");
            }
            List<String> parts = List.of(rest.split("\\s+"));
            if (!TIME_KINDS.contains(parts.get(0))) {
              throw new IllegalArgumentException("time kind must be one of " + TIME_KINDS);
            }
            for (String g : parts.subList(1, parts.size())) {
              requireGroup(prefix.pattern, g);
            }
            prefix.time = new LineSpec.TimeRule(parts.get(0), parts.subList(1, parts.size()));
          }
          case "kind" -> {
            finish(kind, kinds, prefix, prefixes);
            finishEnvelope(envelope, envelopes);
            envelope = null;
            prefix = null;
            String[] parts = rest.split("\\s+");
            if (parts.length < 2 || !TABLES.contains(parts[1])) {
              throw new IllegalArgumentException("kind NAME TABLE [EVENT], TABLE one of " + TABLES);
            }
            kind = new KindBuilder(parts[0], parts[1], parts.length > 2 ? parts[2] : null);
          }
          case "match" -> requireKind(kind).pattern = regex(rest);
          case "clock" -> {
            String[] parts = rest.split("\\s+");
            if (parts.length != 3 || !Set.of("steady", "wall").contains(parts[1])
                || !Set.of("s", "ms", "us", "ns").contains(parts[2])) {
              throw new IllegalArgumentException("clock GROUP steady|wall s|ms|us|ns");
            }
            requireKind(kind).clock = new LineSpec.EventClock(parts[0], parts[1], parts[2]);
          }
          case "hint" -> requireKind(kind).hint = regex(rest);
          case "end" -> requireKind(kind).end = regex(rest);
          case "cut" -> requireKind(kind).cut = regex(rest);
          case "not-after" -> requireKind(kind).notAfter = regex(rest);
          case "frames" -> requireKind(kind).frames = regex(rest);
          case "request-frames" -> requireKind(kind).requestFrames = regex(rest);
          case "retold" -> requireKind(kind).retold = regex(rest);
          case "not-from" -> {
            String[] parts = rest.split("\\s+", 2);
            if (parts.length != 2) {
              throw new IllegalArgumentException("not-from GROUP REGEX");
            }
            requireKind(kind).notFrom = new LineSpec.NotFrom(parts[0], regex(parts[1]));
          }
          case "list" -> {
            String[] parts = rest.split("\\s+");
            requireKind(kind).list = parts[0];
            kind.listExtrasPrefix = parts.length > 1 ? parts[1] : "";
          }
          case "items" -> requireKind(kind).items = rest;
          case "keep" -> requireKind(kind).keep = regex(rest);
          case "unwrap" -> requireKind(kind).unwrap = regex(rest);
          case "null" -> requireKind(kind).nulls.addAll(List.of(rest.split("\\s+")));
          case "restarts" -> requireSteps(kind).restarts = true;
          case "compute" -> {
            Matcher c = COMPUTE.matcher(rest);
            if (!c.matches()) {
              throw new IllegalArgumentException("compute COLUMN = A - B (operators + - * /)");
            }
            requireSteps(kind);
            for (int g : new int[] {1, 2, 4}) {
              column(c.group(g), kind.table);
            }
            kind.computes.add(new LineSpec.Compute(c.group(1), c.group(2), c.group(3).charAt(0), c.group(4)));
          }
          case "field" -> {
            String[] mapping = arrow(rest);
            if (!FIELD_KEY.matcher(mapping[0]).matches()) {
              throw new IllegalArgumentException("a field's key is KEY or KEY[N]");
            }
            requireKind(kind).fields.put(mapping[0], column(mapping[1], kind.table));
          }
          case "group" -> {
            String[] mapping = arrow(rest);
            requireKind(kind).groupRules.put(mapping[0], column(mapping[1], kind.table));
          }
          default -> throw new IllegalArgumentException("unknown directive " + word);
        }
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(where + ": bad regex: " + e.getDescription(), e);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
      }
    }
    finish(kind, kinds, prefix, prefixes);
    finishEnvelope(envelope, envelopes);
    if (format == null && layer == null) {
      throw new IllegalArgumentException(name + ": no format line");
    }
    if (layer != null && !kinds.isEmpty()) {
      throw new IllegalArgumentException(name + ": a layer holds prefixes, strips and envelopes, no kinds");
    }
    if (layer != null && resync != null) {
      throw new IllegalArgumentException(name + ": resync names where a format's own lines start; a layer has none");
    }
    int headers = layer != null ? 0 : prefixes.size();
    if (wrappers != null) {
      // the format's own headers are tried first, then the wrappers a log may come in
      strips.addAll(wrappers.strips());
      prefixes.addAll(wrappers.prefixes());
      envelopes.addAll(wrappers.envelopes());
    }
    // a group rule names a group of the kind's pattern or of a prefix (its fallback value)
    java.util.Set<String> prefixGroups = new java.util.HashSet<>();
    prefixes.forEach(p -> prefixGroups.addAll(p.groups()));
    for (LineSpec.Kind k : kinds) {
      for (String g : k.groupRules().keySet()) {
        if (!k.groups().contains(g) && !prefixGroups.contains(g)) {
          throw new IllegalArgumentException(name + ": kind " + k.name() + ": group " + g
              + " is neither in its pattern nor in a prefix's");
        }
      }
      // a misspelt group would leave the kind applying everywhere, unseen
      if (k.notFrom() != null && !prefixGroups.contains(k.notFrom().group())) {
        throw new IllegalArgumentException(name + ": kind " + k.name() + ": not-from group " + k.notFrom().group()
            + " is in no prefix");
      }
    }
    if (layer != null && !imported.isEmpty()) {
      throw new IllegalArgumentException(name + ": a layer holds prefixes, strips and envelopes, no kinds");
    }
    // an imported kind's group rules were checked in its own spec: a group its prefixes fill and
    // this spec's do not is empty here
    for (LineSpec.Kind k : imported) {
      if (kinds.stream().anyMatch(own -> own.name().equals(k.name()))) {
        throw new IllegalArgumentException(name + ": kind " + k.name() + " is its own and " + k.name() + " imported");
      }
      kinds.add(k);
    }
    return new LineSpec(format != null ? format : layer, description, fills, List.copyOf(sniffs),
        List.copyOf(strips), List.copyOf(prefixes), List.copyOf(envelopes), List.copyOf(kinds), scope,
        headers, resync);
  }

  /** Whether a spec is a layer (wrappers) rather than a format. */
  public static boolean isLayer(String text) {
    for (String line : text.split("\n")) {
      if (line.strip().startsWith("layer ")) {
        return true;
      }
    }
    return false;
  }

  private static void finishEnvelope(EnvelopeBuilder e, List<LineSpec.Envelope> out) {
    if (e != null) {
      out.add(new LineSpec.Envelope(e.name, e.messageKey, e.time, e.timeKey, Map.copyOf(e.values)));
    }
  }

  /** The named groups of a regex, in order. */
  public static List<String> groupNames(Pattern p) {
    List<String> out = new ArrayList<>();
    Matcher m = GROUP_NAME.matcher(p.pattern());
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private static void finish(KindBuilder k, List<LineSpec.Kind> kinds, PrefixBuilder p,
      List<LineSpec.Prefix> prefixes) {
    if (k != null) {
      if (k.pattern == null) {
        throw new IllegalArgumentException("kind " + k.name + " has no match line");
      }
      List<String> groups = groupNames(k.pattern);
      if (k.list != null && !groups.contains(k.list)) {
        throw new IllegalArgumentException("kind " + k.name + ": list group " + k.list + " is not in its pattern");
      }
      if (k.items != null && !groups.contains(k.items)) {
        throw new IllegalArgumentException("kind " + k.name + ": items group " + k.items + " is not in its pattern");
      }
      if (k.frames != null && !k.table.equals("engine_events")) {
        throw new IllegalArgumentException("kind " + k.name + ": frames is for an engine_events kind whose line opens a traceback");
      }
      if (k.retold != null && !k.table.equals("engine_events")) {
        throw new IllegalArgumentException("kind " + k.name + ": retold is for an engine_events kind whose line opens a traceback");
      }
      if (k.requestFrames != null && !k.table.equals("engine_events")) {
        throw new IllegalArgumentException("kind " + k.name
            + ": request-frames is for an engine_events kind whose line opens a traceback");
      }
      if (k.items != null && k.list != null) {
        throw new IllegalArgumentException("kind " + k.name + ": list and items exclude each other");
      }
      if (k.time != null && k.items == null && !groups.contains(k.time.name())) {
        throw new IllegalArgumentException("kind " + k.name + ": time group " + k.time.name() + " is not in its pattern");
      }
      if (k.clock != null && !groups.contains(k.clock.group())) {
        throw new IllegalArgumentException("kind " + k.name + ": clock group " + k.clock.group() + " is not in its pattern");
      }
      // fields keep their order: where several name one column, the first the line has wins
      kinds.add(new LineSpec.Kind(k.name, k.table, k.event, k.pattern, List.copyOf(groups), k.hint, k.end,
          k.list, k.listExtrasPrefix, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(k.fields)),
          java.util.Collections.unmodifiableMap(new LinkedHashMap<>(k.groupRules)), k.clock, k.items, k.keep,
          List.copyOf(k.nulls), List.copyOf(k.computes), k.time, k.restarts, k.notAfter, k.cut, k.notFrom, k.frames,
          k.unwrap, k.requestFrames, k.retold));
    }
    if (p != null) {
      prefixes.add(new LineSpec.Prefix(p.name, p.pattern, List.copyOf(groupNames(p.pattern)), p.time, p.json,
          p.msgpack, p.sticky, p.section, p.object));
    }
  }

  private static LineSpec.Column column(String target, String table) {
    String[] parts = target.split("\\s+");
    String col = parts[0];
    if (!col.startsWith("extras.") && !CanonicalColumns.has(table, col)) {
      throw new IllegalArgumentException("table " + table + " has no column " + col);
    }
    return new LineSpec.Column(col, parts.length > 1 ? parts[1] : "");
  }

  private static String[] arrow(String s) {
    int at = s.indexOf("->");
    if (at < 0) {
      throw new IllegalArgumentException("expected NAME -> COLUMN [UNIT]");
    }
    return new String[] {s.substring(0, at).strip(), s.substring(at + 2).strip()};
  }

  private static KindBuilder requireKind(KindBuilder k) {
    if (k == null) {
      throw new IllegalArgumentException("this directive belongs to a kind");
    }
    return k;
  }

  private static KindBuilder requireSteps(KindBuilder k) {
    if (!requireKind(k).table.equals("steps")) {
      throw new IllegalArgumentException("this directive belongs to a kind of steps");
    }
    return k;
  }

  private static void requireGroup(Pattern p, String group) {
    if (!groupNames(p).contains(group)) {
      throw new IllegalArgumentException("group " + group + " is not in the prefix's pattern");
    }
  }

  private static Pattern regex(String s) {
    return Pattern.compile(s);
  }

  /** The words whose rest is a regex: a trailing space of theirs is refused, not dropped. */
  private static final java.util.Set<String> PATTERN_WORDS = java.util.Set.of("prefix", "match", "hint", "end", "cut",
      "not-after", "not-from", "frames", "request-frames", "retold", "keep", "unwrap", "sniff", "resync", "strip");

  private static String firstWord(String s) {
    int sp = s.indexOf(' ');
    return sp < 0 ? s : s.substring(0, sp);
  }

  private static final class EnvelopeBuilder {
    final String name;
    final String messageKey;
    LineSpec.TimeRule time;
    String timeKey;
    final Map<String, String> values = new LinkedHashMap<>();

    EnvelopeBuilder(String name, String messageKey) {
      this.name = name;
      this.messageKey = messageKey;
    }
  }

  private static final class PrefixBuilder {
    final String name;
    final Pattern pattern;
    LineSpec.TimeRule time;
    boolean json;
    boolean msgpack;
    boolean sticky;
    boolean section;
    boolean object;

    PrefixBuilder(String name, Pattern pattern) {
      this.name = name;
      this.pattern = pattern;
    }
  }

  private static final class KindBuilder {
    final String name;
    final String table;
    final String event;
    Pattern pattern;
    Pattern hint;
    Pattern end;
    Pattern cut;
    String list;
    String listExtrasPrefix = "";
    LineSpec.EventClock clock;
    String items;
    Pattern keep;
    Pattern unwrap;
    final List<String> nulls = new ArrayList<>();
    boolean restarts;
    Pattern notAfter;
    Pattern frames;
    Pattern requestFrames;
    Pattern retold;
    LineSpec.NotFrom notFrom;
    LineSpec.OwnTime time;
    final List<LineSpec.Compute> computes = new ArrayList<>();
    final Map<String, LineSpec.Column> fields = new LinkedHashMap<>();
    final Map<String, LineSpec.Column> groupRules = new LinkedHashMap<>();

    KindBuilder(String name, String table, String event) {
      this.name = name;
      this.table = table;
      this.event = event;
    }
  }
}
