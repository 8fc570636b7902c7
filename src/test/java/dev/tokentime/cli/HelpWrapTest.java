package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Help wraps between words only. picocli broke lines where the JDK allows a line break, a ':' or
 * a '/' inside a word among them: ingest --help at 80 columns showed "(SGLang 0.3's [04:40:" and
 * "55 TP0])", and an example too long for the line went on as a second line that does not run.
 */
class HelpWrapTest {
  /** picocli's narrowest, its default (a terminal it cannot measure), a wide terminal, a pipe. */
  static final int[] WIDTHS = {55, 80, 100, 132};

  static String help(String command, int width) {
    StringWriter out = new StringWriter();
    CommandLine cl = Main.commandLine(new PrintWriter(out), new PrintWriter(new StringWriter()));
    cl.setUsageHelpAutoWidth(false);
    cl.setUsageHelpWidth(width);
    CommandLine target = command == null ? cl : cl.getSubcommands().get(command);
    target.usage(new PrintWriter(out, true), CommandLine.Help.Ansi.OFF);
    return out.toString();
  }

  static List<String> commands() {
    List<String> names = new ArrayList<>();
    names.add(null); // tokentime --help
    Main.commandNames().stream().filter(n -> !n.equals("help")).forEach(names::add);
    return names;
  }

  /** A word, or a bracketed or quoted group of words up to HelpWrap.MAX_GROUP long: never split. */
  static final Pattern UNIT = Pattern.compile("\\[[^\\]\\n]{1,38}\\]|\"[^\"\\n]{1,38}\"|`[^`\\n]{1,38}`|\\S+");

  @Test
  void noWordNorShortGroupIsSplitAtAnyWidth() {
    List<String> split = new ArrayList<>();
    for (String command : commands()) {
      String whole = help(command, HelpWrap.UNWRAPPED);
      for (int width : WIDTHS) {
        String[] lines = help(command, width).split("\n");
        for (String ref : whole.split("\n")) {
          Matcher m = UNIT.matcher(ref);
          while (m.find()) {
            String unit = m.group();
            boolean whole1 = false;
            for (String line : lines) {
              if (line.contains(unit)) {
                whole1 = true;
                break;
              }
            }
            if (!whole1) {
              split.add((command == null ? "tokentime" : command) + " --help at " + width + ": " + unit);
            }
          }
        }
        for (String line : lines) {
          // a line over the width only when it is one unit too long for any line
          if (line.length() > width && line.strip().contains(" ") && !line.startsWith("Usage:")
              && !line.startsWith("       ")) {
            split.add((command == null ? "tokentime" : command) + " --help at " + width + ": too long: " + line);
          }
        }
      }
    }
    assertEquals(List.of(), split);
  }

  @Test
  void theSGLangTimeOfDayStaysWholeAt80Columns() {
    String ingest = help("ingest", 80);
    assertTrue(ingest.contains("[04:40:55 TP0]"), ingest);
  }

  /**
   * An example too long for the line keeps its comment above it and goes on with " \", so that
   * the lines copied into a shell are the one command.
   */
  @Test
  void aLongExampleStillRunsAsCopied() {
    for (String command : commands()) {
      String whole = help(command, HelpWrap.UNWRAPPED);
      for (int width : WIDTHS) {
        String joined = help(command, width).replaceAll(" \\\\\n +", " ").replaceAll(" +", " ");
        for (String ref : whole.split("\n")) {
          String example = ref.strip();
          if (!example.startsWith("tokentime ") && !example.contains("| tokentime ")) {
            continue;
          }
          int hash = example.indexOf("  #");
          String run = (hash > 0 ? example.substring(0, hash) : example).strip().replaceAll(" +", " ");
          assertTrue(joined.contains(run + "\n") || joined.contains(run + " #"), command + " at " + width + ": " + run
              + "\n" + joined);
          if (hash > 0) {
            String comment = example.substring(hash).strip().replaceAll(" +", " ");
            String shown = joined.replaceAll("\n +(?!#|tokentime )", " ");
            assertTrue(shown.contains(comment), command + " at " + width + ": " + comment + "\n" + shown);
          }
        }
      }
    }
    String report = help("report", 80);
    assertTrue(report.contains("\n  tokentime report --db sweep.duckdb --slo \"ttft_p95<=1s,itl_p95<=80ms\" \\\n"
        + "      -o incident.html\n"), report);
    assertTrue(report.contains("\n  # Markdown on stdout\n  tokentime report --db sweep.duckdb --format markdown -o -\n"),
        report);
  }
}
