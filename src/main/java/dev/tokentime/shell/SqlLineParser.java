package dev.tokentime.shell;

import java.util.ArrayList;
import java.util.List;
import org.jline.reader.CompletingParsedLine;
import org.jline.reader.EOFError;
import org.jline.reader.Parser;

/**
 * Tells JLine when the buffer is a complete input (every statement ended by ';', or a
 * dot-command), so Enter in the middle of a statement opens a continuation line, and splits the
 * buffer into words for completion: a word is a run of name characters (letters, digits, _ and
 * . for qualified names and dot-commands).
 */
final class SqlLineParser implements Parser {

  @Override
  public CompletingParsedLine parse(String line, int cursor, ParseContext context) {
    if (context == ParseContext.ACCEPT_LINE && !StatementSplitter.isComplete(line)) {
      throw new EOFError(-1, -1, "the statement goes on until ';'", ";");
    }
    List<String> words = new ArrayList<>();
    int wordIndex = -1;
    int wordCursor = 0;
    int i = 0;
    while (i <= line.length()) {
      int start = i;
      while (i < line.length() && isWordChar(line.charAt(i))) {
        i++;
      }
      if (cursor >= start && cursor <= i && wordIndex < 0) {
        wordIndex = words.size();
        wordCursor = cursor - start;
      }
      if (i > start || (wordIndex == words.size())) {
        words.add(line.substring(start, i));
      }
      i++;
    }
    if (wordIndex < 0) {
      wordIndex = words.size();
      words.add("");
    }
    return new Parsed(line, cursor, words, wordIndex, wordCursor);
  }

  static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '.';
  }

  record Parsed(String line, int cursor, List<String> words, int wordIndex, int wordCursor)
      implements CompletingParsedLine {
    @Override
    public String word() {
      return words.get(wordIndex);
    }

    // names need no quoting or escaping: a candidate is inserted as it is
    @Override
    public CharSequence escape(CharSequence candidate, boolean complete) {
      return candidate;
    }

    @Override
    public int rawWordCursor() {
      return wordCursor;
    }

    @Override
    public int rawWordLength() {
      return word().length();
    }
  }
}
