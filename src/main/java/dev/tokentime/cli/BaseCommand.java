package dev.tokentime.cli;

import dev.tokentime.BadInputException;
import dev.tokentime.app.DatabaseErrors;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Every command: runs {@link #run()} and turns failures into one line on stderr and a named exit
 * code — bad input is exit 2, a tokentime bug exit 3 (with the stack trace when TOKENTIME_DEBUG
 * is set).
 */
abstract class BaseCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  /** Does the command's work; returns its exit code. */
  protected abstract int run() throws Exception;

  @Override
  public final Integer call() {
    try {
      int code = run();
      out().flush();
      if (out().checkError() && !dev.tokentime.output.OutputClosed.stdoutIsPipe()) {
        // a print writer keeps a failed write to itself: a full disk or a closed descriptor
        // behind standard output lost the output while the command said nothing (exit 0)
        err().println("tokentime: could not write to standard output (the device is full, or it was"
            + " closed): the output is incomplete");
        return ExitCode.BAD_INPUT;
      }
      return code;
    } catch (BadInputException e) {
      err().println("tokentime: " + e.getMessage());
      debug(e);
      return ExitCode.BAD_INPUT;
    } catch (Exception e) {
      if (dev.tokentime.output.OutputClosed.isClosedPipe(e)) {
        // the reader stopped (| head): what it read is what it asked for, as for grep or cat
        if (!(e instanceof dev.tokentime.output.OutputClosed c) || c.readerGone()) {
          debug(e);
          return ExitCode.OK;
        }
        err().println("tokentime: could not write to standard output (" + e.getMessage()
            + "): the device failed or is full; the output is incomplete");
        return ExitCode.BAD_INPUT;
      }
      if (e instanceof java.io.IOException io && !(e instanceof java.nio.file.FileSystemException)
          && io.getMessage() != null && io.getMessage().contains("No space left")) {
        err().println("tokentime: could not write: " + io.getMessage() + "; the output is incomplete");
        debug(e);
        return ExitCode.BAD_INPUT;
      }
      if (e instanceof java.nio.file.FileSystemException f) {
        // an output path that cannot be written (a file where a folder should be, no permission):
        // the user's to fix, as export says it
        err().println("tokentime: cannot write or read " + f.getFile() + ": " + fileProblem(f));
        debug(e);
        return ExitCode.BAD_INPUT;
      }
      if (DatabaseErrors.isDatabaseError(e)) {
        err().println("tokentime: database error: " + DatabaseErrors.describe(e));
        debug(e);
        return ExitCode.BAD_INPUT;
      }
      err().println("tokentime: internal error: " + e
          + " (set TOKENTIME_DEBUG=1 for the stack trace; please report it)");
      debug(e);
      return ExitCode.INTERNAL;
    } finally {
      out().flush();
      err().flush();
    }
  }

  static String fileProblem(java.nio.file.FileSystemException f) {
    if (f instanceof java.nio.file.NoSuchFileException) {
      return "no such file or directory";
    }
    if (f instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (f instanceof java.nio.file.FileAlreadyExistsException) {
      return "it exists, and is not a directory";
    }
    if (f instanceof java.nio.file.NotDirectoryException) {
      return "not a directory";
    }
    return f.getReason() != null ? f.getReason() : f.getClass().getSimpleName();
  }

  private void debug(Exception e) {
    if (debugOn(System.getenv("TOKENTIME_DEBUG"))) {
      e.printStackTrace(err());
    }
  }

  /** TOKENTIME_DEBUG: set and not 0, false, off or no (any case), as a user means it. */
  static boolean debugOn(String value) {
    return value != null && !value.isBlank()
        && !value.strip().toLowerCase(java.util.Locale.ROOT).matches("0|false|off|no");
  }

  protected PrintWriter out() {
    return spec.commandLine().getOut();
  }

  protected PrintWriter err() {
    return spec.commandLine().getErr();
  }

  protected static CommandLine.ParameterException usage(CommandLine cl, String msg) {
    return new CommandLine.ParameterException(cl, msg);
  }
}
