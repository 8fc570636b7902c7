package dev.tokentime.ingest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The first bytes of a file, for sniffing. */
public record Sample(String fileName, byte[] bytes, int length) {

  /** The first non-blank lines of the sample (at most {@code max}), decoded leniently. */
  public List<String> firstLines(int max) {
    String text = new String(bytes, 0, length, StandardCharsets.UTF_8);
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    List<String> out = new ArrayList<>();
    int from = 0;
    while (out.size() < max && from < text.length()) {
      int nl = text.indexOf('\n', from);
      boolean complete = nl >= 0;
      String line = complete ? text.substring(from, nl) : text.substring(from);
      from = complete ? nl + 1 : text.length();
      if (!complete && out.size() > 0) {
        break; // a cut-off line at the end of the sample says nothing reliable
      }
      if (!line.isBlank()) {
        out.add(line.strip());
      }
    }
    return out;
  }

  /** The whole sample as text. */
  public String text() {
    return new String(bytes, 0, length, StandardCharsets.UTF_8);
  }
}
