package dev.tokentime.cli;

/** Named exit codes (docs/design.md, CLI). */
public final class ExitCode {
  private ExitCode() {}

  public static final int OK = 0;
  /** An SLO was not met or a check failed. */
  public static final int CHECK_FAILED = 1;
  /** Bad input or usage: a missing file, an unknown format, a rejected line under --strict. */
  public static final int BAD_INPUT = 2;
  /** A bug in tokentime. */
  public static final int INTERNAL = 3;
}
