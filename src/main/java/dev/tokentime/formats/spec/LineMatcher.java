package dev.tokentime.formats.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Applies a spec to one decoded line: removes strip patterns, peels prefixes off the start (in
 * any order, nested up to {@link #MAX_PREFIXES}), then finds the first kind whose pattern matches
 * the rest. Holds one reusable Matcher per pattern: one instance per parse, not thread-safe.
 */
public final class LineMatcher {
  static final int MAX_PREFIXES = 8;

  private final LineSpec spec;
  private final List<Matcher> strips = new ArrayList<>();
  /** A character each strip pattern's match starts with (-1 when unknown): lines without it are skipped. */
  private final int[] stripFirstChars;
  /** Text every match of each strip pattern contains ("" when unknown): lines without it are skipped. */
  private final String[] stripLiterals;
  private final List<Matcher> prefixes = new ArrayList<>();
  /** The matchers of the prefixes that peel the start of the format's own JSON lines (object). */
  private final List<Matcher> objectPrefixes = new ArrayList<>();
  private final List<Matcher> kinds = new ArrayList<>();
  private final List<Matcher> hints = new ArrayList<>();
  /** The literal text each kind's pattern starts with ("" when none): a cheap first test. */
  private final String[] kindLiterals;
  /** Per kind, its group names as an array. */
  private final String[][] kindGroupNames;
  /**
   * Per prefix, the characters a match of it can start with (null without shortcuts). Most lines
   * fail most prefixes; this skips the regex for a prefix that cannot match at the next character.
   */
  private final MatchStarts[] prefixStarts;
  /** Per ASCII character, the prefixes that can start with it ({@link #prefixCandidates}); this matcher's own. */
  private final int[][] prefixCandidates = new int[128][];
  private final int[] allPrefixes;
  private final List<Pattern> prefixPatterns;
  private final List<Pattern> kindPatterns;
  /**
   * Literal starts of kinds that no prefix can match at: peeling stops at a message that begins
   * with one, without trying every prefix on it first (the commonest lines are of these kinds).
   */
  private final String[] peelStops;
  /** Per kind, the characters a match of it can start with (as prefixStarts). */
  private final MatchStarts[] kindStarts;
  private final int[][] kindCandidates = new int[128][];
  private final int[] allKinds;
  /**
   * Hand-compiled equivalents ({@link FastPatterns}) of prefixes and kinds, or null; with each,
   * where its groups go in the spec's group order. Used on printable-ASCII lines only.
   */
  private final FastPatterns.Fast[] fastPrefixes;
  private final int[][] fastPrefixGroups;
  /** Per prefix, its group names as an array, and where its time's groups sit in fastOut (null without a time). */
  private final String[][] prefixGroupNames;
  private final int[][] fastPrefixTimeSlots;
  private final FastPatterns.Fast[] fastKinds;
  private final int[][] fastKindGroups;
  private final String[] fastOut = new String[8];
  /** Fixed-width starts of prefixes and kinds ({@link LeadingSkeleton}); null without shortcuts. */
  private final LeadingSkeleton[] prefixSkeletons;
  private final LeadingSkeleton[] kindSkeletons;
  /** Hand-written necessary conditions of prefixes ({@link FastPatterns#precheck}), printable ASCII only. */
  private final FastPatterns.Precheck[] prefixPrechecks;
  /** First characters of the peel stops (ASCII): most positions need no startsWith at all. */
  private final boolean[] stopStarts = new boolean[128];

  public LineMatcher(LineSpec spec) {
    this(spec, true);
  }

  /** {@code shortcuts = false} runs every regex on every line: the reference the tests compare with. */
  LineMatcher(LineSpec spec, boolean shortcuts) {
    this.spec = spec;
    stripFirstChars = new int[spec.strips().size()];
    stripLiterals = new String[spec.strips().size()];
    for (var p : spec.strips()) {
      stripFirstChars[strips.size()] = firstChar(p.pattern());
      stripLiterals[strips.size()] = shortcuts ? requiredLiteral(p.pattern()) : "";
      strips.add(p.matcher(""));
    }
    spec.prefixes().forEach(p -> prefixes.add(p.pattern().matcher("")));
    spec.prefixes().stream().filter(LineSpec.Prefix::object).forEach(p -> objectPrefixes.add(p.pattern().matcher("")));
    List<String> literalStarts = new ArrayList<>();
    for (LineSpec.Kind k : spec.kinds()) {
      literalStarts.add(literalStart(k.pattern().pattern()));
      kinds.add(k.pattern().matcher(""));
      hints.add(k.hint() == null ? null : k.hint().matcher(""));
    }
    kindLiterals = literalStarts.toArray(new String[0]);
    kindGroupNames = spec.kinds().stream().map(k -> k.groups().toArray(new String[0])).toArray(String[][]::new);
    prefixPatterns = spec.prefixes().stream().map(LineSpec.Prefix::pattern).toList();
    kindPatterns = spec.kinds().stream().map(LineSpec.Kind::pattern).toList();
    prefixStarts = new MatchStarts[prefixPatterns.size()];
    for (int i = 0; i < prefixStarts.length; i++) {
      prefixStarts[i] = shortcuts ? MatchStarts.of(prefixPatterns.get(i)) : null;
    }
    allPrefixes = IntStream.range(0, prefixPatterns.size()).toArray();
    allKinds = IntStream.range(0, kindPatterns.size()).toArray();
    List<String> stops = new ArrayList<>();
    if (shortcuts) {
      for (String lit : literalStarts) {
        if (!lit.isEmpty() && !stops.contains(lit)
            && prefixPatterns.stream().noneMatch(p -> MatchStarts.of(p).canStart(p, lit))) {
          stops.add(lit);
        }
      }
    }
    peelStops = stops.toArray(new String[0]);
    for (String stop : peelStops) {
      char c = stop.charAt(0);
      if (c < 128) {
        stopStarts[c] = true;
      } else {
        java.util.Arrays.fill(stopStarts, true);
      }
    }
    prefixSkeletons = new LeadingSkeleton[prefixPatterns.size()];
    for (int i = 0; i < prefixSkeletons.length; i++) {
      prefixSkeletons[i] = shortcuts ? LeadingSkeleton.of(prefixPatterns.get(i).pattern()) : null;
    }
    prefixPrechecks = new FastPatterns.Precheck[prefixPatterns.size()];
    for (int i = 0; i < prefixPrechecks.length; i++) {
      prefixPrechecks[i] = shortcuts ? FastPatterns.precheck(prefixPatterns.get(i).pattern()) : null;
    }
    kindSkeletons = new LeadingSkeleton[spec.kinds().size()];
    for (int i = 0; i < kindSkeletons.length; i++) {
      kindSkeletons[i] = shortcuts ? LeadingSkeleton.of(spec.kinds().get(i).pattern().pattern()) : null;
    }
    kindStarts = new MatchStarts[spec.kinds().size()];
    for (int i = 0; i < kindStarts.length; i++) {
      kindStarts[i] = shortcuts ? MatchStarts.of(spec.kinds().get(i).pattern()) : null;
    }
    fastPrefixes = new FastPatterns.Fast[spec.prefixes().size()];
    fastPrefixGroups = new int[fastPrefixes.length][];
    prefixGroupNames = new String[fastPrefixes.length][];
    fastPrefixTimeSlots = new int[fastPrefixes.length][];
    for (int i = 0; i < fastPrefixes.length; i++) {
      LineSpec.Prefix p = spec.prefixes().get(i);
      fastPrefixGroups[i] = shortcuts ? groupOrder(p.pattern(), p.groups()) : null;
      fastPrefixes[i] = fastPrefixGroups[i] == null ? null : FastPatterns.of(p.pattern().pattern());
      prefixGroupNames[i] = p.groups().toArray(new String[0]);
      if (fastPrefixGroups[i] != null && p.time() != null) {
        int[] slots = new int[p.time().groups().size()];
        for (int j = 0; j < slots.length; j++) {
          slots[j] = fastPrefixGroups[i][p.groups().indexOf(p.time().groups().get(j))];
        }
        fastPrefixTimeSlots[i] = slots;
      }
    }
    fastKinds = new FastPatterns.Fast[spec.kinds().size()];
    fastKindGroups = new int[fastKinds.length][];
    for (int i = 0; i < fastKinds.length; i++) {
      LineSpec.Kind k = spec.kinds().get(i);
      fastKindGroups[i] = shortcuts ? groupOrder(k.pattern(), k.groups()) : null;
      fastKinds[i] = fastKindGroups[i] == null ? null : FastPatterns.of(k.pattern().pattern());
    }
  }

  /**
   * Where each of the spec's groups sits in the equivalent's output, or null when the pattern has
   * no equivalent or the two name different groups.
   */
  private static int[] groupOrder(Pattern p, List<String> specGroups) {
    FastPatterns.Fast f = FastPatterns.of(p.pattern());
    if (f == null || !new java.util.HashSet<>(f.groups()).equals(new java.util.HashSet<>(specGroups))
        || f.groups().size() > 8) {
      return null;
    }
    int[] order = new int[specGroups.size()];
    for (int j = 0; j < order.length; j++) {
      order[j] = f.groups().indexOf(specGroups.get(j));
    }
    return order;
  }

  /**
   * Whether {@code p} can match (from the start) some text that begins with {@code start}: it
   * matches {@code start} itself, or it ran out of input before failing (Matcher.hitEnd), so a
   * longer text might match. A false answer is exact: every text beginning with {@code start}
   * fails too.
   */
  static boolean canMatchText(Pattern p, String start) {
    Matcher m = p.matcher(start);
    return m.lookingAt() || m.hitEnd();
  }

  /** Whether pattern i can start with ASCII c (always, without shortcuts). */
  private static boolean canStart(MatchStarts[] starts, List<Pattern> patterns, int i, char c) {
    return starts[i] == null || starts[i].canStart(patterns.get(i), c);
  }

  /**
   * The prefixes, in the spec's order, that can start with ASCII c: made the first time a line
   * puts c where a prefix could start. Trying only these is the same as trying every prefix and
   * skipping those that cannot start with c, without asking each one on every line.
   */
  private int[] prefixCandidates(char c) {
    return candidates(prefixCandidates, prefixStarts, prefixPatterns, c);
  }

  /** The kinds, in the spec's order, that can start with ASCII c (as {@link #prefixCandidates}). */
  private int[] kindCandidates(char c) {
    return candidates(kindCandidates, kindStarts, kindPatterns, c);
  }

  private static int[] candidates(int[][] known, MatchStarts[] starts, List<Pattern> patterns, char c) {
    int[] list = known[c];
    if (list == null) {
      list = IntStream.range(0, patterns.size()).filter(i -> canStart(starts, patterns, i, c)).toArray();
      known[c] = list;
    }
    return list;
  }

  private boolean peelStop(String text, int at) {
    if (at < text.length() && text.charAt(at) < 128 && !stopStarts[text.charAt(at)]) {
      return false;
    }
    for (String stop : peelStops) {
      if (text.startsWith(stop, at)) {
        return true;
      }
    }
    return false;
  }

  public LineSpec spec() {
    return spec;
  }

  /** Fills {@code m} from the line; {@code m.kind} stays null when no kind matches. */
  public void match(long lineNo, String line, MatchedLine m) {
    match(lineNo, line, m, false);
  }

  /**
   * As {@link #match(long, String, MatchedLine)}; {@code printable} says the caller already knows
   * the line is printable ASCII (it checked the bytes), so it need not be scanned again.
   */
  void match(long lineNo, String line, MatchedLine m, boolean printable) {
    m.reset(lineNo);
    m.raw = line;
    String text = line;
    if (!spec.envelopes().isEmpty() && !line.isEmpty() && line.charAt(0) == '{' && !ownObject(line)) {
      text = unwrap(line, m);
    }
    text = strip(text);
    m.text = text;
    boolean fast = (printable && text == line) || FastPatterns.printableAscii(text);
    int at = 0;
    boolean header = false;
    for (int n = 0; n < MAX_PREFIXES; n++) {
      if (peelStop(text, at)) {
        break;
      }
      boolean found = false;
      char next = at < text.length() ? text.charAt(at) : 0;
      // only the prefixes that can start with the next character, in the spec's order
      int[] candidates = next < 128 && at < text.length() ? prefixCandidates(next) : allPrefixes;
      for (int i : candidates) {
        if (prefixSkeletons[i] != null && !prefixSkeletons[i].mayMatch(text, at)
            || fast && prefixPrechecks[i] != null && !prefixPrechecks[i].mayMatch(text, at)) {
          continue;
        }
        if (fast && fastPrefixes[i] != null) {
          int end = fastPrefixes[i].match(text, at, fastOut);
          if (end > at) {
            peeled(i, m);
            at = end;
            found = true;
            header |= i < spec.headers();
            break;
          }
          continue;
        }
        Matcher pm = prefixes.get(i);
        pm.reset(text);
        pm.region(at, text.length());
        if (pm.lookingAt() && pm.end() > at) {
          LineSpec.Prefix p = spec.prefixes().get(i);
          m.prefixes.add(p.name());
          // a record follows (Fluent Bit's print): the prefix's groups wait for what the record names
          boolean printed = p.msgpack() && pm.end() < text.length() && text.charAt(pm.end()) == '{'
              && !spec.envelopes().isEmpty();
          java.util.Map<String, String> deferred = printed ? new java.util.LinkedHashMap<>() : null;
          for (String g : p.groups()) {
            String v = pm.group(g);
            if (v != null && deferred != null) {
              deferred.put(g, v);
            } else if (v != null) {
              m.prefixValues.merge(g, v, (a, b) -> a + " / " + b);
            }
          }
          if (p.time() != null) {
            String[] parts = new String[p.time().groups().size()];
            for (int j = 0; j < parts.length; j++) {
              parts[j] = pm.group(p.time().groups().get(j));
            }
            // a time in an optional part of the prefix that this line left out: no time from it
            if (parts.length > 0 && parts[0] != null) {
              m.times.add(new MatchedLine.TimeReading(p.time(), parts));
            }
          }
          if (p.section()) {
            m.sectionPrefix = i;
          }
          if (p.sticky()) {
            for (String g : p.groups()) {
              if (pm.group(g) != null && (p.time() == null || !p.time().groups().contains(g))) {
                m.stickyText = text.substring(pm.start(g), pm.end());
                m.stickyPrefix = i;
                break;
              }
            }
          }
          at = pm.end();
          found = true;
          header |= i < spec.headers();
          if (p.json() && at < text.length() && text.charAt(at) == '{' && !spec.envelopes().isEmpty()) {
            // a JSON record after the prefix (Fluentd's stdout output): its envelope's line is read
            // from here as a line that is the record alone would be
            String record = text.substring(at);
            String inner = unwrap(record, m);
            if (inner != record) {
              text = strip(inner);
              m.text = text;
              fast = FastPatterns.printableAscii(text);
              at = 0;
            }
          } else if (printed) {
            // Fluent Bit's stdout output: the record as msgpack-c prints it, read as its JSON would be
            com.fasterxml.jackson.databind.node.ObjectNode node = MsgpackPrint.record(text, at);
            String inner = node == null ? null : unwrap(node, m);
            for (var d : deferred.entrySet()) {
              if (inner == null || !enveloped.contains(d.getKey())) {
                m.prefixValues.merge(d.getKey(), d.getValue(), (a, b) -> a + " / " + b);
              }
            }
            if (inner != null) {
              text = strip(inner);
              m.text = text;
              fast = FastPatterns.printableAscii(text);
              at = 0;
            }
          }
          break;
        }
      }
      if (!found && n > 0 && !header && !remembered.isEmpty()) {
        found = peelRemembered(text, at, m);
        if (found) {
          at += m.stickyText.length();
          m.stickyText = null; // known already
          continue;
        }
      }
      if (!found) {
        int resumed = header ? -1 : resync(text, at, m);
        if (resumed < 0) {
          break;
        }
        at = resumed;
      }
    }
    // the kinds are matched on the text from the end of the prefixes: no copy of the message
    m.messageFrom(at);
    char first = at < text.length() ? text.charAt(at) : 0;
    for (int i : first != 0 && first < 128 ? kindCandidates(first) : allKinds) {
      if (!text.startsWith(kindLiterals[i], at)
          || kindSkeletons[i] != null && !kindSkeletons[i].mayMatch(text, at)) {
        continue;
      }
      if (fast && fastKinds[i] != null) {
        if (fastKinds[i].match(text, at, fastOut) >= 0) {
          LineSpec.Kind k = spec.kinds().get(i);
          m.kind = k;
          int[] order = fastKindGroups[i];
          for (int j = 0; j < order.length; j++) {
            String v = fastOut[order[j]];
            if (v != null) {
              m.groups.put(kindGroupNames[i][j], v);
            }
          }
          return;
        }
        continue;
      }
      Matcher km = kinds.get(i);
      km.reset(text);
      km.region(at, text.length()); // anchoring bounds: ^ is the message's start
      if (km.lookingAt()) {
        LineSpec.Kind k = spec.kinds().get(i);
        m.kind = k;
        for (String g : k.groups()) {
          String v = km.group(g);
          if (v != null) {
            m.groups.put(g, v);
          }
        }
        return;
      }
    }
  }

  /** The identity texts sticky prefixes peeled from this file's lines, with their prefix and values. */
  private final List<Object[]> remembered = new ArrayList<>();
  private static final int MAX_REMEMBERED = 32;

  /**
   * Keeps the identity text a sticky prefix peeled from a line (rsyslog's "gpu-1 vllm: " before a
   * line start it knows), so the file's later lines of that host and tag whose start it does not
   * know (a traceback's) are peeled too. Called by the one thread that stores lines, in line order,
   * so a line's reading never depends on which thread matched the lines before it.
   */
  void remember(MatchedLine m) {
    if (m.stickyText == null || remembered.size() >= MAX_REMEMBERED) {
      return;
    }
    for (Object[] r : remembered) {
      if (r[0].equals(m.stickyText)) {
        return;
      }
    }
    LineSpec.Prefix p = spec.prefixes().get(m.stickyPrefix);
    java.util.Map<String, String> values = new java.util.LinkedHashMap<>();
    for (String g : p.groups()) {
      String v = m.prefixValues.get(g);
      if (v != null && (p.time() == null || !p.time().groups().contains(g))) {
        values.put(g, v);
      }
    }
    remembered.add(new Object[] {m.stickyText, p.name(), values});
  }

  /** The groups of the last section line (tail's "==> a.log <=="), or null before one. */
  private java.util.Map<String, String> section;

  /**
   * A section line (a prefix marked {@code section}: tail's "==> logs/pod-a.log <==") heads the
   * file's lines after it up to the next one: its groups become theirs where they have none of that
   * name (the file a block came from is its lines' origin, though they carry no prefix of it).
   * Called by the one thread that stores lines, in line order, after {@link #remember}.
   */
  void section(MatchedLine m) {
    if (m.sectionPrefix >= 0) {
      java.util.Map<String, String> values = new java.util.LinkedHashMap<>();
      for (String g : spec.prefixes().get(m.sectionPrefix).groups()) {
        String v = m.prefixValues.get(g);
        if (v != null) {
          values.put(g, v);
        }
      }
      section = values;
    } else if (section != null) {
      for (var e : section.entrySet()) {
        m.prefixValues.putIfAbsent(e.getKey(), e.getValue());
      }
    }
  }

  /** Whether the line's message starts with a remembered identity text (it was matched without it). */
  boolean peelsRemembered(MatchedLine m) {
    if (remembered.isEmpty() || m.prefixes.isEmpty() || m.text == null) {
      return false;
    }
    for (Object[] r : remembered) {
      if (m.text.startsWith((String) r[0], m.messageStart())) {
        return true;
      }
    }
    return false;
  }

  @SuppressWarnings("unchecked")
  private boolean peelRemembered(String text, int at, MatchedLine m) {
    for (Object[] r : remembered) {
      String t = (String) r[0];
      if (text.startsWith(t, at)) {
        m.prefixes.add((String) r[1]);
        for (var e : ((java.util.Map<String, String>) r[2]).entrySet()) {
          m.prefixValues.merge(e.getKey(), e.getValue(), (a, b) -> a + " / " + b);
        }
        m.stickyText = t;
        return true;
      }
    }
    return false;
  }

  /** Records prefix i, which its equivalent matched (its groups in fastOut), as the regex path does below. */
  private void peeled(int i, MatchedLine m) {
    LineSpec.Prefix p = spec.prefixes().get(i);
    int[] order = fastPrefixGroups[i];
    String[] names = prefixGroupNames[i];
    m.prefixes.add(p.name());
    for (int j = 0; j < order.length; j++) {
      String v = fastOut[order[j]];
      if (v != null) {
        m.prefixValues.merge(names[j], v, (a, b) -> a + " / " + b);
      }
    }
    int[] slots = fastPrefixTimeSlots[i];
    if (slots != null) {
      String[] parts = new String[slots.length];
      for (int j = 0; j < parts.length; j++) {
        parts[j] = fastOut[slots[j]];
      }
      if (parts.length > 0 && parts[0] != null) {
        m.times.add(new MatchedLine.TimeReading(p.time(), parts));
      }
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /**
   * The value of an envelope's key: the object's own key of that name, else, for a dotted name, the
   * path into nested objects ({@code kubernetes.pod_name}: Fluent Bit's, Fluentd's and Vector's
   * Kubernetes metadata; {@code resource.labels.pod_name}: Google Cloud Logging's); null if absent.
   */
  static com.fasterxml.jackson.databind.JsonNode at(com.fasterxml.jackson.databind.JsonNode node, String key) {
    com.fasterxml.jackson.databind.JsonNode v = node.get(key);
    if (v != null || key.indexOf('.') < 0) {
      return v;
    }
    for (String part : key.split("\\.")) {
      node = node.get(part);
      if (node == null) {
        return null;
      }
    }
    return node;
  }

  /**
   * Whether the line is one of the format's own JSON lines, whose start an {@code object} prefix
   * peels (the SGLang router's --log-json): read as text, never unwrapped by an envelope whose keys
   * it shares (a shipper's {@code {"timestamp": …, "message": …}}).
   */
  private boolean ownObject(String line) {
    for (Matcher o : objectPrefixes) {
      if (o.reset(line).lookingAt()) {
        return true;
      }
    }
    return false;
  }

  /** The text without what the spec's strips remove (colour codes, Ray's dedup suffix). */
  private String strip(String text) {
    for (int i = 0; i < strips.size(); i++) {
      int first = stripFirstChars[i];
      if (first >= 0 && text.indexOf(first) < 0) {
        continue;
      }
      String lit = stripLiterals[i];
      if (!lit.isEmpty() && !text.contains(lit)) {
        continue; // a plain search instead of a regex scan of every line
      }
      Matcher s = strips.get(i);
      s.reset(text);
      if (s.find()) {
        text = s.replaceAll("");
      }
    }
    return text;
  }

  /**
   * The inner line of a JSON envelope (docker json-file, journalctl -o json), with the envelope's
   * time and identity kept as prefix values; the line itself when no envelope holds it.
   */
  private String unwrap(String line, MatchedLine m) {
    com.fasterxml.jackson.databind.JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (java.io.IOException e) {
      return line; // not JSON after all: the kinds see it as it is
    }
    if (node == null || !node.isObject()) {
      return line;
    }
    String inner = unwrap(node, m);
    return inner == null ? line : inner;
  }

  /** The groups the last envelope unwrapped gave values to. */
  private final java.util.Set<String> enveloped = new java.util.HashSet<>();

  /** The inner line of an object an envelope holds (its time and identity kept), or null. */
  private String unwrap(com.fasterxml.jackson.databind.JsonNode node, MatchedLine m) {
    enveloped.clear();
    // the first envelope whose message key the object has and, where it names a time, whose time
    // key too (NIM's {"time": "02-20 21:46:27.896", "message": …} and a shipper's {"timestamp": …,
    // "message": …} share the message key); else the first with the message key alone
    LineSpec.Envelope chosen = null;
    for (LineSpec.Envelope e : spec.envelopes()) {
      com.fasterxml.jackson.databind.JsonNode msg = at(node, e.messageKey());
      if (msg == null || !msg.isTextual()) {
        continue;
      }
      if (e.time() == null || at(node, e.timeKey()) != null) {
        chosen = e;
        break;
      }
      chosen = chosen == null ? e : chosen;
    }
    if (chosen == null) {
      return null;
    }
    LineSpec.Envelope e = chosen;
    String inner = at(node, e.messageKey()).asText();
    int end = inner.length();
    while (end > 0 && (inner.charAt(end - 1) == '\n' || inner.charAt(end - 1) == '\r')) {
      end--;
    }
    m.prefixes.add(e.name());
    for (var v : e.values().entrySet()) {
      com.fasterxml.jackson.databind.JsonNode val = at(node, v.getKey());
      if (val != null && val.isValueNode() && !val.isNull()) {
        // the same name after a prefix that gave it (pm2's "0|app | " before the app's JSON
        // record) is one origin, not two
        m.prefixValues.merge(v.getValue(), val.asText(), (a, b) -> a.equals(b) ? a : a + " / " + b);
        enveloped.add(v.getValue());
      }
    }
    if (e.time() != null) {
      com.fasterxml.jackson.databind.JsonNode t = at(node, e.timeKey());
      // an RFC 3339 time is a string; a shipper that writes epoch numbers under the same key
      // (CloudWatch's "timestamp") gives the line no wrapper time rather than a bad one
      if (t != null && t.isValueNode() && e.time().kind().equals("month-day")) {
        // "02-20 21:46:27.896": vLLM's month and day, no year (LogTimes dates it)
        java.util.regex.Matcher md = MONTH_DAY.matcher(t.asText());
        String[] dated = md.matches() ? null : LocalDateTimes.parts(t.asText());
        if (md.matches()) {
          m.times.add(new MatchedLine.TimeReading(e.time(), new String[] {md.group(1), md.group(2), md.group(3)}));
        } else if (dated != null) {
          // NIM's JSON logging of 2026 writes the year too ("2026-03-03 12:00:10"): a dated local time
          m.times.add(new MatchedLine.TimeReading(LocalDateTimes.RULE, dated));
        } else if (RFC3339.matcher(t.asText()).matches()) {
          // Dynamo's JSON lines (DYN_LOGGING_JSONL) use the same keys with an RFC 3339 instant
          m.times.add(new MatchedLine.TimeReading(INSTANT_TIME, new String[] {t.asText()}));
        }
      } else if (t != null && t.isTextual() && e.time().kind().equals("rfc3339") && t.asText().length() <= 19
          && DAY_ONLY.matcher(t.asText()).matches()) {
        // a day without a time of day or a zone (older az containerapp logs show wrote
        // "2024-04-18T00:00:00" for every line, Azure/azure-cli#28873): midnight is not when the
        // line was written, so the line has no wrapper time and is read by its inner line's own
      } else if (t != null && t.isTextual() && e.time().kind().equals("rfc3339") && !RFC3339.matcher(t.asText()).matches()) {
        // a shipper's own format under the key: pm2's JSON logs write its log_date_format there
        // ("2019-01-24 15:41:06", "2025-10-29T10:53:35": local, a year), read as a local date-time;
        // another shape gives no time (the line was rejected for it), the inner line has its own
        String[] dated = LocalDateTimes.parts(t.asText());
        if (dated != null) {
          m.times.add(new MatchedLine.TimeReading(LocalDateTimes.RULE, dated));
        }
      } else if (t != null && t.isValueNode() && (t.isTextual() || !e.time().kind().equals("rfc3339"))) {
        m.times.add(new MatchedLine.TimeReading(e.time(), new String[] {t.asText()}));
      }
    }
    return inner.substring(0, end);
  }

  /**
   * The literal text an anchored regex starts with: {@code ^Added request (?<id>…)} →
   * "Added request ". Stops at the first metacharacter; a character a quantifier applies to is
   * left out.
   */
  static String literalStart(String regex) {
    if (!regex.startsWith("^")) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if ("\\.[]{}()*+?|^$".indexOf(c) >= 0) {
        if ((c == '*' || c == '+' || c == '?' || c == '{') && sb.length() > 0) {
          sb.setLength(sb.length() - 1);
        }
        break;
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /**
   * The longest run of literal characters every match of {@code regex} contains, or "" when that
   * is not plain to see: a regex with an alternation, or none found. Only runs outside groups and
   * character classes count; a character a quantifier makes optional or repeats ends the run
   * before it ({@code +} keeps it), so what is returned is always in every match.
   */
  static String requiredLiteral(String regex) {
    if (regex.indexOf('|') >= 0) {
      return "";
    }
    String best = "";
    StringBuilder run = new StringBuilder();
    int depth = 0;
    boolean inClass = false;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      Character lit = null;
      if (inClass) {
        if (c == '\\') {
          i++;
        } else if (c == ']') {
          inClass = false;
        }
        continue;
      }
      if (c == '\\' && i + 1 < regex.length()) {
        char n = regex.charAt(i + 1);
        if ("[](){}.*+?^$|\\/-: ".indexOf(n) >= 0) {
          lit = n;
          i++;
        } else {
          // a class escape (digit, space), a hex or unicode escape: not a plain character here
          best = longer(best, run);
          run.setLength(0);
          i++;
          if (n == 'x') {
            i += 2;
          } else if (n == 'u') {
            i += 4;
          } else if ((n == 'p' || n == 'P') && i + 1 < regex.length() && regex.charAt(i + 1) == '{') {
            i = Math.max(i, regex.indexOf('}', i));
          }
          continue;
        }
      } else if (c == '[') {
        inClass = true;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if ("*?{".indexOf(c) >= 0) {
        if (run.length() > 0) {
          run.setLength(run.length() - 1); // the character before is optional or repeated
        }
        if (c == '{') {
          int close = regex.indexOf('}', i);
          i = close < 0 ? regex.length() : close;
        }
      } else if (c != '+' && c != '.' && c != '^' && c != '$') {
        lit = c;
      }
      if (lit != null && depth == 0) {
        run.append(lit);
      } else {
        best = longer(best, run);
        run.setLength(0);
      }
    }
    return longer(best, run);
  }

  private static String longer(String best, CharSequence run) {
    return run.length() > best.length() ? run.toString() : best;
  }

  /** The character a regex's match must start with, for {@code \\xHH}, {@code \\uHHHH} or a plain character; else -1. */
  static int firstChar(String regex) {
    if (regex.startsWith("\\x") && regex.length() >= 4) {
      return Integer.parseInt(regex.substring(2, 4), 16);
    }
    if (regex.startsWith("\\u") && regex.length() >= 6) {
      return Integer.parseInt(regex.substring(2, 6), 16);
    }
    if (!regex.isEmpty() && "\\.[]{}()*+?|^$".indexOf(regex.charAt(0)) < 0
        && (regex.length() == 1 || "*?{".indexOf(regex.charAt(1)) < 0)) {
      return regex.charAt(0);
    }
    return -1;
  }

  /** Name of the prefix a resync peels: a wrapper no prefix knows. */
  public static final String UNKNOWN_WRAPPER = "unknown";
  /** A full instant (a year, sub-second digits, a zone) in an unknown wrapper's text. */
  private static final Pattern INSTANT = Pattern.compile(
      "(?<!\\d)\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d[.,]\\d{1,9}(?:Z|[+-]\\d\\d:?\\d\\d)(?![\\d:])");
  private static final java.util.regex.Pattern RFC3339 = java.util.regex.Pattern.compile(
      "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d{1,9})?(?:Z|[+-]\\d\\d:?\\d\\d)");
  private static final java.util.regex.Pattern DAY_ONLY =
      java.util.regex.Pattern.compile("\\d{4}-\\d\\d-\\d\\d(?:T00:00:00)?");
  private static final java.util.regex.Pattern MONTH_DAY =
      java.util.regex.Pattern.compile("(\\d\\d-\\d\\d) (\\d\\d:\\d\\d:\\d\\d)(?:[.,](\\d{1,9}))?");
  private static final LineSpec.TimeRule INSTANT_TIME = new LineSpec.TimeRule("rfc3339", List.of("ts"));
  private Matcher resyncMatcher;
  private Matcher instantMatcher;

  /**
   * Where the line's own part starts behind a wrapper no prefix knows: the first match of the
   * spec's {@code resync} after {@code at}, or -1. Tried only where no prefix matched and no header
   * of the format was peeled (after a header comes the message, whose words are not a wrapper).
   * The text skipped is peeled as {@link #UNKNOWN_WRAPPER}; an instant in it (a collector's
   * RFC 3339 time with a year and sub-second digits) is a wrapper time, as a known prefix's is.
   */
  private int resync(String text, int at, MatchedLine m) {
    if (spec.resync() == null || at + 1 >= text.length()) {
      return -1;
    }
    if (resyncMatcher == null) {
      resyncMatcher = spec.resync().matcher("").useTransparentBounds(true);
      instantMatcher = INSTANT.matcher("").useTransparentBounds(true);
    }
    Matcher r = resyncMatcher.reset(text).region(at, text.length());
    if (r.lookingAt()) {
      // the line starts as the format's own part does: no wrapper before it, and a later start in
      // its message is the message's ("[TensorRT-LLM][ERROR] Encountered an error in forwardAsync
      // function: [TensorRT-LLM][ERROR] Assertion failed: …", a nested C++ error)
      return -1;
    }
    r.region(at + 1, text.length());
    if (!r.find()) {
      return -1;
    }
    int start = r.start();
    m.prefixes.add(UNKNOWN_WRAPPER);
    // kept for --explain (no identity: such text may differ line to line, as a test's id does)
    m.prefixValues.merge(UNKNOWN_WRAPPER, text.substring(at, start), (a, b) -> a + b);
    Matcher t = instantMatcher.reset(text).region(at, start);
    if (t.find()) {
      m.times.add(new MatchedLine.TimeReading(INSTANT_TIME, new String[] {t.group()}));
    }
    return start;
  }

  /** The kinds' hints without their anchor, made when --explain first asks. */
  private List<Matcher> looseHints;

  /**
   * Whether a line no prefix peeled holds a kind's hint anywhere (--explain only): a header no
   * prefix knows ("2025-10-29 02:27:35 INFO 8900 [ DP15 TP15 EP15 …] Decode batch. …", a fork's
   * logging format), whose lines would otherwise pass for text no kind is about.
   */
  boolean mentionsAKind(String text) {
    if (looseHints == null) {
      looseHints = new ArrayList<>();
      for (LineSpec.Kind k : spec.kinds()) {
        if (k.hint() != null) {
          String h = k.hint().pattern();
          looseHints.add(Pattern.compile(h.startsWith("^") ? h.substring(1) : h).matcher(""));
        }
      }
    }
    for (Matcher h : looseHints) {
      if (h.reset(text).find()) {
        return true;
      }
    }
    return false;
  }

  /** The kinds whose hint the message matches (after {@link #match} found no kind). */
  public LineSpec.Kind nearMiss(MatchedLine m) {
    for (int i = 0; i < hints.size(); i++) {
      Matcher h = hints.get(i);
      if (h != null) {
        h.reset(m.message());
        if (h.find()) {
          return spec.kinds().get(i);
        }
      }
    }
    return null;
  }
}
