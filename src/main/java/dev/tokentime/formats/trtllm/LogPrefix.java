package dev.tokentime.formats.trtllm;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The prefixes TensorRT-LLM and Triton put before a logged payload, removed one after another:
 * a container's RFC 3339 time, the Python logger's {@code [MM/DD/YYYY-HH:MM:SS]} (kept: a
 * fallback wall time), {@code [TRT-LLM] [I]} / {@code [TRT-LLM][INFO]}, the C++ logger's
 * {@code [TensorRT-LLM][INFO]}, Triton's glog-style {@code I1218 03:35:37.688135 20559 file.cc:1205]},
 * and the 2026 {@code [_torch][RANK 0]} (kept: the rank).
 */
final class LogPrefix {
  private static final Pattern CONTAINER = Pattern.compile(
      "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})\\s+");
  private static final Pattern LOGGER_TIME = Pattern.compile(
      "^\\[(\\d{2}/\\d{2}/\\d{4}-\\d{2}:\\d{2}:\\d{2})\\]\\s*");
  private static final Pattern TRTLLM = Pattern.compile(
      "^\\[(?:TRT-LLM|TensorRT-LLM)\\]\\s*(?:\\[RANK \\d+\\]\\s*)?\\[(?:I|W|E|V|D|INFO|WARNING|ERROR|VERBOSE|DEBUG)\\]\\s*");
  private static final Pattern GLOG = Pattern.compile(
      "^[IWEF]\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d+\\s+\\d+\\s+[^\\s\\]]+:\\d+\\]\\s*");
  private static final Pattern TORCH_RANK = Pattern.compile("^\\[_torch\\]\\s*\\[RANK (\\d+)\\]\\s*");
  private static final List<Pattern> PLAIN = List.of(CONTAINER, TRTLLM, GLOG);

  /** The payload of a line (leading blanks removed, trailing kept) and what its prefixes said. */
  record Stripped(String payload, String loggerTime, Integer rank, boolean glog) {}

  static Stripped strip(String line) {
    String s = line;
    String time = null;
    Integer rank = null;
    boolean glog = false;
    boolean again = true;
    while (again) {
      again = false;
      for (Pattern p : PLAIN) {
        Matcher m = p.matcher(s);
        if (m.find()) {
          glog |= p == GLOG;
          s = s.substring(m.end());
          again = true;
        }
      }
      Matcher t = LOGGER_TIME.matcher(s);
      if (t.find()) {
        time = t.group(1);
        s = s.substring(t.end());
        again = true;
      }
      Matcher r = TORCH_RANK.matcher(s);
      if (r.find()) {
        rank = Integer.valueOf(r.group(1));
        s = s.substring(r.end());
        again = true;
      }
    }
    return new Stripped(s.stripLeading(), time, rank, glog); // trailing blanks may be inside a wrapped key
  }
}
