package dev.tokentime;

/**
 * A problem with what the user gave (a missing file, an unknown format, an unreadable database):
 * reported as one line on stderr with exit code 2, never as a stack trace.
 */
public class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BadInputException(String message) {
    super(message);
  }

  public BadInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
