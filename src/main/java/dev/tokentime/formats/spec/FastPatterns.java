package dev.tokentime.formats.spec;

import java.util.List;
import java.util.Map;

/**
 * Hand-compiled equivalents of the few spec patterns that nearly every line of a vLLM log meets
 * (the container timestamp, the process tag, vLLM's own header, the streaming-delta line). The
 * spec stays the declaration: an equivalent is used only for the exact pattern text it was written
 * from (a changed pattern in {@code parsers/} simply runs as a regex again), and only on lines of
 * printable ASCII, where {@code \s} is a space, {@code .} any character and {@code $} the end of
 * the text; anything else goes to the regex. {@code LineMatcherShortcutsTest} matches every
 * sample and real line, generated logs and mutations of them both ways and requires the same
 * result, and {@code FastPatternsTest} requires each pattern text here to be one a spec declares.
 *
 * <p>Each pattern below is deterministic on that alphabet: no quantifier can give back a
 * character and still let the rest match (the reasoning is beside each), so a single left-to-right
 * scan finds the match {@code Matcher.lookingAt} finds, with the same groups.
 */
final class FastPatterns {
  /** Returned by {@link Fast#match} when the text does not match the pattern. */
  static final int NO_MATCH = -1;

  /** One hand-compiled pattern: group values are written into {@code out} in {@link #groups()} order. */
  interface Fast {
    List<String> groups();

    /** The end of the match starting at {@code from} (as lookingAt over [from, end)), or NO_MATCH. */
    int match(String s, int from, String[] out);
  }

  private FastPatterns() {}

  /** The container timestamp prefix (parsers/wrappers.spec, {@code prefix container}). */
  static final String CONTAINER = "^(?<ts>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d{1,9})?"
      + "(?:Z|[+-]\\d\\d:?\\d\\d))\\s+(?:(?<stream>stdout|stderr) [PF] )?";
  /** vLLM 0.10+ and Ray's process tag (parsers/wrappers.spec, {@code prefix process}). */
  static final String PROCESS = "^\\((?<process>[A-Za-z_][\\w:.-]*(?:\\((?:[\\w=:.,-]|\\([\\w=:.,-]*\\))*\\))?"
      + "(?: (?:rank=\\d+|(?:DP|PP|TP|EP|DCP|PCP)\\d+(?:_(?:DP|PP|TP|EP|DCP|PCP)\\d+)*))?) pid=(?<pid>\\d+)"
      + "(?:, ip=(?<host>[\\d.a-f:]+))?\\)\\s*";
  /** vLLM's own header (parsers/vllm-log.spec, {@code prefix vllm}). */
  static final String VLLM_HEADER = "^(?<level>DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\\s+(?<md>\\d\\d-\\d\\d)"
      + "\\s+(?<hms>\\d\\d:\\d\\d:\\d\\d)(?:[.,](?<frac>\\d{1,6}))?\\s+\\[?\\[?(?<src>[\\w./<>-]+:\\d+)\\]"
      + "(?:\\(https?://[^)\\s]*\\)\\])?\\s?";
  /** A response line (parsers/vllm-log.spec, {@code kind generated}). */
  static final String GENERATED = "^Generated response (?<id>[^\\s:]+?)(?: \\((?<mode>streaming delta|"
      + "streaming complete)\\))?: output: (?<output>.*?)(?:, output_token_ids: (?<ids>\\[[^\\]]*\\]|None)"
      + "(?:, finish_reason: (?<reason>None|stop|length|abort|error|[A-Za-z_]{6,}))?|, finish_reason: "
      + "(?<infoReason>None|stop|length|abort|error|[A-Za-z_]{6,}))\\s*$";

  private static final Map<String, Fast> BY_PATTERN = Map.of(
      CONTAINER, new Container(),
      PROCESS, new Process(),
      VLLM_HEADER, new VllmHeader(),
      GENERATED, new Generated());

  /** journald short form and RFC 3164 syslog (parsers/wrappers.spec, {@code prefix journald}). */
  static final String JOURNALD = "^(?:<\\d{1,3}>)?(?<jdate>(?:\\S{3,12}| ?\\d[月월])\\s+\\d{1,2}\\s+\\d\\d:\\d\\d:\\d\\d(?:\\.\\d{1,9})?)"
      + "\\s+(?:(?<host>[\\w.-]+)\\s+|(?=[\\w.@/-]+\\[\\d+\\]:))(?<unit>[\\w.@/-]+?)(?:\\[(?<upid>\\d+)\\])?:\\s?";

  /** journalctl -o short-iso and rsyslog's file format (parsers/wrappers.spec, {@code prefix journaldiso}). */
  static final String JOURNALD_ISO = "^(?<ts>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d{1,9})?(?:Z|[+-]\\d\\d:?\\d\\d))"
      + "\\s+(?!(?:TRACE|DEBUG|INFO|WARN(?:ING)?|ERROR|CRITICAL)\\s)(?<host>[\\w.-]+)\\s+(?<unit>[\\w.@/-]+?)"
      + "(?:\\[(?<upid>\\d+)\\]:\\s?|(?<=\\skernel):\\s|:\\s?(?=\\((?:[\\w:.()=,-]+ ){0,2}pid=|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)"
      + " \\d\\d-\\d\\d |INFO: |\\[))";

  /** Fluent Bit's stdout output (parsers/wrappers.spec, {@code prefix fluentbit}). */
  static final String FLUENT_BIT = "^\\[\\d+\\] (?:kube\\.var\\.log\\.containers\\.(?<pod>[a-z0-9][a-z0-9.-]*)_[^_\\s]+_"
      + "(?<container>[a-z0-9-]+?)-[0-9a-f]+\\.log|[^\\s\\[\\]]+): "
      + "\\[\\[?(?<epoch>\\d{9,11}(?:\\.\\d{1,9})?)(?:, \\{[^{}]*\\}\\])?, (?=\\{)";

  /** A necessary condition for a pattern to match at a place: false means it cannot. */
  interface Precheck {
    boolean mayMatch(String s, int from);
  }

  private static final Map<String, Precheck> PRECHECKS = Map.of(JOURNALD, FastPatterns::mayBeJournald,
      JOURNALD_ISO, FastPatterns::mayBeJournaldIso, FLUENT_BIT, FastPatterns::mayBeFluentBit);

  /** A precheck written for exactly this pattern text, or null. */
  static Precheck precheck(String regex) {
    return PRECHECKS.get(regex);
  }

  static java.util.Set<String> prechecked() {
    return PRECHECKS.keySet();
  }

  /**
   * JOURNALD, on printable ASCII (where a CJK month, {@code 6月}, never is): without the optional
   * {@code <pri>}, the date's {@code \S{3,12}} must be followed by a space, so it is the whole first word (3-12 characters), and then come
   * spaces, one or two digits and a space. With a '<' first either reading may apply: not ruled out.
   */
  private static boolean mayBeJournald(String s, int from) {
    if (at(s, from, '<')) {
      return true;
    }
    int i = from;
    // no need to scan past a 13th character: a word that long is no date
    int end = Math.min(s.length(), from + 13);
    while (i < end && s.charAt(i) != ' ') {
      i++;
    }
    int word = i - from;
    if (word < 3 || word > 12 || i == s.length()) {
      return false;
    }
    i = spaces(s, i);
    if (!digit(s, i)) {
      return false;
    }
    i++;
    if (digit(s, i)) {
      i++;
    }
    return at(s, i, ' ');
  }

  /**
   * JOURNALD_ISO, on printable ASCII: the timestamp holds no space, so the first space ends it;
   * then a host word, spaces, and a unit whose characters run up to a '[' (its pid) or a ':' (no
   * pid: rsyslog's file format, the kernel). A container timestamp before a vLLM line fails at the '(' of its
   * process tag, a CRI line at "stdout F " (neither follows the F).
   */
  private static boolean mayBeJournaldIso(String s, int from) {
    int end = Math.min(s.length(), from + 40);
    int i = from;
    while (i < end && s.charAt(i) != ' ') {
      i++;
    }
    if (i == end || i == from) {
      return false;
    }
    i = spaces(s, i);
    int host = i;
    while (i < s.length() && (word(s.charAt(i)) || s.charAt(i) == '.' || s.charAt(i) == '-')) {
      i++;
    }
    if (i == host || !at(s, i, ' ')) {
      return false;
    }
    i = spaces(s, i);
    int unit = i;
    while (i < s.length() && (word(s.charAt(i)) || "./@-".indexOf(s.charAt(i)) >= 0)) {
      i++;
    }
    return i > unit && (at(s, i, '[') || at(s, i, ':'));
  }

  /**
   * FLUENT_BIT, on printable ASCII: '[', digits, "] " (the record's number), so an SGLang or
   * TensorRT-LLM line's bracketed header ("[2025-…", "[TensorRT-LLM]") is ruled out at once.
   */
  private static boolean mayBeFluentBit(String s, int from) {
    if (!at(s, from, '[') || !digit(s, from + 1)) {
      return false;
    }
    int i = from + 2;
    while (digit(s, i)) {
      i++;
    }
    return at(s, i, ']') && at(s, i + 1, ' ');
  }

  /** The equivalent of exactly this pattern text, or null. */
  static Fast of(String regex) {
    return BY_PATTERN.get(regex);
  }

  static java.util.Set<String> patterns() {
    return BY_PATTERN.keySet();
  }

  /** Printable ASCII only (the alphabet the equivalents are exact on). */
  static boolean printableAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return false;
      }
    }
    return true;
  }

  // ---- character classes on printable ASCII ----

  private static boolean digit(String s, int i) {
    return i < s.length() && isDigit(s.charAt(i));
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean word(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
  }

  private static boolean at(String s, int i, char c) {
    return i < s.length() && s.charAt(i) == c;
  }

  private static boolean digits(String s, int i, int n) {
    if (i + n > s.length()) {
      return false;
    }
    for (int k = i; k < i + n; k++) {
      if (!isDigit(s.charAt(k))) {
        return false;
      }
    }
    return true;
  }

  /** End of a run of spaces from i (\s on printable ASCII is the space). */
  private static int spaces(String s, int i) {
    while (i < s.length() && s.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  private static int digitRun(String s, int i) {
    while (i < s.length() && isDigit(s.charAt(i))) {
      i++;
    }
    return i;
  }

  /**
   * CONTAINER. The fraction's digits are followed by Z, + or -, never by a digit, so taking fewer
   * of them (or none, or skipping the fraction) never lets the offset match; the offset's optional
   * colon likewise. {@code \s+} takes every space, then the stream part is tried once and the
   * match ends before it when it is absent.
   */
  private static final class Container implements Fast {
    @Override
    public List<String> groups() {
      return List.of("ts", "stream");
    }

    @Override
    public int match(String s, int from, String[] out) {
      int i = from;
      if (!(digits(s, i, 4) && at(s, i + 4, '-') && digits(s, i + 5, 2) && at(s, i + 7, '-')
          && digits(s, i + 8, 2) && at(s, i + 10, 'T') && digits(s, i + 11, 2) && at(s, i + 13, ':')
          && digits(s, i + 14, 2) && at(s, i + 16, ':') && digits(s, i + 17, 2))) {
        return NO_MATCH;
      }
      i += 19;
      if (at(s, i, '.') || at(s, i, ',')) {
        int e = digitRun(s, i + 1);
        if (e == i + 1 || e - (i + 1) > 9) {
          return NO_MATCH; // no digit: the offset would have to start at the dot; over 9: at a digit
        }
        i = e;
      }
      if (at(s, i, 'Z')) {
        i++;
      } else if (at(s, i, '+') || at(s, i, '-')) {
        if (!digits(s, i + 1, 2)) {
          return NO_MATCH;
        }
        i += 3;
        if (at(s, i, ':')) {
          i++;
        }
        if (!digits(s, i, 2)) {
          return NO_MATCH;
        }
        i += 2;
      } else {
        return NO_MATCH;
      }
      int tsEnd = i;
      int e = spaces(s, i);
      if (e == i) {
        return NO_MATCH;
      }
      out[0] = s.substring(from, tsEnd);
      out[1] = null;
      if (s.startsWith("stdout ", e) || s.startsWith("stderr ", e)) {
        if ((at(s, e + 7, 'P') || at(s, e + 7, 'F')) && at(s, e + 8, ' ')) {
          out[1] = s.substring(e, e + 6);
          return e + 9;
        }
      }
      return e;
    }
  }

  /** The end of a run of {@code [\\w=:.,-]} from {@code i}. */
  private static int idChars(String s, int i) {
    while (i < s.length()) {
      char c = s.charAt(i);
      if (word(c) || c == '=' || c == ':' || c == '.' || c == ',' || c == '-') {
        i++;
      } else {
        break;
      }
    }
    return i;
  }

  private static final String[] RANK_TAGS = {"DCP", "PCP", "DP", "PP", "TP", "EP"};

  /** The end of {@code (?:DP|PP|TP|EP|DCP|PCP)\\d+} at {@code i}, or -1. */
  private static int rankTag(String s, int i) {
    for (String t : RANK_TAGS) {
      if (s.startsWith(t, i) && digit(s, i + t.length())) {
        return digitRun(s, i + t.length());
      }
    }
    return -1;
  }

  /**
   * PROCESS. The name's class has no space, so it ends where " rank=" or " pid=" must start;
   * digit runs end where a non-digit must follow; the ip's class has no ')' to give back. Each
   * optional part is taken when it is there in full and the part after it must then follow; when
   * that part fails, skipping the optional one fails too (it begins with another character).
   */
  private static final class Process implements Fast {
    @Override
    public List<String> groups() {
      return List.of("process", "pid", "host");
    }

    @Override
    public int match(String s, int from, String[] out) {
      int i = from;
      if (!at(s, i, '(')) {
        return NO_MATCH;
      }
      i++;
      if (i >= s.length()) {
        return NO_MATCH;
      }
      char c0 = s.charAt(i);
      if (!(c0 >= 'A' && c0 <= 'Z' || c0 >= 'a' && c0 <= 'z' || c0 == '_')) {
        return NO_MATCH;
      }
      int nameStart = i;
      i++;
      while (i < s.length()) {
        char c = s.charAt(i);
        if (word(c) || c == ':' || c == '.' || c == '-') {
          i++;
        } else {
          break;
        }
      }
      if (at(s, i, '(')) {
        // an actor name's own parenthesised id, one level of parentheses inside it:
        // "(Llumlet(iid=f3664) pid=26863)", "(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=589, …)"
        int e = idChars(s, i + 1);
        while (at(s, e, '(')) {
          e = idChars(s, e + 1);
          if (!at(s, e, ')')) {
            return NO_MATCH;
          }
          e = idChars(s, e + 1);
        }
        if (!at(s, e, ')')) {
          return NO_MATCH;
        }
        i = e + 1;
      }
      if (s.startsWith(" rank=", i) && digit(s, i + 6)) {
        int e = digitRun(s, i + 6);
        if (s.startsWith(" pid=", e)) {
          i = e;
        }
      } else if (at(s, i, ' ')) {
        // vLLM 0.10's worker tag names its parallel rank: "(VllmWorker TP1 pid=…)", "PP1_TP2"
        int e = rankTag(s, i + 1);
        while (e > 0 && at(s, e, '_')) {
          e = rankTag(s, e + 1);
        }
        if (e > 0 && s.startsWith(" pid=", e)) {
          i = e;
        }
      }
      int nameEnd = i;
      if (!s.startsWith(" pid=", i) || !digit(s, i + 5)) {
        return NO_MATCH;
      }
      int pidStart = i + 5;
      int pidEnd = digitRun(s, pidStart);
      i = pidEnd;
      String host = null;
      if (s.startsWith(", ip=", i)) {
        int h = i + 5;
        int e = h;
        while (e < s.length()) {
          char c = s.charAt(e);
          if (isDigit(c) || c == '.' || c >= 'a' && c <= 'f' || c == ':') {
            e++;
          } else {
            break;
          }
        }
        if (e > h && at(s, e, ')')) {
          host = s.substring(h, e);
          i = e;
        }
      }
      if (!at(s, i, ')')) {
        return NO_MATCH;
      }
      out[0] = s.substring(nameStart, nameEnd);
      out[1] = s.substring(pidStart, pidEnd);
      out[2] = host;
      return spaces(s, i + 1);
    }
  }

  /**
   * VLLM_HEADER. A level is followed by a space or it fails (WARNING before WARN: "WARNING" with
   * no space after it cannot be "WARN" either, an 'I' follows). Spaces and digit runs end where
   * another character must follow. The fraction (1-6 digits) must be followed by a space; the
   * optional '[' is followed by the source's class, which has no '['; the source's class has no
   * ':' and no ']' to give back.
   */
  private static final class VllmHeader implements Fast {
    private static final String[] LEVELS = {"DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL"};

    @Override
    public List<String> groups() {
      return List.of("level", "md", "hms", "frac", "src");
    }

    @Override
    public int match(String s, int from, String[] out) {
      String level = null;
      for (String l : LEVELS) {
        if (s.startsWith(l, from) && at(s, from + l.length(), ' ')) {
          level = l;
          break;
        }
      }
      if (level == null) {
        return NO_MATCH;
      }
      int i = spaces(s, from + level.length());
      int md = i;
      if (!(digits(s, i, 2) && at(s, i + 2, '-') && digits(s, i + 3, 2) && at(s, i + 5, ' '))) {
        return NO_MATCH;
      }
      i = spaces(s, i + 5);
      int hms = i;
      if (!(digits(s, i, 2) && at(s, i + 2, ':') && digits(s, i + 3, 2) && at(s, i + 5, ':') && digits(s, i + 6, 2))) {
        return NO_MATCH;
      }
      i += 8;
      String frac = null;
      if (at(s, i, '.') || at(s, i, ',')) {
        int e = digitRun(s, i + 1);
        if (e == i + 1 || e - (i + 1) > 6) {
          return NO_MATCH;
        }
        frac = s.substring(i + 1, e);
        i = e;
      }
      if (!at(s, i, ' ')) {
        return NO_MATCH;
      }
      i = spaces(s, i);
      if (at(s, i, '[')) {
        i++;
      }
      if (at(s, i, '[')) {
        i++; // a pasted link's own bracket
      }
      int src = i;
      while (i < s.length()) {
        char c = s.charAt(i);
        if (word(c) || c == '.' || c == '/' || c == '<' || c == '>' || c == '-') {
          i++;
        } else {
          break;
        }
      }
      if (i == src || !at(s, i, ':') || !digit(s, i + 1)) {
        return NO_MATCH;
      }
      i = digitRun(s, i + 1);
      if (!at(s, i, ']')) {
        return NO_MATCH;
      }
      out[0] = level;
      out[1] = s.substring(md, md + 5);
      out[2] = s.substring(hms, hms + 8);
      out[3] = frac;
      out[4] = s.substring(src, i);
      i = linkAfter(s, i + 1);
      return at(s, i, ' ') ? i + 1 : i;
    }

    /** After "[src]": past "(http://…)]" (a pasted link's target and bracket), else where it was. */
    private static int linkAfter(String s, int i) {
      if (!s.startsWith("(http", i)) {
        return i;
      }
      int j = i + 5;
      if (at(s, j, 's')) {
        j++;
      }
      if (!s.startsWith("://", j)) {
        return i;
      }
      j += 3;
      while (j < s.length() && s.charAt(j) != ')' && s.charAt(j) != ' ') {
        j++;
      }
      return at(s, j, ')') && at(s, j + 1, ']') ? j + 2 : i;
    }
  }

  /**
   * GENERATED. The id's class has neither ' ' nor ':', and one of them must follow it, so the
   * lazy id is the whole run. The mode is taken when spelled out in full (": output: " must then
   * follow; skipping it leaves a ' ' where ':' must be). The lazy output ends at the first
   * ", output_token_ids: " after which the rest matches to the end: ids (a bracketed list up to
   * its first ']', or None), then either only spaces or ", finish_reason: " and a reason followed
   * by only spaces: one of None, stop, length, abort, error, or six or more of [A-Za-z_] (so a
   * reason cut short, "N", "sto", matches nothing and the line is a near miss).
   */
  private static final class Generated implements Fast {
    /** None, stop, length, abort, error, or a word of six letters or more (the spec's alternatives). */
    private static boolean knownReason(String s, int from, int to) {
      int n = to - from;
      return n >= 6 || s.regionMatches(from, "None", 0, 4) && n == 4 || s.regionMatches(from, "stop", 0, 4) && n == 4
          || s.regionMatches(from, "abort", 0, 5) && n == 5 || s.regionMatches(from, "error", 0, 5) && n == 5;
    }

    /** Where the word of letters and underscores (a finish reason) starting at {@code r} ends. */
    private static int reasonEnd(String s, int r) {
      int e = r;
      while (e < s.length() && (Character.isLetter(s.charAt(e)) && s.charAt(e) < 128 || s.charAt(e) == '_')) {
        e++;
      }
      return e;
    }

    private static void fill(String[] out, String s, int idStart, int idEnd, String mode, int outStart, int outEnd,
        String ids, String reason, String infoReason) {
      out[0] = s.substring(idStart, idEnd);
      out[1] = mode;
      out[2] = s.substring(outStart, outEnd);
      out[3] = ids;
      out[4] = reason;
      out[5] = infoReason;
    }

    private static final String HEAD = "Generated response ";
    private static final String OUTPUT = ": output: ";
    private static final String IDS = ", output_token_ids: ";
    private static final String REASON = ", finish_reason: ";

    @Override
    public List<String> groups() {
      return List.of("id", "mode", "output", "ids", "reason", "infoReason");
    }

    @Override
    public int match(String s, int from, String[] out) {
      if (!s.startsWith(HEAD, from)) {
        return NO_MATCH;
      }
      int i = from + HEAD.length();
      int idStart = i;
      while (i < s.length() && s.charAt(i) != ' ' && s.charAt(i) != ':') {
        i++;
      }
      if (i == idStart) {
        return NO_MATCH;
      }
      int idEnd = i;
      String mode = null;
      if (s.startsWith(" (streaming delta)", i)) {
        mode = "streaming delta";
        i += 18;
      } else if (s.startsWith(" (streaming complete)", i)) {
        mode = "streaming complete";
        i += 21;
      }
      if (!s.startsWith(OUTPUT, i)) {
        return NO_MATCH;
      }
      int outStart = i + OUTPUT.length();
      int n = s.length();
      // the regex's lazy output ends at the first ", " from which either ending runs to the line's
      // end: the ids (and their reason), or (2026-08 on) the finish reason alone
      for (int x = s.indexOf(", ", outStart); x >= 0; x = s.indexOf(", ", x + 1)) {
        if (s.startsWith(IDS, x)) {
          int y = x + IDS.length();
          int idsEnd = -1;
          if (at(s, y, '[')) {
            int close = s.indexOf(']', y + 1);
            idsEnd = close < 0 ? -1 : close + 1;
          } else if (s.startsWith("None", y)) {
            idsEnd = y + 4;
          }
          if (idsEnd >= 0) {
            String reason = null;
            boolean whole = false;
            if (s.startsWith(REASON, idsEnd)) {
              int r = idsEnd + REASON.length();
              int e = reasonEnd(s, r);
              if (e > r && spaces(s, e) == n && knownReason(s, r, e)) {
                reason = s.substring(r, e);
                whole = true;
              }
            }
            if (whole || spaces(s, idsEnd) == n) {
              fill(out, s, idStart, idEnd, mode, outStart, x, s.substring(y, idsEnd), reason, null);
              return n;
            }
          }
        } else if (s.startsWith(REASON, x)) {
          int r = x + REASON.length();
          int e = reasonEnd(s, r);
          if (e > r && spaces(s, e) == n && knownReason(s, r, e)) {
            fill(out, s, idStart, idEnd, mode, outStart, x, null, null, s.substring(r, e));
            return n;
          }
        }
      }
      return NO_MATCH;
    }
  }
}
