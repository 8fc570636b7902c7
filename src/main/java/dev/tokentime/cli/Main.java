package dev.tokentime.cli;

import dev.tokentime.Version;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The tokentime command line: {@code tokentime <command> ...}. */
@Command(name = "tokentime", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT,
    versionProvider = Main.VersionProvider.class,
    description = {"LLM serving timing logs into one DuckDB database, answered with documented SQL.",
        "TTFT split into queueing and prefill, ITL distributions, throughput, per-level tables."},
    footer = {"", Main.EXIT_CODES, "", "Start with: tokentime analyze sample-logs/"})
public final class Main {
  static final String EXIT_CODES = "Exit codes: 0 ok, 1 SLO not met or check failed, 2 bad input or usage, 3 internal error.";
  /** The exit codes of a command that judges nothing: only check fails with 1 (ExitCode.CHECK_FAILED). */
  static final String EXIT_CODES_NO_CHECK = "Exit codes: 0 ok, 2 bad input or usage, 3 internal error.";

  /** Whether a command exits 1 when an SLO is not met or a check fails. */
  static boolean judges(String command) {
    return command.equals("check");
  }

  /** The commands, in the order the help lists them. */
  static final List<Class<?>> COMMANDS = List.of(AnalyzeCommand.class, IngestCommand.class, SummaryCommand.class,
      QueryCommand.class, ReportCommand.class, CheckCommand.class, CompareCommand.class, ConventionsCommand.class,
      FormatsCommand.class, GenerateCommand.class, ShellCommand.class, ExportCommand.class,
      CommandLine.HelpCommand.class);

  public static void main(String[] args) {
    // Arrow checks every buffer access against its bounds unless told otherwise; the batches
    // (store.ArrowBatch) never write past the capacity they allocated, and the checks cost a
    // tenth of the ingest. Must be set before the first Arrow class loads. Tests keep the checks.
    System.setProperty("arrow.enable_unsafe_memory_access", "true");
    Interrupted.watch(args.length > 0 ? args[0] : null, System.err);
    int code;
    try {
      code = commandLine(new PrintWriter(System.out, true),
          // stderr carries messages only: log text quoted in them is shown, never obeyed
          dev.tokentime.output.Terminal.printable(new java.io.OutputStreamWriter(System.err)),
          args.length > 0 ? args[0] : null).execute(args);
    } catch (Throwable t) {
      // an Error the commands do not catch (out of memory, a missing class): exit 3 saying so,
      // not the JVM's 1 (SLO not met) nor the shutdown hook's "interrupted" (finished below)
      System.err.println("tokentime: internal error: " + t
          + (t instanceof OutOfMemoryError ? " (TOKENTIME_JAVA_OPTS=-Xmx2g gives the JVM more)" : "")
          + " (please report it)");
      if (System.getenv("TOKENTIME_DEBUG") != null) {
        t.printStackTrace();
      }
      code = ExitCode.INTERNAL;
    }
    Interrupted.finished();
    System.exit(code);
  }

  /** The wiring shared by main and the tests: writers, exit codes for usage errors. */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    return commandLine(out, err, null);
  }

  /**
   * As {@link #commandLine(PrintWriter, PrintWriter)}, with only the command {@code first} names
   * when it names one: picocli builds a command's model from its annotations when it is added,
   * and a run uses one command. Anything else ({@code --help}, {@code help}, a mistyped command
   * that the suggestions compare with every name) gets them all.
   */
  static CommandLine commandLine(PrintWriter out, PrintWriter err, String first) {
    CommandLine cl = new CommandLine(new Main());
    Class<?> named = named(first);
    for (Class<?> c : COMMANDS) {
      if (named == null || c == named) {
        cl.addSubcommand(c);
      }
    }
    cl.setOut(out);
    cl.setErr(err);
    cl.setUsageHelpAutoWidth(true);
    if (!dev.tokentime.output.Terminal.isTerminal(1)) {
      // help sent to a pager or a file: picocli's 80 columns broke the longer examples in two
      // (a jq expression split over two lines), and a copied command would not run
      cl.setUsageHelpWidth(132);
    }
    cl.setExitCodeExceptionMapper(e -> ExitCode.INTERNAL);
    cl.setParameterExceptionHandler((ex, a) -> {
      PrintWriter w = ex.getCommandLine().getErr();
      String message = ex.getMessage();
      if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getCommandLine().getSubcommands().isEmpty()
          && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
        message = "unknown command " + u.getUnmatched().get(0);
      }
      if (ex instanceof CommandLine.UnmatchedArgumentException u && message.startsWith("Unmatched argument")
          && !u.getUnmatched().isEmpty()) {
        // picocli's "Unmatched arguments from index 4: 'run', 'FROM', 'runs'": SQL typed without quotes
        List<String> extra = u.getUnmatched();
        String command = u.getCommandLine().getCommandName();
        message = "unexpected argument" + (extra.size() == 1 ? " " : "s ")
            + String.join(", ", extra.stream().map(x -> "'" + x + "'").toList())
            + (command.equals("query") || command.equals("export")
                ? "; SQL text is one argument: put it in quotes (\"SELECT * FROM run_summary\")" : "");
      }
      if (message.equals("Missing required subcommand") && ex.getCommandLine().getParent() == null) {
        // tokentime alone: the commands, rather than picocli's words for an empty line
        message = "no command given; the commands: " + String.join(", ", commandNames());
      }
      // picocli's "Invalid value for option '--levels' (C): 'x' is not an int": the option, then what is wrong
      message = message.replaceFirst("^Invalid value for option '([^']+)'(?: \\([^)]*\\))?: ", "$1: ")
          .replaceFirst("is not an int$", "is not a whole number").replaceFirst("is not a long$", "is not a whole number");
      w.println("tokentime: " + message.replaceAll(" {2,}", " "));
      String hint = ex instanceof CommandLine.UnmatchedArgumentException u ? Suggestions.forUnmatched(u) : null;
      if (hint != null) {
        w.println(hint);
      }
      String name = ex.getCommandLine().getCommandName();
      w.println("(" + (name.equals("tokentime") ? "tokentime" : "tokentime " + name) + " --help shows the usage)");
      return ExitCode.BAD_INPUT;
    });
    escapePercents(cl);
    exitCodesInHelp(cl);
    HelpWrap.install(cl);
    return cl;
  }

  /**
   * Every command's help ends with the exit codes: they were on the top-level help only, and a
   * script's author reads the help of the command the script runs.
   */
  private static void exitCodesInHelp(CommandLine cl) {
    for (CommandLine sub : cl.getSubcommands().values()) {
      var usage = sub.getCommandSpec().usageMessage();
      if (sub.getCommand() instanceof CommandLine.HelpCommand) {
        continue;
      }
      java.util.List<String> footer = new java.util.ArrayList<>(List.of(usage.footer()));
      // "1 SLO not met" only where the command can exit 1: formats' or ingest's help said it too
      String codes = judges(sub.getCommandName()) ? EXIT_CODES : EXIT_CODES_NO_CHECK;
      if (!footer.contains(codes)) {
        footer.add("");
        footer.add(codes);
        usage.footer(footer.toArray(String[]::new));
      }
    }
  }

  /** The commands' names, in the order the help lists them. */
  static List<String> commandNames() {
    return COMMANDS.stream().map(c -> c.getAnnotation(Command.class).name()).toList();
  }

  /** The command class whose name or alias is {@code arg}, or null. */
  static Class<?> named(String arg) {
    if (arg == null || arg.equals("help")) {
      return null; // help lists, or describes another command
    }
    for (Class<?> c : COMMANDS) {
      Command command = c.getAnnotation(Command.class);
      if (command.name().equals(arg) || List.of(command.aliases()).contains(arg)) {
        return c;
      }
    }
    return null;
  }

  /**
   * Help text is a format string to picocli: a lone % (as in "95 % interval") makes it print a
   * warning before the help. Every command's description, header and footer keep their % signs
   * as written.
   */
  private static void escapePercents(CommandLine cl) {
    var usage = cl.getCommandSpec().usageMessage();
    usage.description(escape(usage.description()));
    usage.footer(escape(usage.footer()));
    usage.header(escape(usage.header()));
    cl.getSubcommands().values().forEach(Main::escapePercents);
  }

  private static String[] escape(String[] lines) {
    String[] out = new String[lines.length];
    for (int i = 0; i < lines.length; i++) {
      // a % that is not already %% and not a %n line break
      out[i] = lines[i].replaceAll("(?<!%)%(?![%n])", "%%");
    }
    return out;
  }

  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"tokentime " + Version.get()};
    }
  }
}
