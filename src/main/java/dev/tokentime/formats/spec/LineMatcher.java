package dev.tokentime.formats.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * Applies a spec to one decoded line: removes strip patterns, peels prefixes off the start (in
 * any order, nested up to {@link #MAX_PREFIXES}), then finds the first kind whose pattern matches
 * the rest. Holds one reusable Matcher per pattern: one instance per parse, not thread-safe.
 */
public final class LineMatcher {
  static final int MAX_PREFIXES = 8;

  private final LineSpec spec;
  private final List<Matcher> strips = new ArrayList<>();
  private final List<Matcher> prefixes = new ArrayList<>();
  private final List<Matcher> kinds = new ArrayList<>();
  private final List<Matcher> hints = new ArrayList<>();

  public LineMatcher(LineSpec spec) {
    this.spec = spec;
    spec.strips().forEach(p -> strips.add(p.matcher("")));
    spec.prefixes().forEach(p -> prefixes.add(p.pattern().matcher("")));
    for (LineSpec.Kind k : spec.kinds()) {
      kinds.add(k.pattern().matcher(""));
      hints.add(k.hint() == null ? null : k.hint().matcher(""));
    }
  }

  public LineSpec spec() {
    return spec;
  }

  /** Fills {@code m} from the line; {@code m.kind} stays null when no kind matches. */
  public void match(long lineNo, String line, MatchedLine m) {
    m.reset(lineNo);
    String text = line;
    for (Matcher s : strips) {
      s.reset(text);
      if (s.find()) {
        text = s.replaceAll("");
      }
    }
    m.text = text;
    int at = 0;
    for (int n = 0; n < MAX_PREFIXES; n++) {
      boolean found = false;
      for (int i = 0; i < prefixes.size(); i++) {
        Matcher pm = prefixes.get(i);
        pm.reset(text);
        pm.region(at, text.length());
        if (pm.lookingAt() && pm.end() > at) {
          LineSpec.Prefix p = spec.prefixes().get(i);
          m.prefixes.add(p.name());
          for (String g : p.groups()) {
            String v = pm.group(g);
            if (v != null) {
              m.prefixValues.merge(g, v, (a, b) -> a + " / " + b);
            }
          }
          if (p.time() != null) {
            String[] parts = new String[p.time().groups().size()];
            for (int j = 0; j < parts.length; j++) {
              parts[j] = pm.group(p.time().groups().get(j));
            }
            m.times.add(new MatchedLine.TimeReading(p.time(), parts));
          }
          at = pm.end();
          found = true;
          break;
        }
      }
      if (!found) {
        break;
      }
    }
    m.message = text.substring(at);
    for (int i = 0; i < kinds.size(); i++) {
      Matcher km = kinds.get(i);
      km.reset(m.message);
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

  /** The kinds whose hint the message matches (after {@link #match} found no kind). */
  public LineSpec.Kind nearMiss(MatchedLine m) {
    for (int i = 0; i < hints.size(); i++) {
      Matcher h = hints.get(i);
      if (h != null) {
        h.reset(m.message);
        if (h.find()) {
          return spec.kinds().get(i);
        }
      }
    }
    return null;
  }
}
