package dev.tokentime.formats.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * The fixed-width start of an anchored regex, read from its text: for each of the first
 * characters a match must have, the ASCII characters it may be. {@code ^(?<ymd>\d{4}-\d\d-\d\d) }
 * gives 11 positions (4 digits, '-', 2 digits, '-', 2 digits, ' '). A text whose start does not
 * fit cannot match, so the regex need not run: most prefixes are tried at a place where an
 * earlier one fails a few characters in (a container timestamp has 'T' where a plain date-time
 * has a space).
 *
 * <p>Reading stops, keeping what it has, at anything that is not plainly one character: a
 * quantifier other than {@code {n}} (the atom before it is dropped), an alternation, a group that
 * holds one or is repeated or optional, a lookaround, {@code .}, an anchor. Non-ASCII characters
 * are never ruled out (a position's set speaks for ASCII only).
 */
final class LeadingSkeleton {
  /** Per position: allowed ASCII characters. */
  private final boolean[][] positions;

  private LeadingSkeleton(List<boolean[]> positions) {
    this.positions = positions.toArray(new boolean[0][]);
  }

  int length() {
    return positions.length;
  }

  /** False when {@code s} from {@code at} cannot start a match (too short texts are not ruled out). */
  boolean mayMatch(String s, int at) {
    int n = Math.min(positions.length, s.length() - at);
    for (int k = 0; k < n; k++) {
      char c = s.charAt(at + k);
      if (c < 128 && !positions[k][c]) {
        return false;
      }
    }
    return true;
  }

  static LeadingSkeleton of(String regex) {
    List<boolean[]> out = new ArrayList<>();
    int i = regex.startsWith("^") ? 1 : 0;
    int n = regex.length();
    while (i < n) {
      char c = regex.charAt(i);
      if (c == '(') {
        int close = groupEnd(regex, i);
        if (close < 0 || hasAlternation(regex, i + 1, close) || quantified(regex, close + 1)) {
          break;
        }
        int body;
        if (regex.startsWith("(?<", i) && i + 3 < n && Character.isLetter(regex.charAt(i + 3))) {
          body = regex.indexOf('>', i) + 1;
        } else if (regex.startsWith("(?:", i)) {
          body = i + 3;
        } else if (i + 1 < n && regex.charAt(i + 1) != '?') {
          body = i + 1;
        } else {
          break; // lookaround, flags
        }
        i = body; // the group's atoms are read in line; its ')' is skipped below
        continue;
      }
      if (c == ')') {
        i++;
        continue;
      }
      boolean[] set = new boolean[128];
      int next = atom(regex, i, set);
      if (next < 0) {
        break;
      }
      int count = 1;
      if (next < n) {
        char q = regex.charAt(next);
        if (q == '{') {
          int end = regex.indexOf('}', next);
          String inside = end < 0 ? "" : regex.substring(next + 1, end);
          if (!inside.matches("\\d+")) {
            break;
          }
          count = Integer.parseInt(inside);
          next = end + 1;
          if (next < n && (regex.charAt(next) == '?' || regex.charAt(next) == '+')) {
            next++; // {n}? and {n}+ still take exactly n
          }
        } else if (q == '?' || q == '*' || q == '+') {
          break;
        }
      }
      for (int k = 0; k < count; k++) {
        out.add(set);
      }
      i = next;
    }
    return new LeadingSkeleton(out);
  }

  /** Reads one single-character atom at i into set; returns the index after it, or -1. */
  private static int atom(String r, int i, boolean[] set) {
    char c = r.charAt(i);
    if (c == '\\') {
      if (i + 1 >= r.length()) {
        return -1;
      }
      char e = r.charAt(i + 1);
      if (!escapeClass(e, set)) {
        if (Character.isLetterOrDigit(e)) {
          return -1; // \x41, \b, \1 …: not read here
        }
        if (e >= 128) {
          return -1;
        }
        set[e] = true;
      }
      return i + 2;
    }
    if (c == '[') {
      return charClass(r, i, set);
    }
    if ("|.$^*+?{}()".indexOf(c) >= 0) {
      return -1;
    }
    if (c >= 128) {
      return -1;
    }
    set[c] = true;
    return i + 1;
  }

  /** \d \w \s \S \D \W into set; false for other escapes. */
  private static boolean escapeClass(char e, boolean[] set) {
    switch (e) {
      case 'd', 'D', 'w', 'W', 's', 'S' -> {
        for (char c = 0; c < 128; c++) {
          boolean in = switch (Character.toLowerCase(e)) {
            case 'd' -> c >= '0' && c <= '9';
            case 'w' -> c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
            default -> c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
          };
          set[c] = Character.isUpperCase(e) != in;
        }
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** A simple class [...] (ranges, escapes, a leading ^); -1 for nested classes or intersections. */
  private static int charClass(String r, int i, boolean[] set) {
    int j = i + 1;
    boolean negate = j < r.length() && r.charAt(j) == '^';
    if (negate) {
      j++;
    }
    boolean[] in = new boolean[128];
    boolean first = true;
    while (j < r.length()) {
      char c = r.charAt(j);
      if (c == ']' && !first) {
        break;
      }
      first = false;
      if (c == '[' || c == '&') {
        return -1;
      }
      char lo;
      if (c == '\\') {
        if (j + 1 >= r.length()) {
          return -1;
        }
        char e = r.charAt(j + 1);
        boolean[] cls = new boolean[128];
        if (escapeClass(e, cls)) {
          for (int k = 0; k < 128; k++) {
            in[k] |= cls[k];
          }
          j += 2;
          continue;
        }
        if (Character.isLetterOrDigit(e)) {
          return -1;
        }
        lo = e;
        j += 2;
      } else {
        lo = c;
        j++;
      }
      char hi = lo;
      if (j + 1 < r.length() && r.charAt(j) == '-' && r.charAt(j + 1) != ']') {
        char h = r.charAt(j + 1);
        if (h == '\\' || h == '[') {
          return -1;
        }
        hi = h;
        j += 2;
      }
      for (int k = lo; k <= hi && k < 128; k++) {
        in[k] = true;
      }
    }
    if (j >= r.length()) {
      return -1;
    }
    for (int k = 0; k < 128; k++) {
      set[k] = in[k] != negate;
    }
    return j + 1;
  }

  /** The index of the ')' closing the group opened at i, or -1. */
  private static int groupEnd(String r, int i) {
    int depth = 0;
    boolean inClass = false;
    for (int j = i; j < r.length(); j++) {
      char c = r.charAt(j);
      if (c == '\\') {
        j++;
      } else if (inClass) {
        if (c == ']') {
          inClass = false;
        }
      } else if (c == '[') {
        inClass = true;
        if (j + 1 < r.length() && r.charAt(j + 1) == ']') {
          j++;
        }
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
        if (depth == 0) {
          return j;
        }
      }
    }
    return -1;
  }

  private static boolean hasAlternation(String r, int from, int to) {
    boolean inClass = false;
    for (int j = from; j < to; j++) {
      char c = r.charAt(j);
      if (c == '\\') {
        j++;
      } else if (inClass) {
        if (c == ']') {
          inClass = false;
        }
      } else if (c == '[') {
        inClass = true;
      } else if (c == '|') {
        return true;
      }
    }
    return false;
  }

  private static boolean quantified(String r, int at) {
    return at < r.length() && "?*+{".indexOf(r.charAt(at)) >= 0;
  }
}
