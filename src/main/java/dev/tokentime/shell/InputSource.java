package dev.tokentime.shell;

import java.io.IOException;

/** Where the shell's statements come from: a terminal with line editing, or a script. */
public interface InputSource {
  /** The next statement or dot-command; null at the end of the input. */
  ShellInput next() throws IOException;
}
