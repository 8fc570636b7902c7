package dev.tokentime.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpSectionRenderer;

/**
 * Wraps help text only between words. picocli breaks lines where the JDK's line BreakIterator
 * allows, which is after a ':' or a '/' inside a word too: "[04:40:55 TP0]" came out as "[04:40:"
 * and "55 TP0]", "reports/out/" as "reports/" and "out/". Each section is rendered by picocli on
 * one line per paragraph (no width to wrap at) and wrapped here: at spaces only, a short bracketed
 * or quoted group ("[04:40:55 TP0]", "ttft_p95<=1s,itl_p95<=80ms") kept whole, a word longer than
 * the line left whole. An example command too long for the line moves its comment to the line
 * above and continues with a shell line continuation, so a copied example still runs.
 */
final class HelpWrap {
  private HelpWrap() {}

  /** The width picocli renders a section at, so it wraps nothing itself. */
  static final int UNWRAPPED = 10_000;
  /** A bracketed or quoted group up to this long is one unit; longer ones wrap between their words. */
  static final int MAX_GROUP = 40;

  /** Sections of two columns (names, then descriptions): wrapped lines hang under the descriptions. */
  private static final Set<String> TABLES = Set.of(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST,
      CommandLine.Model.UsageMessageSpec.SECTION_KEY_PARAMETER_LIST,
      CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST,
      CommandLine.Model.UsageMessageSpec.SECTION_KEY_EXIT_CODE_LIST);
  /** Sections of prose and examples. */
  private static final Set<String> TEXTS = Set.of(CommandLine.Model.UsageMessageSpec.SECTION_KEY_HEADER,
      CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION,
      CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER);

  /** Installs the wrapping on a command line and each of its subcommands. */
  static void install(CommandLine cl) {
    Map<String, IHelpSectionRenderer> sections = new java.util.LinkedHashMap<>(cl.getHelpSectionMap());
    for (Map.Entry<String, IHelpSectionRenderer> e : sections.entrySet()) {
      if (e.getKey().equals(CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS)) {
        IHelpSectionRenderer picocli = e.getValue();
        e.setValue(help -> synopsis(picocli, help));
        continue;
      }
      boolean table = TABLES.contains(e.getKey());
      if (table || TEXTS.contains(e.getKey())) {
        IHelpSectionRenderer picocli = e.getValue();
        e.setValue(help -> render(picocli, help, table));
      }
    }
    cl.setHelpSectionMap(sections);
    cl.getSubcommands().values().forEach(HelpWrap::install);
  }

  private static String render(IHelpSectionRenderer picocli, Help help, boolean table) {
    int width = help.commandSpec().usageMessage().width();
    return wrap(unwrapped(picocli, help), width, table);
  }

  /** The section as picocli renders it with no width to wrap at. */
  private static String unwrapped(IHelpSectionRenderer picocli, Help help) {
    var usage = help.commandSpec().usageMessage();
    int width = usage.width();
    boolean auto = usage.autoWidth();
    try {
      usage.autoWidth(false);
      usage.width(UNWRAPPED);
      return picocli.render(help);
    } finally {
      usage.width(width);
      usage.autoWidth(auto);
    }
  }

  /**
   * The synopsis after its "Usage: " heading, wrapped between options and under the first one:
   * picocli broke "[--compare=SIDE SIDE]..." at its space.
   */
  private static String synopsis(IHelpSectionRenderer picocli, Help help) {
    int width = help.commandSpec().usageMessage().width();
    String text = unwrapped(picocli, help);
    String heading = help.commandSpec().usageMessage().synopsisHeading().replace("%n", "");
    int shift = heading.contains("\n") ? 0 : visible(heading);
    String nl = System.lineSeparator();
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\r?\n", -1)) {
      if (out.length() > 0) {
        out.append(nl);
      }
      if (visible(line) + shift <= width || line.isBlank()) {
        out.append(line);
        continue;
      }
      String plain = ANSI.matcher(line).replaceAll("");
      int first = plain.indexOf('[');
      int hang = shift + (first > 0 && first < width / 2 ? first : 4);
      List<String> lines = fill(" ".repeat(shift) + line, width, hang, "");
      lines.set(0, lines.get(0).substring(shift));
      out.append(String.join(nl, lines));
    }
    return out.toString();
  }

  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");

  /** Columns a text takes on the terminal (ANSI styles take none). */
  static int visible(String s) {
    return ANSI.matcher(s).replaceAll("").length();
  }

  /** A section's text wrapped at {@code width}; in a table, wrapped lines hang under the descriptions. */
  static String wrap(String text, int width, boolean table) {
    String nl = System.lineSeparator();
    String[] lines = text.split("\r?\n", -1);
    int hang = table ? descriptionColumn(lines) + 2 : -1;
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (i > 0) {
        out.append(nl);
      }
      if (visible(line) <= width) {
        out.append(line);
        continue;
      }
      int lead = leading(line);
      if (!table && lead >= 2 && (line.startsWith("tokentime ", lead) || line.contains("| tokentime "))) {
        out.append(String.join(nl, example(line, lead, width)));
      } else {
        out.append(String.join(nl, fill(line, width, table && hang > lead ? hang : lead, "")));
      }
    }
    return out.toString();
  }

  /**
   * An example too long for the line: its comment on the line(s) above, then the command, continued
   * with " \" on lines indented 4 more, so that it runs as copied.
   */
  private static List<String> example(String line, int lead, int width) {
    List<String> out = new ArrayList<>();
    String command = line;
    int hash = line.indexOf("  #");
    if (hash > 0) {
      command = line.substring(0, hash).stripTrailing();
      String indent = " ".repeat(lead);
      String comment = indent + line.substring(hash).strip();
      out.addAll(fill(comment, width, lead + 2, ""));
    }
    if (visible(command) <= width) {
      out.add(command);
    } else {
      out.addAll(fill(command, width - 2, lead + 4, " \\"));
    }
    return out;
  }

  /**
   * Greedy filling between units (words, or short bracketed and quoted groups); {@code hang}
   * spaces before each wrapped line, {@code cont} after each line that goes on.
   */
  static List<String> fill(String line, int width, int hang, String cont) {
    int lead = leading(line);
    List<String> units = units(line.substring(lead), !cont.isEmpty());
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder(line.substring(0, lead));
    boolean empty = true;
    for (String unit : units) {
      String word = unit.strip();
      String gap = unit.substring(0, unit.length() - unit.stripLeading().length());
      if (!empty && visible(current.toString()) + visible(gap) + visible(word) > width) {
        out.add(current + cont);
        current = new StringBuilder(" ".repeat(hang));
        empty = true;
      }
      current.append(empty ? "" : gap).append(word);
      empty = false;
    }
    out.add(current.toString());
    return out;
  }

  /** Spaces at the start of a line. */
  private static int leading(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  /** Groups kept whole; parentheses hold prose and wrap inside. */
  private static final Map<Character, Character> CLOSES = Map.of('[', ']', '"', '"', '`', '`', '\'', '\'');

  /**
   * The line's units, each with the spaces before it: words, where a bracket or quote opened in a
   * word and closed within {@link #MAX_GROUP} characters joins the words between into one.
   */
  static List<String> units(String text, boolean shell) {
    List<String> words = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      int start = i;
      while (i < text.length() && text.charAt(i) == ' ') {
        i++;
      }
      while (i < text.length() && text.charAt(i) != ' ') {
        i++;
      }
      words.add(text.substring(start, i));
    }
    List<String> units = new ArrayList<>();
    for (int w = 0; w < words.size(); w++) {
      Character open = unclosed(words.get(w).strip(), shell);
      if (open == null) {
        units.add(words.get(w));
        continue;
      }
      // in a command, a line continuation inside single quotes would be part of the text: no limit
      int max = open == '\'' ? Integer.MAX_VALUE : MAX_GROUP;
      StringBuilder group = new StringBuilder(words.get(w));
      int end = -1;
      for (int v = w + 1; v < words.size() && visible(group.toString().strip()) <= max; v++) {
        group.append(words.get(v));
        if (words.get(v).indexOf(CLOSES.get(open)) >= 0) {
          end = v;
          break;
        }
      }
      if (end > 0 && visible(group.toString().strip()) <= max) {
        units.add(group.toString());
        w = end;
      } else {
        units.add(words.get(w));
      }
    }
    return shell ? options(units) : units;
  }

  /** In a command, an option and its value stay on one line ("--db run.duckdb", not "--db \"). */
  private static List<String> options(List<String> units) {
    List<String> out = new ArrayList<>();
    for (int u = 0; u < units.size(); u++) {
      String unit = units.get(u);
      String next = u + 1 < units.size() ? units.get(u + 1).strip() : null;
      if (unit.strip().startsWith("-") && next != null && !next.startsWith("-") && !next.matches("[|<>&;].*")
          && visible(unit.strip() + " " + next) <= MAX_GROUP) {
        out.add(unit + units.get(u + 1));
        u++;
      } else {
        out.add(unit);
      }
    }
    return out;
  }

  /**
   * The bracket or quote a word opens and does not close, or null; single quotes count in a shell
   * command only (in prose they are apostrophes).
   */
  private static Character unclosed(String word, boolean shell) {
    Map<Character, Integer> depth = new HashMap<>();
    Character last = null;
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (c == '"' || c == '`' || shell && c == '\'') {
        int d = depth.merge(c, 1, Integer::sum);
        last = d % 2 == 1 ? Character.valueOf(c) : null;
      } else if (c == '[') {
        depth.merge(c, 1, Integer::sum);
        last = c;
      } else if (c == ']') {
        depth.merge('[', -1, Integer::sum);
        if (last != null && last == '[' && depth.get('[') <= 0) {
          last = null;
        }
      }
    }
    return last;
  }

  /**
   * Where a table's descriptions start: the column most lines' text resumes at after the first
   * run of two or more spaces that follows the names.
   */
  static int descriptionColumn(String[] lines) {
    Map<Integer, Integer> counts = new HashMap<>();
    for (String line : lines) {
      String plain = ANSI.matcher(line).replaceAll("");
      int lead = leading(plain);
      int gap = plain.indexOf("  ", lead);
      if (lead < plain.length() && gap > 0) {
        int at = gap;
        while (at < plain.length() && plain.charAt(at) == ' ') {
          at++;
        }
        if (at < plain.length()) {
          counts.merge(at, 1, Integer::sum);
        }
      }
    }
    return counts.entrySet().stream().max(Map.Entry.<Integer, Integer>comparingByValue()
        .thenComparing(Map.Entry.comparingByKey())).map(Map.Entry::getKey).orElse(0);
  }
}
