package dev.tokentime.shell;

/**
 * One unit of shell input: a complete SQL statement (without its closing semicolon) or a
 * dot-command line, with the line of the input it starts on (1-based), for error messages.
 */
public record ShellInput(String text, int line, boolean dotCommand) {}
