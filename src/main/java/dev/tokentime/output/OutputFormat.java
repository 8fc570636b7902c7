package dev.tokentime.output;

import dev.tokentime.BadInputException;
import java.util.Locale;

/** Output formats of query and summary (--format). */
public enum OutputFormat {
  TEXT, CSV, JSON, MARKDOWN;

  public static OutputFormat parse(String s) {
    return parse(s, "");
  }

  /** As {@link #parse(String)}; {@code more} names the command's other formats in the message (", arrow"). */
  public static OutputFormat parse(String s, String more) {
    try {
      return valueOf(s.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadInputException("unknown output format " + s + " (text, csv, json, markdown" + more + ")");
    }
  }
}
