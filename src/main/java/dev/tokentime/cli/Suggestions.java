package dev.tokentime.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * "Did you mean …?" for a mistyped command or option: the names within a small edit distance
 * (a typo, a swapped or missing letter), or that the word starts.
 */
final class Suggestions {
  private Suggestions() {}

  /** The suggestion line for an unmatched argument, or null when nothing is close. */
  static String forUnmatched(CommandLine.UnmatchedArgumentException e) {
    CommandLine cl = e.getCommandLine();
    for (String arg : e.getUnmatched()) {
      List<String> names = new ArrayList<>();
      if (arg.startsWith("-")) {
        String option = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
        for (OptionSpec o : cl.getCommandSpec().options()) {
          names.addAll(List.of(o.names()));
        }
        List<String> close = closest(option, names);
        if (!close.isEmpty()) {
          return "did you mean " + String.join(" or ", close) + "?";
        }
      } else if (!cl.getSubcommands().isEmpty()) {
        List<String> close = closest(arg, cl.getSubcommands().keySet());
        if (!close.isEmpty()) {
          return "did you mean " + String.join(" or ", close.stream().map(c -> "tokentime " + c).toList()) + "?";
        }
      }
    }
    return null;
  }

  static List<String> closest(String word, Collection<String> names) {
    String w = word.toLowerCase(Locale.ROOT);
    int best = Integer.MAX_VALUE;
    List<String> found = new ArrayList<>();
    for (String n : names) {
      String c = n.toLowerCase(Locale.ROOT);
      int bare = c.replaceFirst("^-+", "").length();
      int d = distance(w, c);
      boolean near = d <= Math.max(1, Math.min(3, bare / 3)) || (w.replaceFirst("^-+", "").length() >= 3
          && c.startsWith(w) && !c.equals(w));
      if (!near) {
        continue;
      }
      if (d < best) {
        best = d;
        found.clear();
      }
      if (d == best) {
        found.add(n);
      }
    }
    return found;
  }

  /** Levenshtein distance, a swap of two neighbours counting as one edit. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
